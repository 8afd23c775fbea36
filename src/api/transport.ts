import { rootCertificates } from 'node:tls';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, EnvHttpProxyAgent, ProxyAgent, type Dispatcher } from 'undici';

export interface Timeouts {
  /** TCP + TLS connect. Default 10 s. */
  connectMs?: number;
  /** From sending the request to the end of the response headers. Default 30 s. */
  headersMs?: number;
  /** Longest pause between two body chunks. Default 30 s. */
  bodyMs?: number;
  /**
   * Longest time to read one whole response body. Default 120 s. Without it a body that trickles in, a chunk
   * just inside `bodyMs` at a time, would keep a call going without end.
   */
  bodyTotalMs?: number;
}

export const TIMEOUT_DEFAULTS: Required<Timeouts> = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
  bodyTotalMs: 120_000,
};

/** Code of the failure when a body takes longer than `bodyTotalMs` (undici has no such timeout of its own). */
export const BODY_TOTAL_TIMEOUT = 'BODY_TOTAL_TIMEOUT';

class BodyTotalTimeoutError extends Error {
  readonly code = BODY_TOTAL_TIMEOUT;
}

export interface DispatcherOptions {
  proxy?: string;
  caCertificates?: string[];
  timeouts: Required<Timeouts>;
}

const PROXY_ENV = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;

function hasEnvProxy(): boolean {
  return PROXY_ENV.some((name) => (process.env[name] ?? '') !== '');
}

/**
 * One keep-alive dispatcher per client: a ProxyAgent for an explicit proxy URL, an EnvHttpProxyAgent when
 * HTTP(S)_PROXY is set (it honours NO_PROXY), else a plain Agent. Extra CAs are added to, not instead of,
 * the bundled roots.
 */
export function createDispatcher(o: DispatcherOptions): Dispatcher {
  const ca = o.caCertificates && o.caCertificates.length > 0 ? [...rootCertificates, ...o.caCertificates] : undefined;
  const tls = { ...(ca ? { ca } : {}), timeout: o.timeouts.connectMs };
  const common = { headersTimeout: o.timeouts.headersMs, bodyTimeout: o.timeouts.bodyMs };
  if (o.proxy !== undefined && o.proxy !== '') {
    return new ProxyAgent({ ...common, uri: o.proxy, requestTls: tls, proxyTls: tls });
  }
  if (hasEnvProxy()) {
    return new EnvHttpProxyAgent({ ...common, connect: tls, requestTls: tls, proxyTls: tls });
  }
  return new Agent({ ...common, connect: tls });
}

/** Checks a proxy URL without echoing it (it may carry credentials). Returns a problem or undefined. */
export function proxyProblem(proxy: string | undefined): string | undefined {
  if (proxy === undefined || proxy === '') return undefined;
  let url: URL;
  try {
    url = new URL(proxy);
  } catch {
    return 'proxy must be an absolute URL such as http://proxy.example:3128';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'proxy must use http: or https:';
  return undefined;
}

/**
 * Proxy variables of the environment that undici could not parse, named without their values (they may carry
 * credentials). Only checked when no explicit proxy is given, since then the environment is what is used.
 */
export function envProxyProblems(): string[] {
  const out: string[] = [];
  for (const name of PROXY_ENV) {
    const value = process.env[name];
    if (value === undefined || value === '') continue;
    if (!URL.canParse(value))
      out.push(`the environment variable ${name} is not a URL such as http://proxy.example:3128`);
  }
  return out;
}

/** The HTTP methods of the service's calls. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RawRequest {
  origin: string;
  path: string;
  method: Method;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text; undefined when it exceeded the byte cap (the rest was not read). */
  text: string | undefined;
}

/**
 * Sends one request and reads the body up to `maxBytes` and for at most `bodyTotalMs`. Transport failures reject
 * with undici's errors (or one with code BODY_TOTAL_TIMEOUT).
 */
export async function sendOnce(
  dispatcher: Dispatcher,
  req: RawRequest,
  maxBytes: number,
  bodyTotalMs: number,
): Promise<RawResponse> {
  const res = await dispatcher.request({
    origin: req.origin,
    path: req.path,
    method: req.method,
    headers: req.headers,
    body: req.body,
    signal: req.signal,
  });
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    drop(res.body);
    return { status: res.statusCode, headers: res.headers, text: undefined };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const started = performance.now();
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    // Checked as chunks arrive; a pause between them is bounded by bodyMs, so no timer is needed.
    if (performance.now() - started > bodyTotalMs) {
      drop(res.body);
      throw new BodyTotalTimeoutError(`the response body took longer than ${bodyTotalMs} ms`);
    }
    size += chunk.length;
    if (size > maxBytes) {
      drop(res.body);
      return { status: res.statusCode, headers: res.headers, text: undefined };
    }
    chunks.push(chunk);
  }
  const text =
    chunks.length === 1 && chunks[0] ? chunks[0].toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
  return { status: res.statusCode, headers: res.headers, text };
}

/** Stops reading a body and drops its connection; the abort error the stream then emits is expected. */
function drop(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}
