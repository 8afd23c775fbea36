// Transport faults on undici: resets, timeouts, cancellation, the size cap, proxies and extra CAs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { ServiceClient } from '../../src/api';
import {
  assertNoSecretsCaptured,
  captured,
  failure,
  makeClient,
  sendJson,
  startServer,
  thrown,
  type Handler,
  type TestServer,
} from './api-helpers';
import { columns, createKeyBody } from './api-fixtures';

let server: TestServer;
let respond: Handler = (_q, res) => sendJson(res, 200, columns);

before(async () => {
  server = await startServer((req, res, n) => respond(req, res, n));
});
after(async () => {
  await server.close();
});

/** A client that makes one attempt only, so a fault shows as itself. */
function once(extra: Parameters<typeof makeClient>[1] = {}): ServiceClient {
  return makeClient(server.url, { retry: { maxAttempts: 1 }, ...extra });
}

async function using<T>(client: ServiceClient, fn: (c: ServiceClient) => Promise<T>): Promise<T> {
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

const partialBody: Handler = (_q, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
  res.write('[{"key_name":"a"},');
  setTimeout(() => res.socket?.destroy(), 20);
};

// --- connection faults ------------------------------------------------------------------------------------

test('a connection reset mid-body gives kind network', async () => {
  respond = partialBody;
  const err = await using(once(), (c) => failure(c.listColumns('api')));
  assert.equal(err.kind, 'network');
  assert.equal(err.attempts, 1);
  assert.ok(err.networkCode === 'UND_ERR_SOCKET' || err.networkCode === 'ECONNRESET', String(err.networkCode));
});

test('a GET reset mid-body is retried and then succeeds', async () => {
  respond = (q, res, n) => (n % 2 === 1 ? partialBody(q, res, n) : sendJson(res, 200, columns));
  server.requests.length = 0;
  const res = await using(makeClient(server.url), (c) => c.listColumns('api'));
  assert.equal(res.attempts, 2);
  assert.deepEqual(res.data, columns);
});

test('no response headers within headersMs gives kind timeout (UND_ERR_HEADERS_TIMEOUT)', async () => {
  respond = () => undefined; // never answers
  const err = await using(once({ timeouts: { headersMs: 150 } }), (c) => failure(c.listColumns('api')));
  assert.equal(err.kind, 'timeout');
  assert.equal(err.networkCode, 'UND_ERR_HEADERS_TIMEOUT');
  assert.equal(err.message, 'list columns failed: the service did not answer in time (UND_ERR_HEADERS_TIMEOUT)');
});

test('a headers timeout on a GET is retried', async () => {
  respond = (_q, res, n) => (n === 1 ? undefined : sendJson(res, 200, columns));
  server.requests.length = 0;
  // Generous, so that the answered second attempt does not time out on a loaded machine.
  const res = await using(makeClient(server.url, { timeouts: { headersMs: 1000 } }), (c) => c.listColumns('api'));
  assert.equal(res.attempts, 2);
});

test('a body that stalls longer than bodyMs gives kind timeout (UND_ERR_BODY_TIMEOUT)', async () => {
  respond = (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
  };
  const err = await using(once({ timeouts: { bodyMs: 150 } }), (c) => failure(c.listColumns('api')));
  assert.equal(err.kind, 'timeout');
  assert.equal(err.networkCode, 'UND_ERR_BODY_TIMEOUT');
});

test('a TLS handshake that never completes within connectMs gives kind timeout (UND_ERR_CONNECT_TIMEOUT)', async () => {
  const silent = createNetServer(() => undefined); // accepts TCP, never speaks TLS
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const port = (silent.address() as AddressInfo).port;
  try {
    const err = await using(
      makeClient(`https://127.0.0.1:${port}`, { timeouts: { connectMs: 150 }, retry: { maxAttempts: 2 } }),
      (c) => failure(c.createApiKey('acme', createKeyBody)),
    );
    assert.equal(err.kind, 'timeout');
    assert.equal(err.networkCode, 'UND_ERR_CONNECT_TIMEOUT');
    assert.equal(err.message, 'create API key failed: connecting took too long (UND_ERR_CONNECT_TIMEOUT)');
    assert.equal(err.attempts, 1);
    assert.equal(err.maybeProcessed, undefined);
  } finally {
    silent.close();
  }
});

test('a body that trickles in for longer than bodyTotalMs gives kind timeout (BODY_TOTAL_TIMEOUT)', async () => {
  let sawClose: (written: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (sawClose = resolve));
  respond = (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    let written = 0;
    // Each chunk comes well inside bodyMs, so only the total bound can end this (it stops after 10 s anyway).
    const timer = setInterval(() => {
      written++;
      if (written >= 500) {
        clearInterval(timer);
        res.end('{"key_name":"z"}]');
      } else res.write('{"key_name":"a"},');
    }, 20);
    res.on('close', () => {
      clearInterval(timer);
      sawClose(written);
    });
  };
  const err = await using(once({ timeouts: { bodyMs: 5000, bodyTotalMs: 200 } }), (c) => failure(c.listColumns('api')));
  assert.equal(err.kind, 'timeout');
  assert.equal(err.networkCode, 'BODY_TOTAL_TIMEOUT');
  assert.equal(err.message, 'list columns failed: the response body took too long (BODY_TOTAL_TIMEOUT)');
  assert.ok((await closed) < 500, 'the whole body was read: the client did not stop');
});

test('connection refused gives kind network with ECONNREFUSED', async () => {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const err = await using(makeClient(`http://127.0.0.1:${port}`, { retry: { maxAttempts: 1 } }), (c) =>
    failure(c.listTriggers('api')),
  );
  assert.equal(err.kind, 'network');
  assert.equal(err.networkCode, 'ECONNREFUSED');
});

// --- cancellation -----------------------------------------------------------------------------------------

test('aborting while waiting for the response gives kind aborted and drops the connection', async () => {
  const ac = new AbortController();
  let sawClose: () => void = () => undefined;
  const serverSawClose = new Promise<void>((resolve) => (sawClose = resolve));
  const requestArrived = new Promise<void>((arrived) => {
    respond = (_q, res) => {
      res.on('close', () => sawClose());
      arrived();
    };
  });
  const err = await using(once(), async (c) => {
    const call = failure(c.listColumns('api', { signal: ac.signal }));
    await requestArrived;
    ac.abort();
    return call;
  });
  assert.equal(err.kind, 'aborted');
  assert.equal(err.attempts, 1);
  assert.equal(err.message, 'list columns was cancelled');
  await serverSawClose; // the test times out if the connection is never dropped
});

test('cancelling a create API key in flight is marked maybeProcessed; cancelling before sending is not', async () => {
  const ac = new AbortController();
  const arrived = new Promise<void>((resolve) => {
    respond = () => resolve(); // the service got it, and never answers
  });
  const inFlight = await using(once(), async (c) => {
    const call = failure(c.createApiKey('acme', createKeyBody, { signal: ac.signal }));
    await arrived;
    ac.abort();
    return call;
  });
  assert.deepEqual([inFlight.kind, inFlight.attempts, inFlight.maybeProcessed], ['aborted', 1, true]);
  const early = await using(once(), (c) =>
    failure(c.createApiKey('acme', createKeyBody, { signal: AbortSignal.abort() })),
  );
  assert.deepEqual([early.kind, early.attempts, early.maybeProcessed], ['aborted', 0, undefined]);
});

test('aborting while the body streams gives kind aborted', async () => {
  respond = (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[{"key_name":"a"}');
  };
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 50);
  const err = await using(makeClient(server.url), (c) => failure(c.listColumns('api', { signal: ac.signal })));
  assert.equal(err.kind, 'aborted');
});

// --- size cap ---------------------------------------------------------------------------------------------

test('a declared Content-Length over maxResponseBytes gives kind too-large without reading the body', async () => {
  respond = (_q, res) => sendJson(res, 200, columns.concat(columns, columns, columns));
  const err = await using(once({ maxResponseBytes: 200 }), (c) => failure(c.listColumns('api')));
  assert.equal(err.kind, 'too-large');
  assert.equal(err.message, 'list columns failed: the response is larger than 200 bytes');
});

test('a streamed body growing past maxResponseBytes is cut off: kind too-large, the server sees the close', async () => {
  let chunksWritten = 0;
  let sawClose: (written: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (sawClose = resolve));
  respond = (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    const timer = setInterval(() => {
      chunksWritten++;
      if (chunksWritten >= 200) {
        clearInterval(timer);
        res.end('{"key_name":"z"}]');
        return;
      }
      res.write('{"key_name":"padding-padding-padding-padding"},');
    }, 5);
    res.on('close', () => {
      clearInterval(timer);
      sawClose(chunksWritten);
    });
  };
  const err = await using(once({ maxResponseBytes: 1000 }), (c) => failure(c.listColumns('api')));
  assert.equal(err.kind, 'too-large');
  assert.ok((await closed) < 200, 'the server wrote the whole body: the client did not drop the connection');
});

// --- redirects --------------------------------------------------------------------------------------------

test('a redirect is not followed, so the key never goes to another host', async () => {
  const other = await startServer((_q, res) => sendJson(res, 200, columns));
  try {
    respond = (_q, res) => {
      res.writeHead(302, { location: `${other.url}/1/columns/api` });
      res.end();
    };
    const err = await using(once(), (c) => failure(c.listColumns('api')));
    assert.equal(err.kind, 'http');
    assert.equal(err.status, 302);
    assert.equal(other.requests.length, 0);
  } finally {
    await other.close();
  }
});

// --- proxies ----------------------------------------------------------------------------------------------

interface TestProxy {
  url: string;
  /** `CONNECT host:port` tunnels and absolute-URL forwards, in order. */
  seen: string[];
  proxyAuth: (string | undefined)[];
  close(): Promise<void>;
}

/** A minimal proxy: CONNECT tunnels and plain forwarding of absolute-URL requests. */
async function startProxy(): Promise<TestProxy> {
  const sockets = new Set<Socket>();
  const seen: string[] = [];
  const proxyAuth: (string | undefined)[] = [];
  const proxy: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    proxyAuth.push(req.headers['proxy-authorization']);
    const target = new URL(req.url ?? '/');
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  proxy.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    proxyAuth.push(req.headers['proxy-authorization']);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    sockets.add(client);
    sockets.add(upstream);
  });
  proxy.on('connection', (s: Socket) => sockets.add(s));
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const port = (proxy.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    proxyAuth,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        proxy.close(() => r());
      }),
  };
}

