// The agent tools of src/agentTools in plain Node, against the sandbox with the real client: each tool's
// answer (named fields, bounded lists that say they were cut), the errors it answers instead of throwing
// (bad input, unknown dataset, no service, cancelled), and the last guard on an answer's size.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api';
import * as z from 'zod';
import {
  answerText,
  boundedAnswer,
  jsonText,
  LIMITS,
  runTool,
  toolNamed,
  type PlanWithNotes,
  type ToolHost,
} from '../../src/agentTools';
import { CreationPacer, PACING_MARGIN_MS } from '../../src/backtest/runner';
import { DEMO, HOSTILE } from '../../src/sandbox';
import { triggerFileText } from '../../src/triggerFiles';
import { sandboxToolHost, type SandboxHostOptions } from './agents-sandbox-host';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { virtualClock } from './virtualClock';

let sandbox: TestSandbox;
let client: ServiceClient;
const signal = new AbortController().signal;

before(async () => {
  sandbox = await startTestSandbox();
  client = new ServiceClient({ baseUrl: sandbox.base, configKey: sandbox.handle.info.configKey });
});
after(async () => {
  await client.close();
  await sandbox.handle.close();
});

/** A host over the sandbox (or no service) whose files are the given texts; plans as obs plan does. */
const host = (files: Record<string, string> = {}, o: SandboxHostOptions = {}): ToolHost =>
  sandboxToolHost(client, sandbox.base, files, o);

/** A tool's answer: its text within the cap, the value it says, and that value of the tool's output schema. */
async function ok(name: string, input: unknown, h: ToolHost = host()): Promise<Record<string, unknown>> {
  const answer = await runTool(name, input, h, signal);
  assert.ok(answer.ok, answer.ok ? '' : answer.reason);
  assert.ok(answer.text.length <= LIMITS.answer, `${name}: ${answer.text.length} characters`);
  assert.deepEqual(answer.result, JSON.parse(answer.text));
  const output = toolNamed(name)?.output.extend({ cut: z.record(z.string(), z.unknown()).optional() });
  const checked = output?.safeParse(answer.result);
  assert.ok(checked?.success, `${name}: ${JSON.stringify(checked?.error?.issues.slice(0, 3))}`);
  return answer.result;
}

async function failed(name: string, input: unknown, h: ToolHost = host()): Promise<string> {
  const answer = await runTool(name, input, h, signal);
  assert.equal(answer.ok, false, answer.text);
  return answer.text;
}

test('the columns of a 2,000-column dataset come back 100 at a time, sorted, saying how many there are and that the list was cut', async () => {
  const r = await ok('obs_list_columns', { dataset: DEMO.datasets.wide });
  assert.equal(r.total, DEMO.wideColumnCount);
  assert.equal(r.returned, LIMITS.listRows);
  assert.equal(r.truncated, true);
  const names = (r.columns as { key_name: string }[]).map((c) => c.key_name);
  assert.deepEqual(
    names,
    [...names].sort((a, b) => a.localeCompare(b)),
  );
});

test('columns filtered by a substring, case aside, answer only the matching ones with their count', async () => {
  const r = await ok('obs_list_columns', { dataset: DEMO.datasets.gateway, contains: 'HTTP.' });
  assert.deepEqual(
    (r.columns as { key_name: string }[]).map((c) => c.key_name),
    ['http.method', 'http.route'],
  );
  assert.deepEqual([r.total, r.matching, r.truncated], [19, 2, false]);
});

test('a trigger is answered with named fields only: recipients by id, type and target, no details, no member the tool does not name', async () => {
  const r = await ok('obs_list_triggers', { dataset: DEMO.datasets.gateway });
  const errors = (r.triggers as Record<string, unknown>[]).find((t) => t.id === DEMO.triggers.gwErrors);
  assert.ok(errors);
  const named = [
    'id',
    'name',
    'dataset',
    'description',
    'disabled',
    'triggered',
    'frequency',
    'alert_type',
    'threshold',
    'query_id',
    'query',
    'schedule',
    'baseline',
    'in_words',
    'evaluation_schedule_type',
    'recipients',
    'updated_at',
  ];
  assert.deepEqual(
    Object.keys(errors).filter((k) => !named.includes(k)),
    [],
  );
  for (const recipient of errors.recipients as Record<string, unknown>[])
    assert.deepEqual(
      Object.keys(recipient).filter((k) => !['id', 'type', 'target'].includes(k)),
      [],
    );
});

