// The vscode-free cores of the editor's agent tools: the plans kept for the apply tool (once, for 30 minutes),
// the MCP server's launch (no key until it starts), the texts shown while a tool runs and before an apply,
// and the host the tools run against (no connection: an answer that says how to get one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool, type PlanWithNotes } from '../../src/agentTools';
import { editorToolHost } from '../../src/extension/agents/editorToolHost';
import { applyPreparation, runApply, type PlanSources } from '../../src/extension/agents/applyTool';
import { mcpLaunch, startEnvironment } from '../../src/extension/agents/mcpLaunch';
import { PLAN_LIFETIME_MS, PlanStore } from '../../src/extension/agents/planStore';
import { applyQuestion, codeBlock, invocationText } from '../../src/extension/agents/toolText';
import { lint } from '../../src/lint';
import type { Plan, PlannedChange } from '../../src/triggerFiles';
import type { ActiveConnection } from '../../src/extension/connections';
import type { Logger } from '../../src/extension/core/logger';
import { RecipientDirectory } from '../../src/extension/core/recipients';

const QUESTION_TITLE = 'Prod looks like a production connection. Apply 1 change to Prod?';

const plan = (n: number): PlanWithNotes => ({
  plan: { format: 'obs-trigger-plan', version: 1, createdAt: '2026-01-01T00:00:00.000Z', target: { baseUrl: 'http://x', key: { salt: '', sha256: '' } }, prune: false, files: [], changes: [], blocked: [], unchanged: n } satisfies Plan,
  notes: [],
});

test('a kept plan is found by its id until it is taken: it applies once', () => {
  const store = new PlanStore<string>();
  const id = store.remember(plan(1), { id: 'c1', name: 'Sandbox' }, 'files');
  assert.match(id, /^plan_[\w-]{12}$/);
  assert.equal(store.peek(id)?.plan.unchanged, 1);
  assert.equal(store.peek(id)?.sources, 'files');
  assert.equal(store.take(id)?.connectionName, 'Sandbox');
  assert.equal(store.take(id), undefined);
  assert.equal(store.peek(id), undefined);
});

test('a kept plan expires after 30 minutes, and at most 20 are kept (the oldest goes)', () => {
  let now = 0;
  const store = new PlanStore<undefined>(() => now);
  const first = store.remember(plan(0), { id: 'c', name: 'n' }, undefined);
  now = PLAN_LIFETIME_MS;
  assert.ok(store.peek(first));
  now = PLAN_LIFETIME_MS + 1;
  assert.equal(store.peek(first), undefined);
  const ids = Array.from({ length: 21 }, (_, i) => store.remember(plan(i), { id: 'c', name: 'n' }, undefined));
  assert.equal(store.peek(ids[0] ?? ''), undefined);
  assert.equal(store.peek(ids[20] ?? '')?.plan.unchanged, 20);
});

test("the MCP server is listed with the connection's address and no key; the key joins the environment only when it starts", () => {
  const launch = mcpLaunch({ id: 'conn-1', name: 'Prod EU', baseUrl: 'https://api.example.com' }, '/ext', ['metrics-hosts', 'm2'], '/home/me/repo');
  assert.deepEqual(launch, {
    label: 'Observability (Prod EU)',
    args: ['/ext/dist/cli.js', 'mcp'],
    env: { OBS_BASE_URL: 'https://api.example.com', ELECTRON_RUN_AS_NODE: '1', OBS_TRIGGER_FOLDER: '/home/me/repo', OBS_METRICS_DATASETS: 'metrics-hosts,m2' },
    version: 'conn-1',
  });
  assert.equal(mcpLaunch({ id: 'c', name: 'n', baseUrl: 'https://x' }, '/ext', [], undefined).env['OBS_TRIGGER_FOLDER'], '', 'no folder open: no trigger files');
  const profile = { baseUrl: 'https://api.example.com' };
  assert.deepEqual(startEnvironment(launch.env, profile, 'secret-key', undefined), { ...launch.env, OBS_CONFIG_KEY: 'secret-key' });
  assert.deepEqual(startEnvironment({}, profile, 'k', 'http://proxy:3128'), { OBS_BASE_URL: 'https://api.example.com', OBS_CONFIG_KEY: 'k', HTTPS_PROXY: 'http://proxy:3128', HTTP_PROXY: 'http://proxy:3128' });
});

test("a server started from a definition listed before the connection's address changed sends the key to the connection's address only", () => {
  const kept = mcpLaunch({ id: 'conn-1', name: 'Prod EU', baseUrl: 'https://old.example.com' }, '/ext', [], '/home/me/repo');
  const started = startEnvironment(kept.env, { baseUrl: 'https://api.example.com' }, 'secret-key', undefined);
  assert.deepEqual([started['OBS_BASE_URL'], started['OBS_CONFIG_KEY']], ['https://api.example.com', 'secret-key']);
});

test('the plan shown before an apply sits in a code block no backtick run in it can close', () => {
  const text = 'Plan: ~ api-gateway "````\n[click](command:x)"\n';
  const block = codeBlock(text);
  assert.equal(block, '`````text\nPlan: ~ api-gateway "````\n[click](command:x)"\n`````');
  assert.equal(codeBlock('plain'), '```text\nplain\n```');
  const q = applyQuestion({ message: 'Apply 1 change to Sandbox?', detail: '1 to update (http://x). *Read* [it](command:y)' }, text);
  assert.equal(q.title, 'Apply 1 change to Sandbox?');
  assert.ok(q.message.startsWith('1 to update \\(http://x\\)\\. \\*Read\\* \\[it\\]\\(command:y\\)\n\n`````text\n'), q.message);
});

