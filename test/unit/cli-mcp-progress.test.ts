// A long call of `obs mcp` as the MCP SDK's own client makes it: a 7-day preview that waits 3 minutes for the
// service's limit of query results (a 429 said to retry after 3 minutes), and a query whose result takes the
// service time. With a progress token, the server sends a notification for each second of the wait and each
// poll, so a client that resets its timeout on progress waits as long as the call takes; a client that gives
// up cancels the call, and the server stops waiting and creates nothing. The server runs in this process
// (createMcpServer on the host `obs mcp` makes, over the SDK's in-memory transport) on a virtual clock that the
// sandbox shares: each sleep moves it on and takes no real time, so a real gap between notifications is only
// the work in between, and what the server owes a client is checked in virtual time, whatever the load.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ToolHost } from '../../src/agentTools';
import { CreationPacer, type RunnerClock } from '../../src/backtest/runner';
import { mcpHost, type McpHost } from '../../src/cli/mcpHost';
import { createMcpServer } from '../../src/cli/mcpRun';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { virtualClock } from './virtualClock';

/** How long the pacer waits before the first creation: 3 minutes, three times the SDK's default timeout (60 s). */
const WAIT_S = 180;
const vc = virtualClock('2025-06-02T12:00:00Z');

let sandbox: TestSandbox;
let dir = '';
let base: McpHost;

before(async () => {
  sandbox = await startTestSandbox({ clock: vc.now });
  dir = mkdtempSync(join(tmpdir(), 'obs-mcp-progress-'));
  base = mcpHost({ cwd: dir, env: { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey } });
});
after(async () => {
  await base.close();
  await sandbox.handle.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A notification as the client got it, with the virtual time it arrived at. */
interface Heard {
  progress: Progress;
  at: number;
}

interface Connected {
  client: Client;
  /** Called when the client aborts its call: from then on, every sleep of the server's tells what became of it. */
  clientAborted(): void;
  /** What the server did after the abort: its wait was cut short, or it went on to sleep again. */
  afterAbort: Promise<'stopped waiting' | 'went on waiting'>;
  close(): Promise<void>;
}

/** The server of `obs mcp` on its own host, whose pacer was told by a 429 to wait WAIT_S before the next creation. */
async function connect(): Promise<Connected> {
  let aborted = false;
  let settle = (_: 'stopped waiting' | 'went on waiting'): void => undefined;
  const afterAbort = new Promise<'stopped waiting' | 'went on waiting'>((resolve) => (settle = resolve));
  const clock: RunnerClock = {
    now: vc.now,
    // Each sleep first lets every pending message through (a cancellation among them), then moves the clock on.
    sleep: async (ms, signal) => {
      if (aborted && !signal.aborted) settle('went on waiting');
      await new Promise((resolve) => setImmediate(resolve));
      try {
        await vc.clock.sleep(ms, signal);
      } catch (e) {
        if (aborted && signal.aborted) settle('stopped waiting');
        throw e;
      }
    },
  };
  const pacer = new CreationPacer(clock);
  pacer.block(vc.now() + WAIT_S * 1000);
  const host: ToolHost = { ...base, queries: async () => ({ ...(await base.queries()), pacer, clock }) };
  const server = createMcpServer(host);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'obs-test', version: '1.0.0' });
  await client.connect(clientSide);
  await client.listTools();
  return {
    client,
    clientAborted: () => (aborted = true),
    afterAbort,
    close: async () => (await client.close(), await server.close()),
  };
}

const createdResults = () =>
  sandbox.handle.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/1/query_results/')).length;

/** Each "Waiting N s" notification of a wait for the rate limit: the seconds it said and when it came. */
const waits = (heard: readonly Heard[]) =>
  heard.flatMap((h) => {
    const m = /^Waiting (\d+) s: the service runs at most 10 queries a minute\.\.\.(?: \(query \d+ of \d+\))?$/.exec(
      h.progress.message ?? '',
    );
    return m ? [{ seconds: Number(m[1]), at: h.at }] : [];
  });