test('service text stays data in its field: the hostile trigger name and description are returned as written, hidden characters escaped in the JSON text', async () => {
  const answer = await runTool('obs_list_triggers', { dataset: DEMO.datasets.hostile }, host(), signal);
  const hostile = (
    JSON.parse(answer.text) as { triggers: { id: string; name: string; description?: string }[] }
  ).triggers.find((t) => t.id === DEMO.triggers.hsMarkup);
  assert.equal(hostile?.name, HOSTILE.img);
  assert.match(hostile?.description ?? '', /\[run\]\(command:workbench\.action\.quit\)/);
  const rtl = await runTool(
    'obs_list_columns',
    { dataset: DEMO.datasets.hostile, contains: 'gnp.exe' },
    host(),
    signal,
  );
  assert.ok(rtl.text.includes('\\u202e'), rtl.text);
  assert.ok(!rtl.text.includes(HOSTILE.rtlOverride));
});

test('an unknown dataset is an error answer naming it, not a crash', async () => {
  assert.equal(
    await failed('obs_list_columns', { dataset: 'no-such-dataset' }),
    'dataset "no-such-dataset" was not found on the service (404)',
  );
  assert.equal(
    await failed('obs_list_triggers', { dataset: 'no-such-dataset' }),
    'dataset "no-such-dataset" was not found on the service (404)',
  );
});

test('an input outside the schema is refused before anything is read, naming the member: too long a text, too high a limit, a member that does not exist', async () => {
  const before = sandbox.handle.requests.length;
  assert.match(
    await failed('obs_lint_trigger', { text: 'x'.repeat(LIMITS.triggerText + 1) }),
    /^invalid input for obs_lint_trigger: text: /,
  );
  assert.match(
    await failed('obs_list_columns', { dataset: DEMO.datasets.gateway, limit: LIMITS.maxListRows + 1 }),
    /^invalid input for obs_list_columns: limit: /,
  );
  assert.match(
    await failed('obs_list_columns', { dataset: DEMO.datasets.gateway, datset: 'x' }),
    /^invalid input for obs_list_columns: the input: Unrecognized key: "datset"/,
  );
  assert.match(await failed('obs_list_columns', { dataset: 'a/b' }), /^invalid input for obs_list_columns: dataset: /);
  assert.equal(sandbox.handle.requests.length, before, 'no call was made');
  assert.equal(await failed('obs_write_everything', {}), 'no tool named "obs_write_everything"');
});

test('lint answers rule ids, severities and lines, errors first, with the live columns of the dataset the trigger names', async () => {
  const text = JSON.stringify({
    name: 'Slow',
    dataset_slug: DEMO.datasets.gateway,
    frequency: 900,
    threshold: { op: '>', value: 5 },
    query: { time_range: 900, calculations: [{ op: 'P99', column: 'durration_ms' }] },
    recipients: [{ id: DEMO.recipients.emailOncall }],
  });
  const r = await ok('obs_lint_trigger', { text });
  assert.deepEqual(r.columns_checked, [DEMO.datasets.gateway]);
  const unknown = (r.diagnostics as { rule: string; line: number; member?: string }[]).find(
    (d) => d.rule === 'query/unknown-column',
  );
  assert.ok(unknown, JSON.stringify(r.diagnostics));
  assert.equal(unknown.line, 1);
  assert.equal(unknown.member, 'query.calculations[0].column');
  const off = await ok('obs_lint_trigger', { text, check_columns: false });
  assert.deepEqual(off.columns_checked, []);
  assert.equal(
    (off.diagnostics as { rule: string }[]).some((d) => d.rule === 'query/unknown-column'),
    false,
  );
});

