// A long call of `obs mcp` as the MCP SDK's own client makes it: a 7-day preview that waits 3 minutes for the
// service's limit of query results (a 429 said to retry after 3 minutes), and a query whose result takes the
// service time. With a progress token, the server sends a notification for each second of the wait and each
// poll, so a client that resets its timeout on progress waits as long as the call takes; without that reset,
// the client's timeout cancels the call and the server stops waiting, creating nothing. The server runs in
// this process (createMcpServer on the host `obs mcp` makes, over the SDK's in-memory transport) on a clock
// that the sandbox shares, moved on by each sleep (so what it says is exact), where each sleep takes a
// thirtieth of its time in real time. The client's timeout is the SDK's default of 60 s shortened alike (2 s):
// the 3 minutes take at least 6 s, three times the timeout, and no gap between notifications comes near it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ToolHost } from '../../src/agentTools';
import { CreationPacer, systemClock, type RunnerClock } from '../../src/backtest/runner';
import { mcpHost, type McpHost } from '../../src/cli/mcpHost';
import { createMcpServer } from '../../src/cli/mcpRun';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

/** How many times shorter than asked a sleep really waits. */
const SPEED = 30;
/** The SDK's default timeout on the shortened clock. */
const TIMEOUT = DEFAULT_REQUEST_TIMEOUT_MSEC / SPEED;
/** How long the pacer waits before the first creation: 3 minutes, three times the SDK's default timeout. */
const WAIT_S = 180;
let now = Date.parse('2025-06-02T12:00:00Z');
/** A clock each sleep moves on by its time, after really waiting SPEED times less (or less still, when its signal aborts). */
const fast: RunnerClock = {
  now: () => now,
  sleep: async (ms, signal) => {
    await systemClock.sleep(ms / SPEED, signal);
    now += ms;
  },
};

let sandbox: TestSandbox;
let dir = '';
let base: McpHost;

before(async () => {
  sandbox = await startTestSandbox({ clock: fast.now });
  dir = mkdtempSync(join(tmpdir(), 'obs-mcp-progress-'));
  base = mcpHost({ cwd: dir, env: { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey } });
});
after(async () => {
  await base.close();
  await sandbox.handle.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Connected {
  client: Client;
  /** Resolves when a wait of the server's was cut short by the abort of its call. */
  cancelled: Promise<void>;
  close(): Promise<void>;
}

/** The server of `obs mcp` on its own host, whose pacer was told by a 429 to wait WAIT_S before the next creation. */
async function connect(): Promise<Connected> {
  let onCancelled = (): void => undefined;
  const cancelled = new Promise<void>((resolve) => (onCancelled = resolve));
  const clock: RunnerClock = {
    now: fast.now,
    sleep: (ms, s) =>
      fast.sleep(ms, s).catch((e: unknown) => {
        if (s.aborted) onCancelled();
        throw e;
      }),
  };
  const pacer = new CreationPacer(clock);
  pacer.block(fast.now() + WAIT_S * 1000);
  const host: ToolHost = { ...base, queries: async () => ({ ...(await base.queries()), pacer, clock }) };
  const server = createMcpServer(host);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'obs-test', version: '1.0.0' });
  await client.connect(clientSide);
  await client.listTools();
  return { client, cancelled, close: async () => (await client.close(), await server.close()) };
}

const createdResults = () =>
  sandbox.handle.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/1/query_results/')).length;

test('a 7-day preview that waits 3 minutes for the rate limit sends progress each second, and completes under the SDK default timeout, which each notification resets', async () => {
  const { client, close } = await connect();
  try {
    const progress: Progress[] = [];
    const r = await client.callTool(
      {
        name: 'obs_preview_trigger',
        arguments: { dataset: DEMO.datasets.gateway, trigger_id: DEMO.triggers.gwErrors, window: '7d' },
      },
      undefined,
      { onprogress: (p) => progress.push(p), timeout: TIMEOUT, resetTimeoutOnProgress: true },
    );
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    assert.equal((r.structuredContent as { window?: string }).window, '7d');
    assert.deepEqual(
      progress.map((p) => p.progress),
      progress.map((_, i) => i + 1),
      'each notification one more than the last',
    );
    // The preview's queries are paced; the first waits the 3 minutes, one notification a second.
    const seconds = progress
      .flatMap(
        (p) => /^Waiting (\d+) s: the service runs at most 10 queries a minute\.\.\./.exec(p.message ?? '')?.[1] ?? [],
      )
      .map(Number);
    assert.deepEqual(
      seconds,
      Array.from({ length: WAIT_S }, (_, i) => WAIT_S - i),
    );
  } finally {
    await close();
  }
});

test('a query whose result takes the service time sends progress at each poll until it completes', async () => {
  const { client, close } = await connect();
  try {
    const progress: string[] = [];
    const r = await client.callTool(
      { name: 'obs_run_query', arguments: { dataset: DEMO.datasets.gateway, query_id: DEMO.savedQueries.gwSlow } },
      undefined,
      {
        onprogress: (p) => progress.push(p.message ?? ''),
        timeout: TIMEOUT,
        resetTimeoutOnProgress: true,
      },
    );
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    const polls = progress.filter((m) => /^Waiting for result \S+ \(\d+ s\)\.\.\.$/.test(m));
    assert.ok(polls.length >= 2, progress.slice(-10).join('\n'));
    assert.equal(progress.at(-1), polls.at(-1), 'the last word before the answer was a poll');
  } finally {
    await close();
  }
});

test('a client whose timeout does not wait for progress cancels the call: the server stops waiting and creates no query result', async () => {
  const { client, cancelled, close } = await connect();
  try {
    const before = createdResults();
    const progress: Progress[] = [];
    await assert.rejects(
      client.callTool(
        {
          name: 'obs_run_query',
          arguments: { dataset: DEMO.datasets.gateway, query_id: DEMO.savedQueries.gwTopRoutes },
        },
        undefined,
        { onprogress: (p) => progress.push(p), timeout: 300 },
      ),
      {
        code: -32001,
      },
    );
    await cancelled;
    assert.ok(progress.length > 0, 'it said it was waiting');
    assert.equal(createdResults(), before);
  } finally {
    await close();
  }
});