test('without an active connection the tools that read the service answer how to get one; lint still answers', async () => {
  const host = editorToolHost({
    active: undefined,
    lint: async (text) => lint(text),
    files: { read: async () => ({ files: [], problems: [] }) },
    plan: async () => assert.fail('no plan without a connection'),
    plans: new PlanStore(),
    pacerFor: () => assert.fail('no query without a connection'),
  });
  const signal = new AbortController().signal;
  const listed = await runTool('obs_list_datasets', {}, host, signal);
  assert.deepEqual([listed.ok, listed.text], [false, 'no observability connection is active in the editor: ask the user to add one (Observability: Add Connection...) or to start the local sandbox']);
  const planned = await runTool('obs_plan', {}, host, signal);
  assert.equal(planned.text, listed.text);
  assert.equal((await runTool('obs_lint_trigger', { text: '{}' }, host, signal)).ok, true);
});

test('the progress line of a tool call names the dataset the model gave as text, never as a link or formatting', () => {
  assert.equal(invocationText('obs_list_columns', { dataset: '[x](command:evil)' }, 'Sandbox'), 'Listing the columns of \\[x\\]\\(command:evil\\) on Sandbox');
  assert.equal(invocationText('obs_lint_trigger', { text: '{}' }, 'Sandbox'), 'Linting a trigger');
});

/** An apply's dependencies around one kept plan deleting one trigger of Prod: every call of the client is counted. */
function applyFixture() {
  const plans = new PlanStore<PlanSources>();
  const changes: PlannedChange[] = [{ action: 'delete', dataset: 'api-gateway', id: 'trig_1', name: 'Old', service: { sha256: '0'.repeat(64) } }];
  const id = plans.remember({ plan: { ...plan(0).plan, changes }, notes: [] }, { id: 'prod', name: 'Prod' }, {
    current: async () => new Map(),
    state: async () => assert.fail('no file is read for a delete'),
    editAndSave: async () => assert.fail('no file is written for a delete'),
  });
  const calls: string[] = [];
  const client = new Proxy({}, { get: (_t, name) => async () => void calls.push(String(name)) });
  const active = { profile: { id: 'prod', name: 'Prod', baseUrl: 'https://api.example.com' }, client } as unknown as ActiveConnection;
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;
  return { plans, id, calls, deps: { plans, active, onWritten: () => undefined, log } };
}

test('an apply whose preparation put no question writes nothing, though its connection is active again when it runs', async () => {
  const { plans, id, calls, deps } = applyFixture();
  // Prepared while another connection was active: VS Code is handed no question, so it asks the user nothing.
  assert.equal(applyPreparation({ plan_id: id }, plans, 'staging').confirmation, undefined);
  // The plan's connection is active again by the time VS Code calls invoke.
  await assert.rejects(runApply({ plan_id: id }, deps, new AbortController().signal), {
    message: `nothing was written: the user was not asked to confirm plan "${id}" (the question is put only while the connection it was made against is active); call obs_apply_plan again`,
  });
  assert.deepEqual(calls, []);
  // Asked this time (in VS Code: confirmed, or invoke is never called): the same plan is applied, once.
  assert.equal(applyPreparation({ plan_id: id }, plans, 'prod').confirmation?.title, QUESTION_TITLE);
  await runApply({ plan_id: id }, deps, new AbortController().signal).catch(() => undefined);
  assert.ok(calls.length > 0, 'the confirmed plan reached the service');
  assert.equal(plans.peek(id), undefined);
});

test('a question put once and then not put again (the connection switched) leaves the plan unconfirmed', async () => {
  const { plans, id, calls, deps } = applyFixture();
  assert.ok(applyPreparation({ plan_id: id }, plans, 'prod').confirmation);
  // The user cancelled that question; the next invocation is prepared while another connection is active.
  assert.equal(applyPreparation({ plan_id: id }, plans, 'staging').confirmation, undefined);
  await assert.rejects(runApply({ plan_id: id }, deps, new AbortController().signal), /the user was not asked to confirm/);
  assert.deepEqual(calls, []);
});

test('the question before an apply names the recipients of a difference as the editor\'s Apply does, when the connection lists them', () => {
  const plans = new PlanStore<PlanSources>();
  const difference = { path: 'recipients[0].id', member: 'recipients', service: 'rcp_old', local: 'rcp_new' };
  const changes: PlannedChange[] = [{ action: 'update', dataset: 'api-gateway', id: 'trig_1', name: 'Errors', file: 'errors.trigger.json', body: {}, differences: [difference], service: { sha256: '0'.repeat(64) } } as unknown as PlannedChange];
  const id = plans.remember({ plan: { ...plan(0).plan, changes }, notes: [] }, { id: 'prod', name: 'Prod' }, { current: async () => new Map(), state: async () => undefined, editAndSave: async () => undefined } as unknown as PlanSources);
  const directory = new RecipientDirectory([{ id: 'rcp_new', type: 'slack', details: { slack_channel: '#alerts' } }] as never);
  const message = applyPreparation({ plan_id: id }, plans, 'prod', directory).confirmation?.message ?? '';
  assert.match(message, /recipients\[0\]\.id: "rcp_old" -> "rcp_new" \(rcp_old is rcp_old \(not among the recipients the service lists\); rcp_new is #alerts \(Slack\)\)/);
  assert.doesNotMatch(applyPreparation({ plan_id: id }, plans, 'prod').confirmation?.message ?? '', /rcp_new is/);
});