test('a lint of broken JSON answers the syntax diagnostics; a lint of many triggers answers at most 50 diagnostics and the count of all', async () => {
  const broken = await ok('obs_lint_trigger', { text: '{"name": ' });
  assert.ok((broken.errors as number) > 0);
  const many = JSON.stringify(Array.from({ length: 200 }, () => ({ name: '', frequency: 1 })));
  const r = await ok('obs_lint_trigger', { text: many });
  assert.equal(r.returned, LIMITS.diagnostics);
  assert.equal(r.truncated, true);
  assert.ok((r.total as number) > LIMITS.diagnostics);
});

test('without a service the list tools answer how to connect, and lint still works without columns', async () => {
  const none = host({}, { service: false });
  assert.equal(await failed('obs_list_datasets', {}, none), 'no service is configured');
  const r = await ok(
    'obs_lint_trigger',
    { text: JSON.stringify({ name: 'x', dataset_slug: DEMO.datasets.gateway }) },
    none,
  );
  assert.deepEqual(r.columns_checked, []);
  assert.match(String((r.notes as string[])[0]), /^the columns were not checked: no service is configured$/);
});

test('a cancelled call answers that it was cancelled', async () => {
  const controller = new AbortController();
  controller.abort();
  const answer = await runTool('obs_list_datasets', {}, host(), controller.signal);
  assert.deepEqual([answer.ok, answer.text], [false, 'the call was cancelled']);
});

test("a preview of a trigger on the service answers the engine's summary, its evaluations and its firing intervals", async () => {
  const r = await ok('obs_preview_trigger', {
    dataset: DEMO.datasets.gateway,
    trigger_id: DEMO.triggers.gwErrors,
    window: '24h',
  });
  assert.deepEqual(
    [r.trigger, r.dataset, r.window, r.frequency, r.evaluations],
    ['High error rate', DEMO.datasets.gateway, '24h', 300, 288],
  );
  assert.match(String(r.summary), /^It would (not )?have fired/);
  const firings = r.firings as { start: string; end: string | null; groups: string[] }[];
  assert.equal(firings.length, r.firings_total);
  for (const f of firings)
    assert.ok(
      Date.parse(f.start) >= Date.parse(String(r.from)) && (f.end === null || Date.parse(f.end) > Date.parse(f.start)),
      JSON.stringify(f),
    );
});

test('a preview of a text that is not JSON, of an unknown dataset or of nothing is an error answer saying so', async () => {
  assert.equal(
    await failed('obs_preview_trigger', { text: '{' }),
    'the trigger text cannot be previewed: the file is not valid JSON (fix the problems the linter shows first)',
  );
  const elsewhere = JSON.stringify({
    name: 'x',
    dataset_slug: 'no-such-dataset',
    frequency: 300,
    threshold: { op: '>', value: 1 },
    query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
  });
  assert.equal(
    await failed('obs_preview_trigger', { text: elsewhere }),
    'The service has no dataset "no-such-dataset".',
  );
  assert.equal(await failed('obs_preview_trigger', {}), 'give the trigger as text, or dataset and trigger_id');
});

test('a saved query answers its totals and its first rows, as many as asked', async () => {
  const r = await ok('obs_run_query', {
    dataset: DEMO.datasets.gateway,
    query_id: DEMO.savedQueries.gwTopRoutes,
    top: 2,
  });
  const rows = r.rows as Record<string, unknown>[];
  assert.equal(rows.length, 2);
  assert.equal(r.rows_truncated, (r.rows_total as number) > 2);
  assert.deepEqual(Object.keys(rows[0] ?? {}).sort(), ['COUNT', 'http.route']);
  assert.equal(typeof (r.totals as { COUNT?: unknown }).COUNT, 'number');
  assert.match(
    await failed('obs_run_query', { dataset: DEMO.datasets.gateway, query_id: 'no-such-query' }),
    /names no saved query/,
  );
});

