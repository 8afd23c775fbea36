// "Apply Trigger Files to Connection..." (ApplyCommands, command workspaceToConnection) in the fake editor
// (vscode-fake.ts) and the plan view (plan-view-fake.ts), with three saved connections, each with a service of
// its own that records every call: the pick lists them all (the active one marked, production last), the plan
// reads the picked connection's lists, the view names it (asking for a production-like one's name, typed), the
// writes go to it alone, and a cancelled pick reads nothing. The files'
// ids are the active connection's: on another connection each trigger is matched by dataset and name, and a
// created trigger's id is not written into its file. A file that lies outside its workspace folder once links
// are resolved is not planned.
import { fake, fileUri, jobsDone, Uri, vscode } from './vscode-fake';
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { triggerFileText } from '../../src/triggerFiles';
import type { ActiveConnection } from '../../src/extension/connections';
import { Feedback } from '../../src/extension/core/feedback';
import { Settings } from '../../src/extension/core/settings';
import { ApplyLocks } from '../../src/extension/core/applyLocks';
import type { PlanViewModel } from '../../src/webview/protocol/planView';
import { ApplyCommands } from '../../src/extension/sync/applyCommands';
import { DEV, PROD, RecordingService, STAGING, trigger } from './apply-connections';
import { FakePlanView } from './plan-view-fake';

/** The log's info lines (each change's outcome is logged). */
let logged: string[] = [];
const log = {
  debug: () => undefined,
  info: (line: string) => logged.push(line),
  warn: () => undefined,
  error: () => undefined,
};

/** The files: pulled from staging (the active connection), with staging's ids. */
const ERRORS_FILE = fileUri('triggers/api/Errors.trigger.json');
const SLOW_FILE = fileUri('triggers/api/Slow.trigger.json');
const NEW_FILE = fileUri('triggers/api/Latency.trigger.json');
const NEW_TEXT = `${JSON.stringify({ dataset_slug: 'api', name: 'Latency', threshold: { op: '>', value: 1 }, frequency: 300, query: { calculations: [{ op: 'COUNT' }], time_range: 600 } }, null, 2)}\n`;

let services: Record<string, RecordingService>;
/** The connections connectionFor was asked for, and those onWritten was told of. */
let handedOut: string[];
let written: string[];
let picks: { items: { label: string; description?: string; detail?: string; id: string }[]; title?: string }[];
/** Which item the user picks (undefined: Escape), and whether the plan in the view is applied or cancelled. */
let choose: (items: readonly { id: string }[]) => { id: string } | undefined;
let confirm: boolean;
/** What happens while the plan is shown (a file saved, the service changed). */
let whileAsking: () => void;
/** The plan view of the last apply. */
let view: FakePlanView;
/** Every warning shown, in order. */
let warnings: { message: string; detail?: string }[];
/** The lock shared with the agents' apply. */
let locks: ApplyLocks;

const originalWarning = vscode.window.showWarningMessage;

beforeEach(() => {
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  fake.files.set(ERRORS_FILE.toString(), triggerFileText(trigger('stg-1', 'Errors', 5)));
  fake.files.set(SLOW_FILE.toString(), triggerFileText(trigger('stg-2', 'Slow', 7)));
  fake.files.set(NEW_FILE.toString(), NEW_TEXT);
  services = {
    stg: new RecordingService('stg', [trigger('stg-1', 'Errors', 5), trigger('stg-2', 'Slow', 7)]),
    // Production has its own ids; one of them is the id staging gave "Slow", on a trigger of another name.
    prd: new RecordingService('prd', [trigger('prd-7', 'Errors', 9), trigger('stg-2', 'Checkout failures', 2)]),
    dev: new RecordingService('dev', []),
  };
  handedOut = [];
  written = [];
  logged = [];
  picks = [];
  choose = () => undefined;
  confirm = true;
  whileAsking = () => undefined;
  warnings = [];
  locks = new ApplyLocks();
  view = new FakePlanView();
  view.onReview = (model, v) => {
    whileAsking();
    if (confirm) v.apply(model);
    else v.send({ type: 'cancel', review: model.review });
  };
  Object.assign(vscode.window, {
    showQuickPick: (items: readonly { label: string; id: string }[], options?: { title?: string }) => {
      picks.push({
        items: structuredClone([...items]) as (typeof picks)[number]['items'],
        ...(options?.title === undefined ? {} : { title: options.title }),
      });
      return Promise.resolve(choose(items));
    },
    showWarningMessage: (message: string, ...rest: unknown[]) => {
      void originalWarning(message, ...rest);
      warnings.push({ message });
      return Promise.resolve(undefined);
    },
  });
});