test('a 7-day preview waiting 3 minutes for the rate limit sends progress at each second of the wait', async () => {
  const { client, close } = await connect();
  try {
    const heard: Heard[] = [];
    const start = vc.now();
    // The SDK's default timeout in real time, reset by each notification, as a client that follows progress asks.
    const r = await client.callTool(
      {
        name: 'obs_preview_trigger',
        arguments: { dataset: DEMO.datasets.gateway, trigger_id: DEMO.triggers.gwErrors, window: '7d' },
      },
      undefined,
      { onprogress: (p) => heard.push({ progress: p, at: vc.now() }), resetTimeoutOnProgress: true },
    );
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    assert.equal((r.structuredContent as { window?: string }).window, '7d');
    assert.deepEqual(
      heard.map((h) => h.progress.progress),
      heard.map((_, i) => i + 1),
    );
    // The first of its queries waits the 3 minutes: one notification as the wait begins, then one at each virtual
    // second of it, so no gap comes near a timeout that each notification resets.
    assert.deepEqual(
      waits(heard).map((w) => [w.seconds, w.at - start]),
      Array.from({ length: WAIT_S }, (_, i) => [WAIT_S - i, i * 1000]),
    );
  } finally {
    await close();
  }
});

test('a query whose result takes the service time sends progress at each poll until it completes', async () => {
  const { client, close } = await connect();
  try {
    const heard: Heard[] = [];
    const r = await client.callTool(
      { name: 'obs_run_query', arguments: { dataset: DEMO.datasets.gateway, query_id: DEMO.savedQueries.gwSlow } },
      undefined,
      { onprogress: (p) => heard.push({ progress: p, at: vc.now() }), resetTimeoutOnProgress: true },
    );
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    const polls = heard.flatMap((h) => {
      const m = /^Waiting for result (\S+) \((\d+) s\)\.\.\.$/.exec(h.progress.message ?? '');
      return m ? [{ id: m[1], seconds: Number(m[2]), at: h.at }] : [];
    });
    const id = polls[0]?.id;
    assert.ok(
      id !== undefined,
      heard
        .slice(-10)
        .map((h) => h.progress.message)
        .join('\n'),
    );
    // The polls wait 250 ms, then 1.6 times longer each time; the result is complete 4 s after it was made.
    assert.deepEqual(
      polls.map((p) => [p.id, p.seconds, Math.round(p.at - (polls[0]?.at ?? 0))]),
      [
        [id, 0, 0],
        [id, 0, 250],
        [id, 1, 650],
        [id, 1, 1290],
        [id, 2, 2314],
        [id, 4, 3952],
      ],
    );
    const gets = sandbox.handle.requests.filter((q) => q.method === 'GET' && q.path.endsWith(`/${id}`)).length;
    assert.equal(gets, polls.length, 'one notification before each time the result was checked again');
    assert.equal(
      heard.at(-1)?.progress.message,
      `Waiting for result ${id} (4 s)...`,
      'the last word before the answer',
    );
  } finally {
    await close();
  }
});

test('a client that cancels while the server waits stops the wait, and no query result is created', async () => {
  const { client, clientAborted, afterAbort, close } = await connect();
  try {
    const before = createdResults();
    const heard: Heard[] = [];
    const cancel = new AbortController();
    const call = client.callTool(
      { name: 'obs_run_query', arguments: { dataset: DEMO.datasets.gateway, query_id: DEMO.savedQueries.gwTopRoutes } },
      undefined,
      {
        signal: cancel.signal,
        onprogress: (p) => {
          heard.push({ progress: p, at: vc.now() });
          if (heard.length < 3) return;
          clientAborted();
          cancel.abort('the user gave up');
        },
      },
    );
    await assert.rejects(call, { code: -32001, message: 'MCP error -32001: the user gave up' });
    assert.deepEqual(
      waits(heard).map((w) => w.seconds),
      [WAIT_S, WAIT_S - 1, WAIT_S - 2],
    );
    assert.equal(await afterAbort, 'stopped waiting');
    assert.equal(vc.now(), heard.at(-1)?.at, 'not a moment more of the wait');
    assert.equal(createdResults(), before);
  } finally {
    await close();
  }
});
