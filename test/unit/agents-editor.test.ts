// The vscode-free cores of the editor's agent tools: the plans kept for the apply tool (once, for 30 minutes),
// the MCP server's launch (no key until it starts), the texts shown while a tool runs and before an apply,
// and the host the tools run against (no connection: an answer that says how to get one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool, type PlanWithNotes } from '../../src/agentTools';
import { editorToolHost } from '../../src/extension/agents/editorToolHost';
import { mcpLaunch, startEnvironment } from '../../src/extension/agents/mcpLaunch';
import { PLAN_LIFETIME_MS, PlanStore } from '../../src/extension/agents/planStore';
import { applyQuestion, codeBlock, invocationText } from '../../src/extension/agents/toolText';
import { lint } from '../../src/lint';
import type { Plan } from '../../src/triggerFiles';

const plan = (n: number): PlanWithNotes => ({
  plan: {
    format: 'obs-trigger-plan',
    version: 3,
    createdAt: '2026-01-01T00:00:00.000Z',
    target: { baseUrl: 'https://api.example.com', key: { salt: '', sha256: '' } },
    inputs: { scope: { kind: 'all' }, allowUnknownColumns: false, matchByName: false },
    prune: true,
    files: [],
    changes: [],
    blocked: [],
    unchanged: n,
  } satisfies Plan,
  notes: [],
});

/** The connection a plan is made against: Prod at its address, with the client it had then. */
const PROD_CLIENT = {};
const prod = (client: object = PROD_CLIENT) => ({
  id: 'prod',
  name: 'Prod',
  baseUrl: 'https://api.example.com',
  client,
});

test('a kept plan is found by its id until it is taken: it applies once', () => {
  const store = new PlanStore<string>();
  const id = store.remember(plan(1), { ...prod(), name: 'Sandbox' }, 'files');
  assert.match(id, /^plan_[\w-]{12}$/);
  assert.equal(store.peek(id)?.plan.unchanged, 1);
  assert.equal(store.peek(id)?.sources, 'files');
  assert.equal(store.take(id)?.connection.name, 'Sandbox');
  assert.equal(store.take(id), undefined);
  assert.equal(store.peek(id), undefined);
});

test('a kept plan expires after 30 minutes, and at most 20 are kept (the oldest goes)', () => {
  let now = 0;
  const store = new PlanStore<undefined>(() => now);
  const first = store.remember(plan(0), prod(), undefined);
  now = PLAN_LIFETIME_MS;
  assert.ok(store.peek(first));
  now = PLAN_LIFETIME_MS + 1;
  assert.equal(store.peek(first), undefined);
  const ids = Array.from({ length: 21 }, (_, i) => store.remember(plan(i), prod(), undefined));
  assert.equal(store.peek(ids[0] ?? ''), undefined);
  assert.equal(store.peek(ids[20] ?? '')?.plan.unchanged, 20);
});

test("the MCP server is listed with the connection's address and no key; the key joins the environment only when it starts", () => {
  const launch = mcpLaunch(
    { id: 'conn-1', name: 'Prod EU', baseUrl: 'https://api.example.com' },
    '/ext',
    ['metrics-hosts', 'm2'],
    '/home/me/repo',
  );
  assert.deepEqual(launch, {
    label: 'Observability (Prod EU)',
    args: ['/ext/dist/cli.js', 'mcp'],
    env: {
      OBS_BASE_URL: 'https://api.example.com',
      ELECTRON_RUN_AS_NODE: '1',
      OBS_TRIGGER_FOLDER: '/home/me/repo',
      OBS_METRICS_DATASETS: 'metrics-hosts,m2',
    },
    version: 'conn-1',
  });
  assert.equal(
    mcpLaunch({ id: 'c', name: 'n', baseUrl: 'https://x' }, '/ext', [], undefined).env['OBS_TRIGGER_FOLDER'],
    '',
    'no folder open: no trigger files',
  );
  const profile = { baseUrl: 'https://api.example.com' };
  assert.deepEqual(startEnvironment(launch.env, profile, 'secret-key', undefined), {
    ...launch.env,
    OBS_CONFIG_KEY: 'secret-key',
  });
  assert.deepEqual(startEnvironment({}, profile, 'k', 'http://proxy:3128'), {
    OBS_BASE_URL: 'https://api.example.com',
    OBS_CONFIG_KEY: 'k',
    HTTPS_PROXY: 'http://proxy:3128',
    HTTP_PROXY: 'http://proxy:3128',
  });
});

test("a server started from a definition listed before the connection's address changed sends the key to the connection's address only", () => {
  const kept = mcpLaunch(
    { id: 'conn-1', name: 'Prod EU', baseUrl: 'https://old.example.com' },
    '/ext',
    [],
    '/home/me/repo',
  );
  const started = startEnvironment(kept.env, { baseUrl: 'https://api.example.com' }, 'secret-key', undefined);
  assert.deepEqual([started['OBS_BASE_URL'], started['OBS_CONFIG_KEY']], ['https://api.example.com', 'secret-key']);
});

test('the plan shown before an apply sits in a code block no backtick run in it can close', () => {
  const text = 'Plan: ~ api-gateway "````\n[click](command:x)"\n';
  const block = codeBlock(text);
  assert.equal(block, '`````text\nPlan: ~ api-gateway "````\n[click](command:x)"\n`````');
  assert.equal(codeBlock('plain'), '```text\nplain\n```');
  const q = applyQuestion(
    { message: 'Apply 1 change to Sandbox?', detail: '1 to update (http://x). *Read* [it](command:y)' },
    text,
  );
  assert.equal(q.title, 'Apply 1 change to Sandbox?');
  assert.ok(
    q.message.startsWith('1 to update \\(http://x\\)\\. \\*Read\\* \\[it\\]\\(command:y\\)\n\n`````text\n'),
    q.message,
  );
});

test('without an active connection the tools that read the service answer how to get one; lint still answers', async () => {
  const host = editorToolHost({
    active: undefined,
    lint: async (text) => lint(text),
    files: { read: async () => ({ files: [], problems: [] }) },
    plan: async () => assert.fail('no plan without a connection'),
    plans: new PlanStore(),
    sessionFor: () => assert.fail('no query without a connection'),
  });
  const signal = new AbortController().signal;
  const listed = await runTool('obs_list_datasets', {}, host, signal);
  assert.deepEqual(
    [listed.ok, listed.text],
    [
      false,
      'no observability connection is active in the editor: ask the user to add one (Observability: Add Connection...) or to start the local sandbox',
    ],
  );
  const planned = await runTool('obs_plan', {}, host, signal);
  assert.equal(planned.text, listed.text);
  assert.equal((await runTool('obs_lint_trigger', { text: '{}' }, host, signal)).ok, true);
});

test('the progress line of a tool call names the dataset the model gave as text, never as a link or formatting', () => {
  assert.equal(
    invocationText('obs_list_columns', { dataset: '[x](command:evil)' }, 'Sandbox'),
    'Listing the columns of \\[x\\]\\(command:evil\\) on Sandbox',
  );
  assert.equal(invocationText('obs_lint_trigger', { text: '{}' }, 'Sandbox'), 'Linting a trigger');
  assert.equal(
    invocationText('obs_get_trigger', { dataset: 'api', trigger_id: 't' }, 'Sandbox'),
    'Reading a trigger of api on Sandbox',
  );
  assert.equal(
    invocationText('obs_get_trigger', { path: 'triggers/*evil*.json' }, 'Sandbox'),
    'Reading the trigger file triggers/\\*evil\\*\\.json',
  );
});