/** The gateway's "High error rate" trigger as a file, its threshold changed. */
async function editedFile(): Promise<string> {
  const trigger = (await client.getTrigger(DEMO.datasets.gateway, DEMO.triggers.gwErrors)).data;
  const file = JSON.parse(triggerFileText(trigger)) as { threshold: { value: number } };
  file.threshold.value += 1;
  return JSON.stringify(file, null, 2);
}

test('drift names the file that differs and the member, service value -> file value', async () => {
  const r = await ok('obs_drift', {}, host({ 'triggers/high.trigger.json': await editedFile() }));
  assert.equal((r.counts as { differs: number }).differs, 1);
  const file = (r.files as { file: string; triggers: { differences: string[] }[] }[])[0];
  assert.equal(file?.file, 'triggers/high.trigger.json');
  assert.match(file?.triggers[0]?.differences[0] ?? '', /^threshold\.value: \d+ -> \d+$/);
});

test('the plan answers one update with its member and a plan_id from the host that applies; without one it says a person applies it', async () => {
  const remembered: PlanWithNotes[] = [];
  const files = { 'triggers/high.trigger.json': await editedFile() };
  const r = await ok('obs_plan', {}, host(files, { remember: (p) => (remembered.push(p), 'plan-1') }));
  assert.deepEqual(r.counts, { create: 0, update: 1, delete: 0, blocked: 0, unchanged: 0 });
  assert.equal(r.plan_id, 'plan-1');
  assert.equal(remembered[0]?.plan.changes.length, 1);
  const readOnly = await ok('obs_plan', {}, host(files));
  assert.equal(readOnly.plan_id, undefined);
  assert.match(String(readOnly.next), /^this server does not write/);
});

test('jsonText writes hidden characters as escapes and parses back to the same value', () => {
  const value = { name: `a${HOSTILE.rtlOverride}b\u200bc\u2028d` };
  const text = jsonText(value);
  assert.equal(text, '{"name":"a\\u202eb\\u200bc\\u2028d"}');
  assert.deepEqual(JSON.parse(text), value);
});

test('an answer over the size cap has its longest list halved until it fits, and says which lists were cut', () => {
  const result = { small: [1, 2, 3], big: Array.from({ length: 1000 }, (_, i) => ({ i, pad: 'x'.repeat(50) })) };
  const text = answerText(result, 5_000);
  assert.ok(text.length <= 5_000, String(text.length));
  const parsed = JSON.parse(text) as { small: number[]; big: unknown[]; cut: Record<string, unknown> };
  assert.deepEqual(parsed.small, [1, 2, 3]);
  assert.ok(parsed.big.length > 0 && parsed.big.length < 1000);
  assert.equal(parsed.cut.big, 1000);
  // The value an MCP client gets as structured content is what the text says, cut the same way.
  const bounded = boundedAnswer(result, 5_000);
  assert.ok(bounded.ok);
  assert.deepEqual([bounded.text, bounded.value], [text, parsed]);
  assert.equal(result.big.length, 1000, 'the answer given is not cut in place');
});

test('an answer too large even with every list cut is an error answer, saying so', () => {
  assert.deepEqual(boundedAnswer({ text: 'x'.repeat(200) }, 100), {
    ok: false,
    reason: 'the answer was too large (211 characters) even with every list cut; narrow the request',
  });
});

/** A host whose service lists one trigger of `name` in `api`, and whose plan creates a trigger of that name. */
function hostNaming(name: string): ToolHost {
  const trigger = {
    id: 't-1',
    name,
    dataset_slug: 'api',
    description: 'd'.repeat(5_000),
    threshold: { op: '>', value: 1 },
  };
  const service = {
    ...client,
    listTriggers: async () => ({ data: [trigger], status: 200, attempts: 1 }),
  } as unknown as ServiceClient;
  const create = {
    kind: 'trigger' as const,
    action: 'create' as const,
    file: 'api/x.trigger.json',
    index: -1,
    dataset: 'api',
    name,
    body: {},
  };
  return {
    ...host(),
    service: async () => service,
    files: {
      read: async () => ({ files: [], problems: [] }),
      plan: async () => ({ plan: { ...planShape, changes: [create] }, notes: [] }),
    },
  };
}