function commands(): ApplyCommands {
  const byId = new Map([STAGING, PROD, DEV].map((p) => [p.id, p]));
  const connectionFor = (id: string): Promise<ActiveConnection> => {
    handedOut.push(id);
    const p = byId.get(id);
    const client = services[id];
    if (p === undefined || client === undefined) return Promise.reject(new Error(`no connection ${id}`));
    return Promise.resolve({ profile: p, client } as unknown as ActiveConnection);
  };
  const connections = {
    list: () => [PROD, STAGING, DEV],
    activeProfile: () => STAGING,
    connectionFor,
    requireActive: () => connectionFor(STAGING.id),
  };
  const settings = new Settings({
    get: () => undefined,
    inspect: () => undefined,
    update: () => Promise.resolve(),
    onDidChange: () => ({ dispose: () => undefined }),
  });
  return new ApplyCommands({
    connections,
    settings,
    feedback: new Feedback(log, () => undefined),
    lint: () => Promise.resolve([]),
    onWritten: (id) => written.push(id),
    locks,
    view,
    compare: () => Promise.reject(new Error('no Compare in these tests')),
    openServiceTrigger: () => Promise.reject(new Error('no service trigger opened in these tests')),
  });
}

async function applyTo(id: string | undefined): Promise<void> {
  choose = (items) => items.find((i) => i.id === id);
  const apply = commands();
  try {
    await apply.run('workspaceToConnection', []);
  } finally {
    apply.dispose();
  }
}

/** The plan first shown in the view. */
function planShown(): PlanViewModel {
  const first = view.models[0];
  assert.ok(first !== undefined, 'a plan was shown');
  return first;
}

/** The plans shown for review: what the view offered to apply, and the name it asks for on a production-like one. */
const reviews = (): { title: string; apply?: string; typeName?: string }[] =>
  view.models
    .filter((m) => m.phase === 'review')
    .map((m) => ({
      title: m.title,
      ...(m.confirm === undefined ? {} : { apply: m.confirm.label }),
      ...(m.confirm?.typeName === undefined ? {} : { typeName: m.confirm.typeName }),
    }));

test('the pick lists every saved connection, the active one marked, those that look like production last with a warning', async () => {
  await applyTo(undefined);
  assert.deepEqual(picks, [
    {
      title: 'Apply Trigger Files to Connection',
      items: [
        { label: 'staging', description: 'https://stg.example.invalid (active)', id: 'stg' },
        { label: 'dev', description: 'https://dev.example.invalid', id: 'dev' },
        {
          label: 'prod-eu',
          description: 'https://prd.example.invalid',
          detail: '$(warning) Looks like production',
          id: 'prd',
        },
      ],
    },
  ]);
});

test('a cancelled pick reads no file and no service and writes nothing', async () => {
  await applyTo(undefined);
  assert.equal(fake.reads, 0);
  assert.deepEqual(handedOut, []);
  assert.deepEqual([services.stg?.calls, services.prd?.calls, services.dev?.calls], [[], [], []]);
  assert.deepEqual([view.models, written, fake.shownDocuments], [[], [], []]);
});

test("the plan is made from the picked connection's lists, and the view names it and asks for its name, as it looks like production", async () => {
  confirm = false;
  await applyTo('prd');
  assert.deepEqual(handedOut, ['prd']);
  assert.deepEqual(services.stg?.calls, [], "the active connection's lists are not read");
  assert.deepEqual(services.prd?.calls, ['list api', 'columns api', 'recipients']);
  assert.deepEqual(reviews(), [
    {
      title: 'Plan: apply the trigger files to prod-eu (https://prd.example.invalid)',
      apply: 'Apply 3 changes to prod-eu',
      typeName: 'prod-eu',
    },
  ]);
  assert.deepEqual(
    [view.last.phase, view.last.status.text],
    ['not-applied', 'Cancelled: nothing was written to prod-eu.'],
  );
  assert.deepEqual(written, [], 'not confirmed: nothing written, no list read again');
});

