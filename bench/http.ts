// The HTTP figures. Sandbox: GET /1/columns of a 10,000-column dataset, requests per second, against a
// plain node:http server sending the same bytes. Client: CPU of this process per such response,
// ServiceClient (each build's dist/client-host.js) against bare undici.request + json().
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
import { Recorded, type Figure, type Metric, type Side } from './figures';

interface Server {
  child: ChildProcess;
  baseUrl: string;
  configKey: string;
}
export interface Servers {
  bySide: Map<string, Server>;
  dispose(): void;
}

async function startServer(args: string[]): Promise<Server> {
  // Started by a small launcher, as every measured process is (spawnFresh); the server ends when its stdin does.
  const child = spawn(
    '/bin/sh',
    ['-c', '"$@"; exit $?', 'sh', process.execPath, join(import.meta.dirname, 'children', 'serve.cjs'), ...args],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const stdout = child.stdout;
  if (stdout === null) throw new Error('server child has no stdout');
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server child exited with ${String(code)}`)));
  });
  const info = JSON.parse(line) as { baseUrl: string; configKey: string };
  return { child, ...info };
}

const COLUMNS_PATH = '/1/columns/bench-10k';

/** A sandbox per build, and the floor: a static server with the bytes the sandbox of this tree sends. */
export async function startServers(sides: readonly Side[], work: string): Promise<Servers> {
  const bySide = new Map<string, Server>();
  for (const side of sides) bySide.set(side.name, await startServer(['sandbox', side.root]));
  const after = bySide.get('after');
  if (after === undefined) throw new Error('no sandbox of this tree');
  const res = await request(`${after.baseUrl}${COLUMNS_PATH}`, { headers: { 'x-service-team': after.configKey } });
  const file = join(work, 'columns.json');
  writeFileSync(file, Buffer.from(await res.body.arrayBuffer()));
  bySide.set('floor', await startServer(['static', file]));
  return {
    bySide,
    dispose: () => {
      for (const s of bySide.values()) {
        s.child.stdin?.end();
        s.child.kill();
      }
    },
  };
}

async function concurrently(total: number, concurrency: number, one: () => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        await one();
      }
    }),
  );
}

export function sandboxFigure(servers: Servers, requests: number): Figure {
  const rec = new Recorded();
  const metric: Metric = {
    key: 'rate',
    title: 'Sandbox GET /1/columns, 10,000 columns: requests/s',
    unit: 'req/s',
    higherIsBetter: true,
  };
  const agent = new Agent({ connections: 4 });
  return {
    id: 'sandbox',
    metrics: [metric],
    async measure(side) {
      const server = servers.bySide.get(side.name);
      if (server === undefined) return;
      const one = async () => {
        const res = await request(`${server.baseUrl}${COLUMNS_PATH}`, {
          headers: { 'x-service-team': server.configKey },
          dispatcher: agent,
        });
        if (res.statusCode !== 200) throw new Error(`sandbox answered ${res.statusCode}`);
        await res.body.dump({ limit: Infinity });
      };
      await concurrently(4, 4, one);
      const t = performance.now();
      await concurrently(requests, 4, one);
      rec.add(metric.key, side.name, requests / ((performance.now() - t) / 1000));
    },
    samples: (m, s) => rec.samples(m, s),
    note: (s) => rec.note(s),
  };
}

interface ClientModule {
  ServiceClient: new (o: { baseUrl: string; configKey: string }) => {
    listColumns(d: string): Promise<{ data: unknown[] }>;
    close(): Promise<void>;
  };
}

export function clientFigure(servers: Servers, requests: number): Figure {
  const rec = new Recorded();
  const metric: Metric = { key: 'cpu', title: 'Client, 10,000-column response: CPU of the client process', unit: 'ms' };
  const server = servers.bySide.get('after');
  if (server === undefined) throw new Error('no sandbox of this tree');
  const bare = new Agent();
  const clients = new Map<string, InstanceType<ClientModule['ServiceClient']>>();
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  return {
    id: 'client',
    metrics: [metric],
    async measure(side) {
      let one: () => Promise<void>;
      if (side.name === 'floor') {
        one = async () => {
          const res = await request(`${server.baseUrl}${COLUMNS_PATH}`, {
            headers: { 'x-service-team': server.configKey },
            dispatcher: bare,
          });
          const data = (await res.body.json()) as unknown[];
          if (data.length !== 10_000) throw new Error('bare request failed');
        };
      } else {
        let client = clients.get(side.name);
        if (client === undefined) {
          // Each build's own client bundle.
          const { ServiceClient } = createRequire(import.meta.url)(
            join(side.root, 'dist', 'client-host.js'),
          ) as ClientModule;
          client = new ServiceClient({ baseUrl: server.baseUrl, configKey: server.configKey });
          clients.set(side.name, client);
          for (let i = 0; i < 10; i++) await client.listColumns('bench-10k');
        }
        const c = client;
        one = async () => {
          if ((await c.listColumns('bench-10k')).data.length !== 10_000) throw new Error('client request failed');
        };
      }
      const start = cpu();
      for (let i = 0; i < requests; i++) await one();
      rec.add(metric.key, side.name, (cpu() - start) / requests);
    },
    samples: (m, s) => rec.samples(m, s),
    note: (s) => rec.note(s),
  };
}