const planShape = {
  format: 'obs-trigger-plan' as const,
  version: 3 as const,
  createdAt: '2026-01-01T00:00:00.000Z',
  target: { baseUrl: 'http://x', key: { salt: '', sha256: '' } },
  inputs: { scope: { kind: 'files' as const }, allowUnknownColumns: false, matchByName: false },
  prune: false,
  files: [],
  changes: [],
  blocked: [],
  unchanged: 0,
};

test('a name of a hundred thousand characters from the service is cut in list and plan answers, saying how long it was', async () => {
  const name = `${'n'.repeat(99_999)}!`;
  const listed = await ok('obs_list_triggers', { dataset: 'api' }, hostNaming(name));
  const trigger = (listed.triggers as { name: string; description: string }[])[0];
  assert.equal(trigger?.name, `${'n'.repeat(LIMITS.name)}… (100000 characters in all)`);
  assert.equal(trigger?.description, `${'d'.repeat(LIMITS.text)}… (5000 characters in all)`);
  const planned = await ok('obs_plan', {}, hostNaming(name));
  assert.equal(
    (planned.changes as { name: string }[])[0]?.name,
    `${'n'.repeat(LIMITS.name)}… (100000 characters in all)`,
  );
});

test('a name the service accepts is never cut: 256 characters come back whole', async () => {
  const name = 'n'.repeat(LIMITS.name);
  const listed = await ok('obs_list_triggers', { dataset: 'api' }, hostNaming(name));
  assert.equal((listed.triggers as { name: string }[])[0]?.name, name);
});

/** A host whose service holds the one trigger given (listed, and read by its id), and whose files are the given texts. */
function hostHolding(trigger: Record<string, unknown>, files: Record<string, string> = {}): ToolHost {
  const service = {
    ...client,
    listTriggers: async () => ({ data: [trigger], status: 200, attempts: 1 }),
    getTrigger: async (_dataset: string, id: string) => {
      if (id !== trigger.id)
        throw Object.assign(new Error('not found'), { name: 'ServiceError', kind: 'http', status: 404 });
      return { data: trigger, status: 200, attempts: 1 };
    },
  } as unknown as ServiceClient;
  return { ...host(files), service: async () => service };
}

/** A formula trigger with every member a list summary once left out: ["COUNT", "COUNT"] said none of it. */
const RATIO = {
  id: 't-ratio',
  name: 'Error ratio',
  dataset_slug: 'api',
  frequency: 300,
  threshold: { op: '>', value: 5, exceeded_limit: 3 },
  alert_type: 'on_true',
  evaluation_schedule_type: 'window',
  evaluation_schedule: { window: { days_of_week: ['monday', 'friday'], start_time: '09:00', end_time: '17:00' } },
  baseline_details: { type: 'percentage', offset_minutes: 1440 },
  recipients: [
    {
      id: 'r-hook',
      type: 'webhook',
      target: 'ops hook',
      details: { variables: [{ name: 'auth', value: 'Bearer s3cr3t' }] },
    },
  ],
  query: {
    calculations: [
      { op: 'COUNT', name: 'errors', filters: [{ column: 'status_code', op: '>=', value: 500 }] },
      { op: 'COUNT', name: 'total' },
    ],
    filters: [
      { column: 'service', op: '=', value: 'api' },
      { column: 'region', op: 'in', value: ['eu', 'us'] },
      { column: 'error', op: 'exists' },
    ],
    breakdowns: ['http.route'],
    havings: [{ column: 'total', op: '>', value: 100 }],
    formulas: [{ name: 'ratio', expression: 'DIV($errors, $total)' }],
    time_range: 900,
  },
};