test('Apply on a production-like connection without its name typed writes nothing, and the view still asks', async () => {
  let shown: (m: PlanViewModel) => void = () => undefined;
  const reviewed = new Promise<PlanViewModel>((resolve) => (shown = resolve));
  view.onReview = (model, v) => {
    v.apply(model, 'prod');
    shown(model);
  };
  const apply = commands();
  choose = (items) => items.find((i) => i.id === 'prd');
  const running = apply.run('workspaceToConnection', []);
  const model = await reviewed;
  await jobsDone();
  assert.deepEqual([view.last.phase, view.last.confirm?.typeName], ['review', 'prod-eu']);
  assert.deepEqual(
    logged.filter((l) => l.startsWith('apply to') || l.startsWith('apply: not')),
    [],
  );
  view.apply(model, 'prod-eu');
  await running;
  assert.deepEqual(writesTo('prd'), ['create Slow as prd-new-1', 'create Latency as prd-new-2', 'replace prd-7']);
  apply.dispose();
});

test('confirmed, the writes go to the picked connection alone, and its lists are read again', async () => {
  await applyTo('prd');
  assert.deepEqual(services.stg?.calls, []);
  assert.deepEqual(services.dev?.calls, []);
  const writes = (services.prd?.calls ?? []).filter((c) => /^(create|replace|delete) /.test(c));
  assert.deepEqual(writes, ['create Slow as prd-new-1', 'create Latency as prd-new-2', 'replace prd-7']);
  assert.deepEqual(written, ['prd']);
});

test("on another connection the files' staging ids are not used: each trigger is matched by dataset and name, never by an id there", async () => {
  await applyTo('prd');
  const prd = services.prd?.triggers ?? [];
  // prod-eu's "Errors" (prd-7) took the file's threshold; its trigger that happens to have the id staging gave "Slow" is untouched.
  assert.deepEqual(
    prd.map((t) => [t.id, t.name, (t.threshold as { value: number }).value]),
    [
      ['prd-7', 'Errors', 5],
      ['stg-2', 'Checkout failures', 2],
      ['prd-new-1', 'Slow', 7],
      ['prd-new-2', 'Latency', 1],
    ],
  );
  const plan = planShown();
  assert.deepEqual(plan.notes, [
    "prod-eu is not the active connection: the files' ids are not its own, so each trigger is matched by dataset and name, and a created trigger's id is not written into its file.",
  ]);
  assert.deepEqual(
    plan.groups.flatMap((g) => g.changes.flatMap((c) => c.notes)),
    [],
  );
});

test("a trigger created on another connection leaves its file as it was: the file's id stays the active connection's, and the result says so", async () => {
  const before = new Map([...fake.files]);
  await applyTo('prd');
  assert.deepEqual([...fake.files], [...before], 'no file written');
  assert.deepEqual(
    logged.filter((l) => l.startsWith('apply to prod-eu: applied create')),
    [
      'apply to prod-eu: applied create api "Slow"; its id "prd-new-1" was not written into triggers/api/Slow.trigger.json: the file\'s ids are the active connection\'s, and on this one it is found by its dataset and name',
      'apply to prod-eu: applied create api "Latency"; its id "prd-new-2" was not written into triggers/api/Latency.trigger.json: the file\'s ids are the active connection\'s, and on this one it is found by its dataset and name',
    ],
  );
});

test("applied to the active connection through the same pick, a created trigger's id goes into its file", async () => {
  await applyTo('stg');
  assert.deepEqual(
    services.stg?.calls.filter((c) => /^(create|replace|delete) /.test(c)),
    ['create Latency as stg-new-1'],
  );
  assert.equal((JSON.parse(fake.files.get(NEW_FILE.toString()) ?? '{}') as { id?: string }).id, 'stg-new-1');
  assert.deepEqual(handedOut, ['stg']);
  assert.deepEqual(services.prd?.calls, []);
});

