import type { ServerResponse } from 'node:http';
import type { PlannedFault } from './faults';
import {
  jsonApi,
  jsonApiError,
  legacy,
  MEDIA,
  problem,
  titleOf,
  UNKNOWN_KEY_MESSAGE,
  type Api,
  type Reply,
} from './responses';

// Sending a reply, as is or spoiled by an injected fault, and the answers of the faults that replace one.

const HTML_ERROR_PAGE = (status: number) =>
  `<!DOCTYPE html>\n<html><head><title>${status} ${titleOf(status)}</title></head>` +
  `<body><center><h1>${status} ${titleOf(status)}</h1></center><hr><center>proxy</center></body></html>\n`;

/**
 * Waits `ms`; true when the time ran out, false when the connection closed first (the client gave up or the
 * sandbox is closing), so an injected latency never keeps a timer, or the process, alive for nobody.
 */
export function delayUnlessClosed(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    res.once('close', onClose);
  });
}

/** The answer of a fault that replaces the service's, with the rate-limit headers as they stand. */
export function faultReply(
  fault: Extract<PlannedFault, { kind: 'status' | 'html' }>,
  api: Api,
  context: { baseUrl: string; rate: { headers: Record<string, string>; resetAt: Date } },
): Reply {
  const headers: Record<string, string> = { ...context.rate.headers };
  if (fault.kind === 'html')
    return { status: fault.status, contentType: MEDIA.html, body: HTML_ERROR_PAGE(fault.status), headers };
  if (fault.retryAfter !== undefined) headers['Retry-After'] = String(fault.retryAfter);
  else if (fault.status === 429) headers['Retry-After'] = context.rate.resetAt.toUTCString();
  const detail = `injected fault: ${fault.status} ${titleOf(fault.status)}`;
  const shape =
    fault.shape === 'auto' ? (api === 'v2' ? 'jsonapi' : fault.status === 401 ? 'legacy' : 'problem') : fault.shape;
  const reply =
    shape === 'empty'
      ? { status: fault.status, body: '' }
      : shape === 'legacy'
        ? legacy(fault.status, fault.status === 401 ? UNKNOWN_KEY_MESSAGE : detail)
        : shape === 'jsonapi'
          ? jsonApi(fault.status, [jsonApiError(fault.status, detail)])
          : problem(context.baseUrl, fault.status, detail);
  return { ...reply, headers };
}

/** Sends `reply`; a `truncate` or `malformed` fault spoils its body. */
export function send(res: ServerResponse, reply: Reply, fault?: PlannedFault): void {
  const full = reply.bytes ?? Buffer.from(reply.body, 'utf8');
  const headers: Record<string, string | number> = { ...reply.headers };
  if (reply.contentType !== undefined && full.length > 0) headers['Content-Type'] = reply.contentType;
  if (fault?.kind === 'truncate') {
    // Promise the whole body, send half, then drop the connection.
    headers['Content-Length'] = Math.max(full.length, 2);
    res.writeHead(reply.status, headers);
    res.write(full.subarray(0, Math.floor(full.length / 2)), () => res.destroy());
    return;
  }
  let body = full;
  if (fault?.kind === 'malformed') {
    // Every service body is an object or array, so any strict prefix of it is not valid JSON.
    const text = reply.body;
    body = Buffer.from(text.length > 1 ? text.slice(0, Math.ceil(text.length / 2)) : '{', 'utf8');
    headers['Content-Type'] = reply.contentType ?? MEDIA.json;
  }
  headers['Content-Length'] = body.length;
  res.writeHead(reply.status, headers);
  res.end(body);
}