const PROXY_ENV = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'] as const;

async function withEnv<T>(vars: Partial<Record<(typeof PROXY_ENV)[number], string>>, fn: () => Promise<T>): Promise<T> {
  const saved = PROXY_ENV.map((k) => [k, process.env[k]] as const);
  for (const k of PROXY_ENV) delete process.env[k];
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

test('an explicit proxy URL routes the request through the proxy', async () => {
  respond = (_q, res) => sendJson(res, 200, columns);
  const proxy = await startProxy();
  try {
    const res = await using(makeClient(server.url, { proxy: proxy.url }), (c) => c.listColumns('api'));
    assert.deepEqual(res.data, columns);
    assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${server.port}`]);
  } finally {
    await proxy.close();
  }
});

test('proxy credentials in the URL are sent to the proxy and never shown in an error', async () => {
  const proxy = await startProxy();
  const password = 'pr0xyPASSWORD-42';
  const authUrl = proxy.url.replace('http://', `http://alice:${password}@`);
  try {
    await using(makeClient(server.url, { proxy: authUrl }), (c) => c.listColumns('api'));
    assert.deepEqual(proxy.proxyAuth, [`Basic ${Buffer.from(`alice:${password}`).toString('base64')}`]);
  } finally {
    await proxy.close();
  }
  // With the proxy gone, the failure must not echo the proxy URL's password.
  const err = await using(makeClient(server.url, { proxy: authUrl, retry: { maxAttempts: 1 } }), (c) =>
    failure(c.listColumns('api')),
  );
  assert.equal(err.kind, 'network');
  for (const line of captured) assert.ok(!line.includes(password), `proxy password leaked into: ${line}`);
});

test("a proxy's Basic credentials (user:password in base64) echoed by the service are redacted whole", async () => {
  const proxy = await startProxy();
  const basic = Buffer.from('alice:pr0xyPASSWORD-42').toString('base64');
  respond = (_q, res) => sendJson(res, 400, { error: `unexpected Proxy-Authorization: Basic ${basic}` });
  try {
    const client = makeClient(server.url, { proxy: proxy.url.replace('http://', 'http://alice:pr0xyPASSWORD-42@') });
    const err = await using(client, (c) => failure(c.listColumns('api')));
    assert.equal(err.detail, 'unexpected Proxy-Authorization: Basic [redacted]');
  } finally {
    respond = (_q, res) => sendJson(res, 200, columns);
    await proxy.close();
  }
});

test('a proxy password with letters whose case changes their length (ß, İ) is redacted upper- and lower-cased', async () => {
  const proxy = await startProxy();
  const password = 'pr0xyßİpass-42';
  respond = (_q, res) =>
    sendJson(res, 400, { error: `bad password ${password.toUpperCase()} or ${password.toLowerCase()}` });
  try {
    const client = makeClient(server.url, {
      proxy: proxy.url.replace('http://', `http://alice:${encodeURIComponent(password)}@`),
    });
    const err = await using(client, (c) => failure(c.listColumns('api')));
    assert.equal(err.detail, 'bad password [redacted] or [redacted]');
  } finally {
    respond = (_q, res) => sendJson(res, 200, columns);
    await proxy.close();
  }
});

test('HTTP_PROXY from the environment is used when no proxy is given', async () => {
  const proxy = await startProxy();
  try {
    await withEnv({ HTTP_PROXY: proxy.url }, () => using(makeClient(server.url), (c) => c.listColumns('api')));
    assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${server.port}`]);
  } finally {
    await proxy.close();
  }
});

test('NO_PROXY naming the host bypasses the environment proxy', async () => {
  const proxy = await startProxy();
  try {
    server.requests.length = 0;
    await withEnv({ HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' }, () =>
      using(makeClient(server.url), (c) => c.listColumns('api')),
    );
    assert.deepEqual(proxy.seen, []);
    assert.equal(server.requests.length, 1);
  } finally {
    await proxy.close();
  }
});

test('an unparseable HTTPS_PROXY is refused when the client is made, naming the variable but not its value', async () => {
  await withEnv({ HTTPS_PROXY: 'http://alice:pr0xyENVpass@[bad' }, async () => {
    const err = thrown(() => new ServiceClient({ baseUrl: server.url }));
    assert.equal(err.kind, 'request-validation');
    assert.equal(
      err.message,
      'configure client failed: the environment variable HTTPS_PROXY is not a URL such as http://proxy.example:3128',
    );
    assert.ok(!JSON.stringify(err).includes('pr0xyENVpass'));
  });
});

test('a proxy that is not an http(s) URL is refused when the client is made, without echoing it', () => {
  assert.throws(
    () => new ServiceClient({ baseUrl: server.url, proxy: 'ftp://u:hunter2pass@proxy' }),
    (e: Error) => {
      assert.equal(e.message, 'configure client failed: proxy must use http: or https:');
      return true;
    },
  );
});

// --- extra CA certificates --------------------------------------------------------------------------------

// A self-signed certificate for 127.0.0.1 made only for this test (valid 2000 to 2126).
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg87axqzw6b5Zr1RV3
dvQC7e3zjlAiQJOhrDX3XSZQnIWhRANCAAQvrqnZnAleeRdLU9Lojdq5tqZJYMES
5jd8W2DG+2tpLLKJMnQ29mt08I7Ev1HZxtbnaaqZJ+QSYMOD2aF9D4BK
-----END PRIVATE KEY-----
`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBezCCASGgAwIBAgIBATAKBggqhkjOPQQDAjAWMRQwEgYDVQQDDAtvYnMtdGVz
dC1jYTAgFw0wMDAxMDEwMDAwMDBaGA8yMTI2MDEwMTAwMDAwMFowFjEUMBIGA1UE
AwwLb2JzLXRlc3QtY2EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQvrqnZnAle
eRdLU9Lojdq5tqZJYMES5jd8W2DG+2tpLLKJMnQ29mt08I7Ev1HZxtbnaaqZJ+QS
YMOD2aF9D4BKo14wXDAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwDwYDVR0T
AQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwHQYDVR0OBBYEFGmzGebVBuMaRsPQ
Uyf+k8JoYHurMAoGCCqGSM49BAMCA0gAMEUCIQCr33t2pZ0iBD94cQgXp8UoEoNt
ABsW/Jyte8XXIdkfLgIgYCFqxaJs+0LgxBAyh4wydcZ6cNSchLtN9C0aZhZQi9E=
-----END CERTIFICATE-----
`;

async function startHttps(): Promise<{ url: string; close(): Promise<void> }> {
  const s = createHttpsServer({ key: TEST_KEY, cert: TEST_CERT }, (_req, res) => sendJson(res, 200, columns));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

test('an HTTPS service with a private CA fails without caCertificates (kind network)', async () => {
  const https = await startHttps();
  try {
    const err = await using(makeClient(https.url, { retry: { maxAttempts: 1 } }), (c) => failure(c.listColumns('api')));
    assert.equal(err.kind, 'network');
    assert.equal(err.attempts, 1);
  } finally {
    await https.close();
  }
});

test('caCertificates makes an HTTPS service with a private CA trusted', async () => {
  const https = await startHttps();
  try {
    const res = await using(makeClient(https.url, { caCertificates: [TEST_CERT] }), (c) => c.listColumns('api'));
    assert.deepEqual(res.data, columns);
  } finally {
    await https.close();
  }
});

test('HTTPS_PROXY tunnels to an HTTPS service whose private CA is given in caCertificates', async () => {
  const https = await startHttps();
  const proxy = await startProxy();
  try {
    const res = await withEnv({ HTTPS_PROXY: proxy.url }, () =>
      using(makeClient(https.url, { caCertificates: [TEST_CERT] }), (c) => c.listColumns('api')),
    );
    assert.deepEqual(res.data, columns);
    assert.deepEqual(proxy.seen, [`CONNECT ${new URL(https.url).host}`]);
  } finally {
    await proxy.close();
    await https.close();
  }
});

test('no key or secret appears in any log line or error of this file', () => {
  assertNoSecretsCaptured();
});