const writesTo = (id: string) => (services[id]?.calls ?? []).filter((c) => /^(create|replace|delete) /.test(c));

/** The user leaves the change whose label matches out of this apply, then applies. */
function leaveOut(label: RegExp): void {
  view.onReview = (model, v) => {
    whileAsking();
    const key = model.groups.flatMap((g) => g.changes).find((c) => label.test(c.label))?.key;
    assert.ok(key !== undefined, `a change ${String(label)} is shown`);
    v.send({ type: 'exclude', review: model.review, key, excluded: true });
    v.apply(v.last);
  };
}

test('a change left out in the view is not written; the others are, and the view says so of each', async () => {
  leaveOut(/"Latency"/);
  await applyTo('prd');
  assert.deepEqual(writesTo('prd'), ['create Slow as prd-new-1', 'replace prd-7']);
  assert.equal(view.last.phase, 'applied');
  assert.deepEqual(
    view.last.groups.flatMap((g) => g.changes.map((c) => [c.label, c.result?.outcome])),
    [
      ['api "Slow"', 'applied'],
      ['api "Latency"', 'excluded'],
      ['api "Errors" (prd-7)', 'applied'],
    ],
  );
});

test('a change left out that changed on the service meanwhile does not stop the others; a change kept that changed does', async () => {
  const changeErrors = () => {
    const prd = services.prd;
    if (prd !== undefined) prd.triggers.splice(0, 1, trigger('prd-7', 'Errors', 11));
  };
  whileAsking = changeErrors;
  leaveOut(/"Errors"/);
  await applyTo('prd');
  assert.deepEqual(writesTo('prd'), ['create Slow as prd-new-1', 'create Latency as prd-new-2']);

  services.prd = new RecordingService('prd', [trigger('prd-7', 'Errors', 9), trigger('stg-2', 'Checkout failures', 2)]);
  leaveOut(/"Latency"/);
  await applyTo('prd');
  assert.deepEqual(writesTo('prd'), []);
  assert.deepEqual(view.last.differences, [
    'the update of "Errors" (prd-7) from triggers/api/Errors.trigger.json: threshold.value: 11 -> 5 (the plan showed 9 -> 5)',
  ]);
});

test('Plan Again plans the same files against the same connection, and the changes left out stay left out', async () => {
  let again: (m: PlanViewModel) => void = () => undefined;
  const planned = new Promise<PlanViewModel>((resolve) => (again = resolve));
  let first = true;
  view.onReview = (model, v) => {
    if (!first) return again(model);
    first = false;
    const key = model.groups.flatMap((g) => g.changes).find((c) => c.label === 'api "Latency"')?.key ?? '';
    v.send({ type: 'exclude', review: model.review, key, excluded: true });
    v.send({ type: 'cancel', review: model.review });
  };
  choose = (items) => items.find((i) => i.id === 'prd');
  const apply = commands();
  await apply.run('workspaceToConnection', []);
  assert.deepEqual([view.last.phase, view.last.canPlanAgain], ['not-applied', true]);
  view.send({ type: 'planAgain', review: view.last.review });
  const model = await planned;
  apply.dispose();
  assert.equal(model.title, 'Plan: apply the trigger files to prod-eu (https://prd.example.invalid)');
  assert.deepEqual(
    model.groups.flatMap((g) => g.changes.map((c) => [c.label, c.excluded])),
    [
      ['api "Slow"', false],
      ['api "Latency"', true],
      ['api "Errors" (prd-7)', false],
    ],
  );
  assert.deepEqual(handedOut, ['prd', 'prd']);
  assert.deepEqual(writesTo('prd'), []);
});

