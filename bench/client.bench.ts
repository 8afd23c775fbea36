// Service client overhead. Prints tables; asserts nothing.
//  1. GET /1/columns of the sandbox's 2,000-column dataset, 2,000 requests at concurrency 8:
//     ServiceClient.listColumns vs bare undici.request + JSON.parse (goal: client >= 0.85 x bare).
//  2. JSON.parse + zod validation of a 10,000-column response vs JSON.parse alone (goal: <= 2 x).
// The sandbox runs in a child process so that server work does not share the client's event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
import { ServiceClient } from '../src/api/client';
import { ColumnList } from '../src/api/schemas';

const REQUESTS = 2_000;
const CONCURRENCY = 8;
const WARMUP_REQUESTS = 300;
const ROUNDS = 5;
const PARSE_COLUMNS = 10_000;
const PARSE_ROUNDS = 25;
const WIDE_DATASET = 'bench-wide';

interface SandboxInfo {
  baseUrl: string;
  configKey: string;
  managementKey: string;
}

async function serve(): Promise<void> {
  const { startSandbox } = await import('../src/sandbox');
  const sb = await startSandbox({ rateLimit: 100_000_000 });
  process.stdout.write(`${JSON.stringify(sb.info)}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void sb.close().then(() => process.exit(0)));
}

async function startChildSandbox(): Promise<{ info: SandboxInfo; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', __filename, 'serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const stdout = child.stdout;
  if (!stdout) throw new Error('sandbox child has no stdout');
  const lines = createInterface({ input: stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox child exited with ${String(code)}`)));
  });
  return { info: JSON.parse(first) as SandboxInfo, child };
}

interface Round {
  reqPerSec: number;
  /** CPU time of this (client) process per request, user + system. */
  cpuMsPerReq: number;
}

async function runConcurrent(total: number, concurrency: number, one: () => Promise<void>): Promise<Round> {
  let next = 0;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const worker = async () => {
    while (next < total) {
      next++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const cpu = process.cpuUsage(cpu0);
  return {
    reqPerSec: total / ((performance.now() - started) / 1000),
    cpuMsPerReq: (cpu.user + cpu.system) / 1000 / total,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}

function table(rows: (string | number)[][]): void {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? '').length))) ?? [];
  for (const [n, r] of rows.entries()) {
    console.log(`| ${r.map((c, i) => String(c).padEnd(widths[i] ?? 0)).join(' | ')} |`);
    if (n === 0) console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  }
}

async function throughput(info: SandboxInfo): Promise<void> {
  const client = new ServiceClient({ baseUrl: info.baseUrl, configKey: info.configKey });
  const bare = new Agent();
  const url = `${info.baseUrl}/1/columns/${WIDE_DATASET}`;
  const headers = { 'x-service-team': info.configKey, accept: 'application/json' };

  const viaClient = async () => {
    const res = await client.listColumns(WIDE_DATASET);
    if (res.data.length !== 2_000) throw new Error(`expected 2000 columns, got ${res.data.length}`);
  };
  const viaUndici = async () => {
    const res = await request(url, { headers, dispatcher: bare });
    const data = (await res.body.json()) as unknown[];
    if (res.statusCode !== 200 || data.length !== 2_000) throw new Error(`bare request failed: ${res.statusCode}`);
  };

  await runConcurrent(WARMUP_REQUESTS, CONCURRENCY, viaClient);
  await runConcurrent(WARMUP_REQUESTS, CONCURRENCY, viaUndici);
  const clientRates: Round[] = [];
  const bareRates: Round[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the order so drift on a shared machine does not favour one side.
    if (round % 2 === 0) {
      clientRates.push(await runConcurrent(REQUESTS, CONCURRENCY, viaClient));
      bareRates.push(await runConcurrent(REQUESTS, CONCURRENCY, viaUndici));
    } else {
      bareRates.push(await runConcurrent(REQUESTS, CONCURRENCY, viaUndici));
      clientRates.push(await runConcurrent(REQUESTS, CONCURRENCY, viaClient));
    }
  }
  await client.close();
  await bare.close();

  const c = median(clientRates.map((r) => r.reqPerSec));
  const b = median(bareRates.map((r) => r.reqPerSec));
  const cCpu = median(clientRates.map((r) => r.cpuMsPerReq));
  const bCpu = median(bareRates.map((r) => r.cpuMsPerReq));
  // Ratio of medians, and median of the per-round ratios (each round runs both back to back, so drift cancels).
  const pairRatio = median(clientRates.map((r, i) => r.reqPerSec / (bareRates[i]?.reqPerSec ?? NaN)));
  console.log(
    `\nGET /1/columns/${WIDE_DATASET} (2,000 columns), ${REQUESTS} requests x ${ROUNDS} rounds, concurrency ${CONCURRENCY}`,
  );
  table([
    ['', 'median req/s', 'client-process CPU ms/req', 'rounds (req/s)'],
    [
      'ServiceClient.listColumns',
      c.toFixed(0),
      cCpu.toFixed(2),
      clientRates.map((r) => r.reqPerSec.toFixed(0)).join(' '),
    ],
    [
      'bare undici.request + json()',
      b.toFixed(0),
      bCpu.toFixed(2),
      bareRates.map((r) => r.reqPerSec.toFixed(0)).join(' '),
    ],
    [
      'ratio client / bare (goal >= 0.85)',
      (c / b).toFixed(3),
      (bCpu / cCpu).toFixed(3),
      `per-round median ${pairRatio.toFixed(3)}`,
    ],
  ]);
}

function wideColumns(n: number): string {
  const cols = Array.from({ length: n }, (_, i) => ({
    id: `col_${i}`,
    key_name: `gen.col_${String(i).padStart(5, '0')}`,
    type: ['string', 'integer', 'float', 'boolean'][i % 4],
    description: i % 3 === 0 ? `generated column ${i}` : '',
    hidden: i % 50 === 0,
    last_written: '2024-03-01T10:00:00.000Z',
    created_at: '2024-03-01T10:00:00.000Z',
    updated_at: '2024-03-15T08:30:00.000Z',
  }));
  return JSON.stringify(cols);
}

function parsing(): void {
  const text = wideColumns(PARSE_COLUMNS);
  const parseOnly = () => JSON.parse(text) as unknown;
  const parseAndValidate = () => {
    const r = ColumnList.safeParse(JSON.parse(text));
    if (!r.success) throw new Error('bench data does not match the schema');
    return r.data;
  };
  for (let i = 0; i < 10; i++) {
    parseOnly();
    parseAndValidate();
  }
  const only: number[] = [];
  const both: number[] = [];
  for (let i = 0; i < PARSE_ROUNDS; i++) {
    const order = i % 2 === 0 ? [parseOnly, parseAndValidate] : [parseAndValidate, parseOnly];
    for (const fn of order) {
      const t0 = performance.now();
      fn();
      const ms = performance.now() - t0;
      (fn === parseOnly ? only : both).push(ms);
    }
  }
  const a = median(only);
  const b = median(both);
  console.log(
    `\n${PARSE_COLUMNS.toLocaleString('en')}-column response (${(text.length / 1024 / 1024).toFixed(2)} MiB), ${PARSE_ROUNDS} rounds`,
  );
  table([
    ['', 'median ms'],
    ['JSON.parse', a.toFixed(2)],
    ['JSON.parse + ColumnList (zod)', b.toFixed(2)],
    ['ratio (goal <= 2)', (b / a).toFixed(2)],
  ]);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'serve') return serve();
  const { info, child } = await startChildSandbox();
  try {
    await throughput(info);
  } finally {
    child.stdin?.end();
    child.kill();
  }
  parsing();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
