import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTROL_PREFIX, controlRefusal, handleControl, newControlToken } from './control';
import { addWideDataset, defaultCredentials, demoData, emptyData } from './demoData';
import { FaultInjector, type PlannedFault } from './faults';
import { ListCache } from './listCache';
import { lockDataFile, type DataFileLock } from './dataFileLock';
import { DataFileStore } from './persistence';
import { RateLimiter } from './rateLimiter';
import {
  errorFor,
  json,
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
import { QUERY_ROUTES } from './queries/routes';
import { DEFAULT_QUERY_RESULT_RATE_LIMIT, QueryRuntime } from './queries/runtime';
import { matchRoute, operationKind, type Route } from './router';
import { V1_ROUTES } from './serviceV1';
import { V2_ROUTES } from './serviceV2';
import { dataOf, replaceData, type ConfigKey, type SandboxData, type SandboxState } from './state';
import type { RecordedRequest, SandboxHandle, SandboxInfo, SandboxOptions } from './types';
import { UI_PREFIX, uiPage } from './ui';

/** Request bodies over this many bytes answer 413 (service-facts note). */
export const MAX_BODY_BYTES = 100_000;
/** Oldest recorded requests are dropped beyond this, so a long-running sandbox does not grow without bound. */
const MAX_RECORDED = 10_000;
const REDACTED_HEADERS = new Set(['authorization', 'x-service-team', 'cookie', 'proxy-authorization']);

const ROUTES: Route[] = [...V1_ROUTES, ...QUERY_ROUTES, ...V2_ROUTES];

interface ReceivedBody {
  bytes: Buffer;
  size: number;
  tooLarge: boolean;
}

/**
 * Reads a body up to MAX_BODY_BYTES; past that the rest is read and dropped (never kept), so a body of any
 * size gets its 413 answer instead of a dropped connection. Node's requestTimeout bounds how long that takes.
 */
function readBody(req: IncomingMessage): Promise<ReceivedBody | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve({ bytes: Buffer.concat(chunks), size, tooLarge: size > MAX_BODY_BYTES }));
    req.on('error', () => resolve(undefined));
  });
}

function mediaType(header: string | undefined): { type: string; params: string[] } {
  const [type = '', ...params] = (header ?? '').split(';').map((p) => p.trim().toLowerCase());
  return { type, params: params.filter((p) => p !== '') };
}

function redactedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name] = REDACTED_HEADERS.has(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of params) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function parsedForRecord(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const HTML_ERROR_PAGE = (status: number) =>
  `<!DOCTYPE html>\n<html><head><title>${status} ${titleOf(status)}</title></head>` +
  `<body><center><h1>${status} ${titleOf(status)}</h1></center><hr><center>proxy</center></body></html>\n`;

/**
 * Waits `ms`; true when the time ran out, false when the connection closed first (the client gave up or the
 * sandbox is closing), so an injected latency never keeps a timer, or the process, alive for nobody.
 */
function delayUnlessClosed(ms: number, res: ServerResponse): Promise<boolean> {
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

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const clock = opts.clock ?? Date.now;
  const now = () => new Date(clock());
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? 0;
  const rateLimit = opts.rateLimit ?? 100;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new RangeError(`port must be 0 to 65535, got ${port}`);
  if (!Number.isInteger(rateLimit) || rateLimit < 1) throw new RangeError(`rateLimit must be a whole number >= 1, got ${rateLimit}`);
  const queryRateLimit = opts.queryResultRateLimit ?? DEFAULT_QUERY_RESULT_RATE_LIMIT;
  if (!Number.isInteger(queryRateLimit) || queryRateLimit < 1) throw new RangeError(`queryResultRateLimit must be a whole number >= 1, got ${queryRateLimit}`);
  // A short token could be guessed by a web page trying them one after another.
  if (opts.controlToken !== undefined && opts.controlToken.length < 16) throw new RangeError('controlToken must be at least 16 characters');
  const initialData = (): SandboxData => (opts.demo === false ? emptyData() : demoData());

  const store = opts.dataFile !== undefined ? new DataFileStore(opts.dataFile) : undefined;
  // One sandbox per data file: two would overwrite each other's writes.
  const lock: DataFileLock | undefined = opts.dataFile !== undefined ? await lockDataFile(opts.dataFile) : undefined;
  let data: SandboxData | undefined;
  let state: SandboxState;
  try {
    if (store !== undefined) data = await store.load();
    state = { ...(data ?? initialData()), credentials: defaultCredentials() };
    // A new file is written at once, so an unwritable location fails at start, not at the first edit.
    if (store && data === undefined) await store.save(dataOf(state));
  } catch (err) {
    await lock?.release();
    throw err;
  }

  const faults = new FaultInjector();
  const lists = new ListCache();
  const requests: RecordedRequest[] = [];
  const limiter = new RateLimiter(rateLimit, clock);
  const queries = new QueryRuntime(queryRateLimit, clock);
  let baseUrl = '';
  let boundPort = 0;
  // Control requests must carry it (X-Sandbox-Token): a web page the user visits cannot learn it.
  const controlToken = opts.controlToken ?? newControlToken();

  let writeLock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = writeLock.then(fn);
    writeLock = run.catch(() => undefined);
    return run;
  };

  const persist = async (): Promise<void> => {
    if (store) await store.save(dataOf(state));
  };

  const info = (): SandboxInfo => {
    const management = state.credentials.managementKey;
    const writer = state.credentials.configKeys.find((k) => k.canWrite) ?? state.credentials.configKeys[0];
    return {
      baseUrl,
      uiUrl: `${baseUrl}${UI_PREFIX}`,
      team: state.team,
      environmentId: state.environmentId,
      configKey: writer?.key ?? '',
      managementKey: `${management.id}:${management.secret}`,
      datasets: state.datasets.map((d) => d.slug),
      slos: state.slos.map((s) => ({ dataset: s.dataset, id: s.id })),
      controlToken,
    };
  };

  const control = {
    faults,
    requests,
    info,
    reset: async () => {
      replaceData(state, initialData());
      lists.invalidate();
      faults.clear();
      requests.length = 0;
      limiter.reset();
      queries.reset();
      await persist();
    },
    addDataset: async (slug: string, columns: number) => {
      addWideDataset(state, slug, columns);
      lists.invalidate();
      await persist();
    },
  };

  /** The answer of the service proper: routing, auth, rate limit, body checks, then the handler. */
  async function serviceReply(req: IncomingMessage, url: URL, api: Api, body: ReceivedBody): Promise<Reply> {
    const method = req.method ?? 'GET';
    const kind = operationKind(method);
    const peekHeaders = () => limiter.peek(state.team, kind).headers;
    const withHeaders = (reply: Reply, headers: Record<string, string>): Reply => ({
      ...reply,
      headers: { ...headers, ...reply.headers },
    });

    const match = matchRoute(ROUTES, method, url.pathname);
    if (match.kind === 'none') return withHeaders(errorFor(api, baseUrl, 404, `no endpoint at ${url.pathname}`), peekHeaders());
    if (match.kind === 'wrong-method') {
      return withHeaders(errorFor(api, baseUrl, 405, `${method} is not allowed on ${url.pathname}`), {
        ...peekHeaders(),
        Allow: match.allow.join(', '),
      });
    }
    const route = match.route;

    let configKey: ConfigKey | undefined;
    if (route.api === 'v1') {
      const key = req.headers['x-service-team'];
      configKey = state.credentials.configKeys.find((k) => k.key === key);
      if (!configKey) return withHeaders(legacy(401, UNKNOWN_KEY_MESSAGE), peekHeaders());
    } else {
      const m = /^Bearer ([^:\s]+):(\S+)$/.exec(req.headers.authorization ?? '');
      const mk = state.credentials.managementKey;
      if (!m || m[1] !== mk.id || m[2] !== mk.secret) {
        const detail = m ? 'unknown management key' : 'expected "Authorization: Bearer <KEY_ID>:<KEY_SECRET>"';
        return withHeaders(jsonApi(401, [jsonApiError(401, detail, { header: 'Authorization' })]), peekHeaders());
      }
    }

    const rate = limiter.take(state.team, kind);
    if (!rate.allowed) {
      const reply =
        route.api === 'v2'
          ? jsonApi(429, [jsonApiError(429, 'rate limit exceeded: retry after the time in Retry-After')])
          : problem(baseUrl, 429, 'rate limit exceeded: retry after the time in Retry-After');
      return withHeaders(reply, { ...rate.headers, 'Retry-After': rate.resetAt.toUTCString() });
    }
    const respond = (reply: Reply) => withHeaders(reply, rate.headers);

    if (configKey && !configKey.canWrite && kind === 'write') {
      return respond(problem(baseUrl, 403, `the key "${configKey.name}" does not have permission to change this resource`));
    }

    let parsedBody: unknown = undefined;
    if (route.body) {
      if (body.tooLarge) {
        return respond(errorFor(api, baseUrl, 413, `request body is ${body.size} bytes; the limit is ${MAX_BODY_BYTES}`));
      }
      const media = mediaType(req.headers['content-type']);
      if (route.api === 'v2') {
        // JSON:API: its media type, with no parameters other than ext and profile.
        const badParams = media.params.some((p) => !/^(ext|profile)=/.test(p));
        if (media.type !== MEDIA.jsonApi || badParams) {
          return respond(
            jsonApi(415, [jsonApiError(415, `Content-Type must be ${MEDIA.jsonApi}`, { header: 'Content-Type' })]),
          );
        }
      } else if (media.type !== MEDIA.json) {
        return respond(problem(baseUrl, 415, `Content-Type must be ${MEDIA.json}`));
      }
      try {
        parsedBody = JSON.parse(body.bytes.toString('utf8'));
      } catch (err) {
        return respond(errorFor(api, baseUrl, 400, `request body is not valid JSON: ${(err as Error).message}`));
      }
    }

    const handle = () => route.handler({ state, baseUrl, uiUrl: `${baseUrl}${UI_PREFIX}`, now, params: match.params, query: url.searchParams, body: parsedBody, queries, lists });
    if (kind === 'read') return respond(handle());
    // Writes run one at a time, each with its save, so a write whose save fails can be undone exactly and
    // memory never holds a change the data file does not.
    const reply = await exclusive(async (): Promise<Reply> => {
      const result = handle();
      if (result.status >= 300) return result;
      lists.invalidate();
      try {
        await persist();
      } catch (err) {
        // Undone from the file as last saved: no copy of the data is made before each write.
        const saved = store?.lastSaved();
        if (saved !== undefined) replaceData(state, saved);
        lists.invalidate();
        return errorFor(api, baseUrl, 500, `the sandbox could not save its data, so the change was undone: ${(err as Error).message}`);
      }
      return result;
    });
    return respond(reply);
  }

  function faultReply(fault: Extract<PlannedFault, { kind: 'status' | 'html' }>, api: Api, method: string): Reply {
    const rate = limiter.peek(state.team, operationKind(method));
    const headers: Record<string, string> = { ...rate.headers };
    if (fault.kind === 'html') return { status: fault.status, contentType: MEDIA.html, body: HTML_ERROR_PAGE(fault.status), headers };
    if (fault.retryAfter !== undefined) headers['Retry-After'] = String(fault.retryAfter);
    else if (fault.status === 429) headers['Retry-After'] = rate.resetAt.toUTCString();
    const detail = `injected fault: ${fault.status} ${titleOf(fault.status)}`;
    const shape = fault.shape === 'auto' ? (api === 'v2' ? 'jsonapi' : fault.status === 401 ? 'legacy' : 'problem') : fault.shape;
    const reply =
      shape === 'empty'
        ? { status: fault.status, body: '' }
        : shape === 'legacy'
          ? legacy(fault.status, fault.status === 401 ? UNKNOWN_KEY_MESSAGE : detail)
          : shape === 'jsonapi'
            ? jsonApi(fault.status, [jsonApiError(fault.status, detail)])
            : problem(baseUrl, fault.status, detail);
    return { ...reply, headers };
  }

  function send(res: ServerResponse, reply: Reply, fault?: PlannedFault): void {
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

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    if (!body) return;

    if (url.pathname.startsWith(CONTROL_PREFIX)) {
      const refusal = controlRefusal(req, { token: controlToken, port: boundPort, host });
      if (refusal !== undefined) {
        send(res, json(403, { error: refusal }));
        return;
      }
      if (body.tooLarge) {
        send(res, json(413, { error: `request body is ${body.size} bytes; the limit is ${MAX_BODY_BYTES}` }));
        return;
      }
      send(res, await handleControl(control, method, url.pathname, body.bytes.toString('utf8')));
      return;
    }
    if (url.pathname === UI_PREFIX || url.pathname.startsWith(`${UI_PREFIX}/`)) {
      send(res, uiPage(url.pathname));
      return;
    }

    const text = body.tooLarge ? '' : body.bytes.toString('utf8');
    requests.push({
      method,
      path: url.pathname,
      query: queryRecord(url.searchParams),
      headers: redactedHeaders(req),
      body: body.tooLarge ? undefined : parsedForRecord(text),
      bodyBytes: body.size,
      at: now().toISOString(),
    });
    if (requests.length > MAX_RECORDED) requests.splice(0, requests.length - MAX_RECORDED);

    if (faults.latencyMs > 0 && !(await delayUnlessClosed(faults.latencyMs, res))) return;
    const api: Api = url.pathname.startsWith('/2/') ? 'v2' : 'v1';
    const fault = faults.take(method, url.pathname);
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'status' || fault?.kind === 'html') {
      send(res, faultReply(fault, api, method));
      return;
    }
    send(res, await serviceReply(req, url, api, body), fault);
  }

  const server = createServer((req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const rate = limiter.peek(state.team, operationKind(req.method ?? 'GET'));
      send(res, { ...problem(baseUrl, 500, `internal sandbox error: ${(err as Error).message}`), headers: rate.headers });
    });
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await lock?.release();
    throw err;
  }
  const address = server.address() as AddressInfo;
  boundPort = address.port;
  baseUrl = `http://${hostForUrl(host)}:${address.port}`;

  let closed: Promise<void> | undefined;
  return {
    get info() {
      return info();
    },
    faults,
    requests,
    state,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })
        .then(() => store?.flush())
        .finally(() => lock?.release());
      return closed;
    },
  };
}