test('a listed trigger says its whole query in words, its schedule, its baseline, and what it does in one sentence', async () => {
  const r = await ok('obs_list_triggers', { dataset: 'api' }, hostHolding(RATIO));
  const [listed] = r.triggers as Record<string, unknown>[];
  assert.deepEqual(listed?.query, {
    calculations: ['errors = COUNT where status_code >= 500', 'total = COUNT'],
    filters: ['service = "api"', 'region in ["eu","us"]', 'error exists'],
    breakdowns: ['http.route'],
    havings: ['total > 100'],
    formulas: ['ratio = DIV($errors, $total)'],
    time_range: 900,
  });
  assert.equal(listed?.schedule, 'every 5 min, only on monday, friday from 09:00 to 17:00 UTC');
  assert.equal(listed?.baseline, 'the threshold applies to the change in percent against the same window 1 d earlier');
  assert.equal(
    listed?.in_words,
    'Fires when the change in percent of the formula ratio = DIV($errors, $total) against the same window 1 d earlier > 5, 3 evaluations in a row, for each http.route, only for groups where total > 100; over the last 15 min of events where service = "api" and region in ["eu","us"] and error exists; evaluated every 5 min, only on monday, friday from 09:00 to 17:00 UTC; notifies at every evaluation while it fires.',
  );
});

test('a trigger of one calculation with its defaults, or of a saved query, is said plainly; a having on an op leaves the other calculation compared', async () => {
  const plain = {
    id: 't-1',
    name: 'Slow',
    frequency: 900,
    threshold: { op: '>=', value: 500 },
    query: {
      calculations: [{ op: 'COUNT' }, { op: 'P99', column: 'duration_ms' }],
      havings: [{ calculate_op: 'COUNT', op: '>', value: 10 }],
      time_range: 3600,
      filter_combination: 'OR',
      filters: [
        { column: 'a', op: '=', value: 1 },
        { column: 'b', op: '=', value: 2 },
      ],
    },
  };
  const [slow] = (await ok('obs_list_triggers', { dataset: 'api' }, hostHolding(plain))).triggers as Record<
    string,
    unknown
  >[];
  assert.equal(
    slow?.in_words,
    'Fires when P99(duration_ms) >= 500, only for groups where COUNT > 10; over the last 1 h of events where a = 1 or b = 2; evaluated every 15 min; notifies when it starts and stops firing.',
  );
  assert.equal(slow?.baseline, undefined);
  const saved = { id: 't-2', name: 'Saved', threshold: { op: '<', value: 1 }, query_id: 'q_1', disabled: true };
  const [byId] = (await ok('obs_list_triggers', { dataset: 'api' }, hostHolding(saved))).triggers as Record<
    string,
    unknown
  >[];
  assert.equal(
    byId?.in_words,
    'Fires when the saved query q_1 < 1; evaluated every 15 min; notifies when it starts and stops firing; disabled: the service does not evaluate it.',
  );
  assert.equal(byId?.query, undefined);
});

test("obs_get_trigger answers a trigger of the service whole, as its file is written, with its words; a webhook variable's value is not shown", async () => {
  const r = await ok('obs_get_trigger', { dataset: 'api', trigger_id: RATIO.id }, hostHolding(RATIO));
  const expected = JSON.parse(triggerFileText(RATIO)) as {
    recipients: { details: { variables: { value: string }[] } }[];
  };
  const [variable] = expected.recipients[0]?.details.variables ?? [];
  if (variable) variable.value = '(not shown)';
  assert.deepEqual(r.triggers, [
    {
      trigger: expected,
      in_words: (
        (await ok('obs_list_triggers', { dataset: 'api' }, hostHolding(RATIO))) as { triggers: { in_words: string }[] }
      ).triggers[0]?.in_words,
    },
  ]);
  assert.deepEqual([r.source, r.dataset, r.triggers_total, r.triggers_truncated], ['service', 'api', 1, false]);
  assert.doesNotMatch(JSON.stringify(r), /s3cr3t/);
  assert.equal(
    await failed('obs_get_trigger', { dataset: 'api', trigger_id: 'no-such-trigger' }, hostHolding(RATIO)),
    'trigger "no-such-trigger" of dataset "api" was not found on the service (404)',
  );
});

