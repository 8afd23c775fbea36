// Shared fixtures of the api-*.test.ts files: local servers, a client wired to capture every log line and
// error, and the check that no credential ever shows up in them.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ServiceClient, ServiceError, type ClientOptions, type RequestLogEntry } from '../../src/api';

export const CONFIG_KEY = 'cfgKEY-7f3a9c1e5b2d4a60';
export const MGMT_KEY_ID = 'hcxmk_01KEYIDabc';
export const MGMT_KEY_SECRET = 'mgmtSECRET-9b8c7d6e5f4a3b2c';
export const MANAGEMENT_KEY = `${MGMT_KEY_ID}:${MGMT_KEY_SECRET}`;
export const CREATED_KEY_SECRET = 'createdSECRET-0a1b2c3d4e5f6a7b';
/** Every string that must never appear in a log line or an error. */
export const SECRETS = [CONFIG_KEY, MGMT_KEY_ID, MGMT_KEY_SECRET, CREATED_KEY_SECRET];

/** Everything observable that the client produced in this test file: log lines and error texts. */
export const captured: string[] = [];

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Number of TCP connections accepted. */
  connections: number;
  server: Server;
  close(): Promise<void>;
}

export type Handler = (req: RecordedRequest, res: ServerResponse, n: number) => void;

/** A node:http server on 127.0.0.1 that records each request (with its body) before handing it on. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const state: TestServer = {
    url: '',
    port: 0,
    requests: [],
    connections: 0,
    server: createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rec = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        state.requests.push(rec);
        handler(rec, res, state.requests.length);
      });
    }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        state.server.close(() => resolve());
      }),
  };
  state.server.on('connection', (s: Socket) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.port = (state.server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  return state;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A port on 127.0.0.1 that nothing listens on. */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export interface FakeTiming {
  /** Every wait the retry loop asked for, in order. */
  delays: number[];
  timing: NonNullable<ClientOptions['timing']>;
}

/** A clock that only moves when the client sleeps, and a sleep that returns at once. */
export function fakeTiming(startMs = Date.parse('2025-06-02T12:00:00Z')): FakeTiming {
  let now = startMs;
  const delays: number[] = [];
  return {
    delays,
    timing: {
      now: () => now,
      random: () => 0.5,
      sleep: async (ms, signal) => {
        if (signal?.aborted) throw signal.reason;
        delays.push(ms);
        now += ms;
      },
    },
  };
}

export const logs: RequestLogEntry[] = [];

/** A client with both keys and fake timing whose log lines are captured. */
export function makeClient(baseUrl: string, extra: Partial<ClientOptions> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl,
    configKey: CONFIG_KEY,
    managementKey: MANAGEMENT_KEY,
    timing: fakeTiming().timing,
    ...extra,
    onLog: (e) => {
      logs.push(e);
      captured.push(JSON.stringify(e));
      extra.onLog?.(e);
    },
  });
}

/** Awaits a promise that must reject with a ServiceError; records everything the error would show. */
export async function failure(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ServiceError, `expected a ServiceError, got ${String(e)}`);
    captured.push(
      e.message,
      String(e.stack),
      JSON.stringify(e),
      JSON.stringify(e.fieldProblems),
      String(e.detail),
      String(e.title),
    );
    return e;
  }
  assert.fail('expected the call to fail');
}

/** Runs code that must throw a ServiceError synchronously (e.g. a constructor); records what the error shows. */
export function thrown(fn: () => unknown): ServiceError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ServiceError, `expected a ServiceError, got ${String(e)}`);
    captured.push(e.message, String(e.stack), JSON.stringify(e), JSON.stringify(e.fieldProblems));
    return e;
  }
  assert.fail('expected a ServiceError to be thrown');
}

/** Asserts that no credential appears in anything captured so far. */
export function assertNoSecretsCaptured(): void {
  assert.ok(captured.length > 0, 'nothing was captured: the check would pass vacuously');
  for (const line of captured) {
    for (const secret of SECRETS) {
      assert.ok(!line.includes(secret), `a secret leaked into: ${line.slice(0, 200).split(secret).join('<SECRET>')}`);
    }
  }
}