test('a file saved with other values while the plan was shown: nothing is written, and the view names what changed', async () => {
  whileAsking = () => fake.files.set(ERRORS_FILE.toString(), triggerFileText(trigger('stg-1', 'Errors', 6)));
  await applyTo('stg');
  assert.deepEqual(writesTo('stg'), []);
  assert.deepEqual(
    [view.last.phase, view.last.status.text],
    [
      'not-applied',
      'Nothing was written to staging: the files or the service changed since the plan was shown. Plan again to see the new plan.',
    ],
  );
  assert.deepEqual(view.last.differences, [
    'the update of "Errors" (stg-1) from triggers/api/Errors.trigger.json would be made now, and is not in the plan',
  ]);
  assert.deepEqual(written, []);
});

test('the service changed while the plan was shown: nothing is written over it', async () => {
  whileAsking = () => {
    const stg = services.stg;
    if (stg !== undefined) stg.triggers.splice(0, 1, trigger('stg-1', 'Errors', 8));
  };
  await applyTo('stg');
  assert.deepEqual(writesTo('stg'), []);
  assert.deepEqual(view.last.differences, [
    'the update of "Errors" (stg-1) from triggers/api/Errors.trigger.json would be made now, and is not in the plan',
  ]);
});

test("while another apply to the same service runs (an agent's), the editor's Apply writes nothing and the view says who holds it", async () => {
  const held = locks.take('https://stg.example.invalid/', "an agent's apply");
  assert.ok(!('heldBy' in held));
  await applyTo('stg');
  assert.deepEqual(writesTo('stg'), []);
  assert.deepEqual(
    [view.last.phase, view.last.status.text],
    [
      'not-applied',
      "Nothing was written: an apply to staging is already running (an agent's apply). Plan again when it is done.",
    ],
  );
  held.release();
});

test('a trigger file lying outside its workspace folder through a link is not planned nor read, and the user is told which', async () => {
  const top = realpathSync(mkdtempSync(join(tmpdir(), 'obs-apply-link-')));
  try {
    mkdirSync(join(top, 'workspace'));
    mkdirSync(join(top, 'elsewhere'));
    symlinkSync(join(top, 'elsewhere'), join(top, 'workspace', 'escape'));
    fake.folders = [{ uri: Uri.file(join(top, 'workspace')), name: 'workspace', index: 0 }];
    fake.files.clear();
    fake.files.set(
      Uri.file(join(top, 'workspace', 'triggers', 'api', 'Errors.trigger.json')).toString(),
      triggerFileText(trigger('stg-1', 'Errors', 5)),
    );
    fake.files.set(Uri.file(join(top, 'workspace', 'escape', 'Latency.trigger.json')).toString(), NEW_TEXT);
    await applyTo('stg');
    assert.deepEqual(
      fake.shown.map((s) => [s.severity, s.text]),
      [
        [
          'warning',
          'Not planned, as they lie outside their workspace folder once links are resolved: escape/Latency.trigger.json.',
        ],
        ['info', 'Nothing to change on staging: the service matches the files.'],
      ],
    );
    assert.deepEqual([fake.reads, view.models], [1, []]);
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
});

test('a trigger file that is not UTF-8 is not planned: it is blocked with the reason, never created with replacement characters', async () => {
  fake.files.delete(NEW_FILE.toString());
  fake.bytes.set(NEW_FILE.toString(), Buffer.from(NEW_TEXT.replace('"Latency"', '"Caf\u00e9 latency"'), 'latin1'));
  confirm = false;
  await applyTo('stg');
  assert.deepEqual(planShown().blocked, [
    {
      kind: 'trigger',
      title: 'Blocked (never written)',
      entries: [
        { where: 'triggers/api/Latency.trigger.json', reasons: ['the file is not UTF-8: save it as UTF-8 to plan it'] },
      ],
    },
  ]);
  assert.deepEqual(writesTo('stg'), []);
});

test('a trigger file that is not a regular file (a FIFO) is never read: it is blocked with the reason and withholds deletes', async () => {
  fake.special.add(NEW_FILE.toString());
  confirm = false;
  await applyTo('stg');
  assert.deepEqual(planShown().blocked, [
    {
      kind: 'trigger',
      title: 'Blocked (never written)',
      entries: [
        {
          where: 'triggers/api/Latency.trigger.json',
          reasons: ['it is not a regular file (a FIFO, socket or device): only files are planned'],
        },
      ],
    },
  ]);
  assert.deepEqual(writesTo('stg'), []);
});