test('obs_get_trigger answers each trigger of a file, by its place, bounded: a text longer than the service takes is cut, and so is a list, each saying how long it was', async () => {
  const long = {
    ...RATIO,
    description: 'd'.repeat(5_000),
    query: { ...RATIO.query, filters: Array.from({ length: 150 }, (_, i) => ({ column: `c${i}`, op: 'exists' })) },
  };
  const r = await ok(
    'obs_get_trigger',
    { path: 'triggers/two.trigger.json' },
    host({ 'triggers/two.trigger.json': JSON.stringify([RATIO, long]) }),
  );
  const [first, second] = r.triggers as {
    index: number;
    trigger: { description?: string; query: { filters: unknown[] } };
    cut?: string[];
  }[];
  assert.deepEqual(
    [r.source, r.file, r.triggers_total, first?.index, second?.index],
    ['file', 'triggers/two.trigger.json', 2, 0, 1],
  );
  assert.equal(first?.cut, undefined);
  assert.equal(second?.trigger.description, `${'d'.repeat(2_000)}… (5000 characters in all)`);
  assert.equal(second?.trigger.query.filters.length, 100);
  assert.deepEqual(second?.cut, ['query.filters: 100 of 150 entries']);
  assert.equal(
    await failed('obs_get_trigger', { path: 'triggers' }, host({ 'a.trigger.json': '{}', 'b.trigger.json': '{}' })),
    '"triggers" names 2 trigger files: name one file',
  );
  // The parser's own words differ between versions of Node.
  assert.match(
    await failed('obs_get_trigger', { path: 'x.trigger.json' }, host({ 'x.trigger.json': '{' })),
    /^x\.trigger\.json holds no trigger to read: the file is not valid JSON \(.+\)$/,
  );
  assert.equal(
    await failed('obs_get_trigger', { path: 'x.trigger.json', dataset: 'api' }),
    'give dataset and trigger_id (a trigger on the service), or path (a trigger file)',
  );
});

test('a query that waits for the rate limit and polls its result reports each second of the wait and each poll, as the host asks', async () => {
  const vc = virtualClock('2025-06-02T12:00:00Z');
  const own = await startTestSandbox({ clock: vc.now });
  const ownClient = new ServiceClient({ baseUrl: own.base, configKey: own.handle.info.configKey });
  try {
    const paced = new CreationPacer(vc.clock);
    // Ten results were just created: the next waits a minute and the pacer's margin.
    for (let i = 0; i < 10; i++) await paced.take(signal, () => undefined);
    const said: string[] = [];
    const reporting: ToolHost = {
      ...host(),
      queries: async () => ({ api: ownClient, pacer: paced, clock: vc.clock, report: (m) => said.push(m) }),
    };
    const r = await ok(
      'obs_run_query',
      { dataset: DEMO.datasets.gateway, query_id: DEMO.savedQueries.gwSlow },
      reporting,
    );
    assert.ok((r.rows as unknown[]).length > 0);
    const waits = said.filter((m) => m.startsWith('Waiting') && m.includes('queries a minute'));
    const seconds = (60_000 + PACING_MARGIN_MS) / 1000;
    assert.deepEqual(
      waits,
      Array.from(
        { length: seconds },
        (_, i) => `Waiting ${seconds - i} s: the service runs at most 10 queries a minute...`,
      ),
    );
    const polls = said.filter((m) => m.startsWith('Waiting for result'));
    assert.ok(polls.length >= 2, said.join('\n'));
    assert.deepEqual(
      said.filter((m) => !waits.includes(m) && !polls.includes(m)),
      ['Starting the query...'],
    );
  } finally {
    await ownClient.close();
    await own.handle.close();
  }
});
