// The plan view's model and its messages, word for word: the changes grouped by kind and action with their
// members old -> new, what is blocked; leaving a change out of this apply (the session), the Apply the page may
// send and the one it may not (another review, other exclusions, a production-like name not typed); each
// outcome in the user's words, never the HTTP line; and the message protocol both ways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  changeKey,
  planDifferences,
  withoutChanges,
  type ChangeResult,
  type Plan,
  type PlannedChange,
} from '../../src/triggerFiles';
import { RecipientDirectory } from '../../src/extension/core/recipients';
import { outcomeOf, planViewModel, type ReviewedPlan } from '../../src/extension/sync/planViewModel';
import { PlanSession } from '../../src/extension/sync/planSession';
import { burnAlertUpdate, definitionsUpdate } from './plan-kind-changes';
import { parsePlanMessage, PlanToWebview, type PlanFromWebview } from '../../src/webview/protocol/planView';

const version = { updatedAt: '2026-11-20T00:00:00Z', sha256: 'abc' };
const create: PlannedChange = {
  kind: 'trigger',
  action: 'create',
  file: 'triggers/api/New-trigger.trigger.json',
  index: -1,
  dataset: 'api',
  name: 'New trigger',
  body: { name: 'New trigger', frequency: 300, recipients: [{ id: 'rcp_1' }] },
};
const update: PlannedChange = {
  kind: 'trigger',
  action: 'update',
  file: 'triggers/api/High-latency.trigger.json',
  index: -1,
  dataset: 'api',
  name: 'High latency',
  id: 't-1',
  matchedBy: 'id',
  differences: [
    { path: 'threshold.value', member: 'threshold', service: 500, local: 750 },
    { path: 'description', member: 'description', service: 'old', local: undefined },
  ],
  body: {},
  service: version,
};
const second: PlannedChange = {
  ...update,
  file: 'triggers/api/Errors.trigger.json',
  name: 'Errors',
  id: 't-2',
  differences: [{ path: 'frequency', member: 'frequency', service: 300, local: 600 }],
};
const remove: PlannedChange = {
  kind: 'trigger',
  action: 'delete',
  dataset: 'api',
  id: 't-9',
  name: 'Old trigger',
  service: version,
};

const plan = (changes: PlannedChange[], over: Partial<Plan> = {}): Plan => ({
  format: 'obs-trigger-plan',
  version: 3,
  createdAt: '2026-11-26T12:00:00.000Z',
  target: { baseUrl: 'http://127.0.0.1:4321', connection: 'Sandbox', key: { salt: '', sha256: '' } },
  inputs: { scope: { kind: 'files' }, allowUnknownColumns: false, matchByName: false },
  prune: false,
  files: [
    { file: 'triggers/api/New-trigger.trigger.json', sha256: 'x' },
    { file: 'triggers/api/High-latency.trigger.json', sha256: 'y' },
  ],
  changes,
  blocked: [],
  unchanged: 4,
  ...over,
});

const reviewed = (p: Plan, over: Partial<ReviewedPlan> = {}): ReviewedPlan => ({
  plan: p,
  notes: [],
  idsIgnored: false,
  production: false,
  ...over,
});
const state = { review: 1, phase: 'review' as const, excluded: new Set<string>(), canPlanAgain: false };

test('the changes are grouped by kind and action in the order create, update, delete, each with its members old -> new', () => {
  const recipients = new RecipientDirectory([
    { id: 'rcp_1', type: 'email', details: { email_address: 'ops@example.com' } },
  ]);
  const blocked = [
    {
      kind: 'trigger' as const,
      file: 'triggers/api/Broken.trigger.json',
      index: -1,
      name: 'Broken',
      dataset: 'api',
      reasons: ['frequency must be between 60 and 86400'],
    },
  ];
  const m = planViewModel(reviewed(plan([remove, update, create], { blocked }), { recipients }), state);
  assert.deepEqual(
    m.groups.map((g) => [g.kind, g.action, g.title, g.changes.map((c) => c.label)]),
    [
      ['trigger', 'create', '1 trigger to create', ['api "New trigger"']],
      ['trigger', 'update', "1 trigger to update (Sandbox's value -> the file's value)", ['api "High latency" (t-1)']],
      ['trigger', 'delete', '1 trigger to delete from Sandbox (no trigger file holds it)', ['api "Old trigger" (t-9)']],
    ],
  );
  const [created, updated, deleted] = m.groups.map((g) => g.changes[0]);
  assert.deepEqual(created?.members, [
    { path: 'name', after: '"New trigger"' },
    { path: 'frequency', after: '300' },
    { path: 'recipients', after: 'rcp_1 (ops@example.com (email))' },
  ]);
  assert.deepEqual(updated?.members, [
    { path: 'threshold.value', before: '500', after: '750' },
    { path: 'description', before: '"old"', after: '(none)' },
  ]);
  assert.deepEqual(
    [created?.file, updated?.file, deleted?.file, deleted?.members],
    ['triggers/api/New-trigger.trigger.json', 'triggers/api/High-latency.trigger.json', undefined, []],
  );
  assert.deepEqual(m.blocked, [
    {
      kind: 'trigger',
      title: 'Blocked (never written)',
      entries: [
        { where: 'triggers/api/Broken.trigger.json "Broken"', reasons: ['frequency must be between 60 and 86400'] },
      ],
    },
  ]);
  assert.deepEqual(
    [m.title, m.counts, m.status],
    [
      'Plan: apply the trigger files to Sandbox (http://127.0.0.1:4321)',
      '2 files read: 1 to create, 1 to update, 1 to delete, 4 unchanged, 1 blocked',
      { text: 'Nothing is written until you confirm.', tone: 'info' },
    ],
  );
  assert.deepEqual(m.confirm, { label: 'Apply 3 changes to Sandbox', count: 3 });
});

const burnAlert = burnAlertUpdate('id');
const definitions = definitionsUpdate;

test('burn alerts and definitions follow the triggers, each kind with its updates and then what is blocked of it', () => {
  const blocked = [
    { kind: 'definitions' as const, file: 'definitions/web.definitions.json', index: -1, reasons: ['no dataset web'] },
    { kind: 'burn-alert' as const, file: 'burn-alerts/api/Gone.burn-alert.json', index: -1, reasons: ['no alert'] },
    { kind: 'trigger' as const, file: 'triggers/api/Broken.trigger.json', index: -1, reasons: ['bad frequency'] },
  ];
  const m = planViewModel(reviewed(plan([definitions, burnAlert, update], { blocked })), state);
  assert.deepEqual(
    m.groups.map((g) => [g.kind, g.action, g.title, g.changes.map((c) => [c.kind, c.label, c.canCompare])]),
    [
      [
        'trigger',
        'update',
        "1 trigger to update (Sandbox's value -> the file's value)",
        [['trigger', 'api "High latency" (t-1)', true]],
      ],
      [
        'burn-alert',
        'update',
        "1 burn alert to update (Sandbox's value -> the file's value)",
        [['burn-alert', 'api "Availability, exhaustion in 240 min" (ba_1)', false]],
      ],
      [
        'definitions',
        'update',
        "1 dataset's definitions to update (Sandbox's value -> the file's value)",
        [['definitions', 'definitions of api', false]],
      ],
    ],
  );
  assert.deepEqual(
    m.blocked.map((b) => [b.kind, b.title, b.entries.map((e) => e.where)]),
    [
      ['trigger', 'Blocked (never written)', ['triggers/api/Broken.trigger.json']],
      ['burn-alert', 'Blocked burn alerts (never written)', ['burn-alerts/api/Gone.burn-alert.json']],
      ['definitions', 'Blocked definitions (never written)', ['definitions/web.definitions.json']],
    ],
  );
  assert.deepEqual(m.groups[1]?.changes[0]?.members, [{ path: 'exhaustion_minutes', before: '240', after: '120' }]);
});

test('Compare is offered for an update, the file for a create or update, and nothing of the service on another connection', () => {
  const here = planViewModel(reviewed(plan([create, update, remove])), state).groups.map((g) => g.changes[0]);
  assert.deepEqual(
    here.map((c) => [c?.action, c?.canOpen, c?.canCompare]),
    [
      ['create', true, false],
      ['update', true, true],
      ['delete', true, false],
    ],
  );
  const elsewhere = planViewModel(reviewed(plan([create, update, remove]), { idsIgnored: true }), state).groups.map(
    (g) => g.changes[0],
  );
  assert.deepEqual(
    elsewhere.map((c) => [c?.action, c?.canOpen, c?.canCompare]),
    [
      ['create', true, false],
      ['update', true, false],
      ['delete', false, false],
    ],
  );
});

test('a change left out is marked in the view, and Apply counts only the changes kept', () => {
  const session = new PlanSession(7, reviewed(plan([update, second])));
  assert.deepEqual(session.receive({ type: 'exclude', review: 7, key: changeKey(update), excluded: true }), {
    kind: 'redraw',
  });
  const m = session.model();
  assert.deepEqual(
    m.groups[0]?.changes.map((c) => [c.label, c.excluded]),
    [
      ['api "High latency" (t-1)', true],
      ['api "Errors" (t-2)', false],
    ],
  );
  assert.deepEqual(m.confirm, { label: 'Apply 1 change to Sandbox', count: 1 });
  session.receive({ type: 'exclude', review: 7, key: changeKey(update), excluded: false });
  assert.deepEqual(session.model().confirm, { label: 'Apply 2 changes to Sandbox', count: 2 });
});

test('Apply with the exclusions the view showed decides to apply the plan less those changes', async () => {
  const session = new PlanSession(7, reviewed(plan([update, second])));
  session.receive({ type: 'exclude', review: 7, key: changeKey(second), excluded: true });
  assert.deepEqual(session.receive({ type: 'apply', review: 7, excluded: [changeKey(second)], typed: '' }), {
    kind: 'none',
  });
  const decision = await session.decision;
  assert.equal(decision.kind, 'apply');
  assert.deepEqual(decision.kind === 'apply' ? [...decision.excluded] : [], [changeKey(second)]);
});

test('an Apply the page may not send is refused and decides nothing: another review, other exclusions, every change left out, after the decision', async () => {
  const session = new PlanSession(7, reviewed(plan([update])));
  assert.equal(session.receive({ type: 'apply', review: 6, excluded: [], typed: '' }).kind, 'refused');
  assert.equal(session.receive({ type: 'apply', review: 7, excluded: [changeKey(update)], typed: '' }).kind, 'refused');
  assert.equal(
    session.receive({ type: 'exclude', review: 7, key: 'create\u0000nowhere\u0000-1', excluded: true }).kind,
    'refused',
  );
  session.receive({ type: 'exclude', review: 7, key: changeKey(update), excluded: true });
  assert.deepEqual(session.model().confirm, { label: 'Apply 0 changes to Sandbox', count: 0 });
  assert.equal(session.receive({ type: 'apply', review: 7, excluded: [changeKey(update)], typed: '' }).kind, 'refused');
  assert.equal(session.open, true, 'still waiting for the decision');
  session.receive({ type: 'cancel', review: 7 });
  assert.deepEqual(await session.decision, { kind: 'cancel' });
  assert.equal(session.receive({ type: 'apply', review: 7, excluded: [changeKey(update)], typed: '' }).kind, 'refused');
});

test('a production-like connection asks for its name: Apply is taken only with the name typed exactly', async () => {
  const prod = plan([update], {
    target: { baseUrl: 'https://api.example.com', connection: 'prod-eu', key: { salt: '', sha256: '' } },
  });
  const session = new PlanSession(1, reviewed(prod, { production: true }));
  assert.deepEqual(session.model().confirm, { label: 'Apply 1 change to prod-eu', count: 1, typeName: 'prod-eu' });
  for (const typed of ['', 'prod', 'PROD-EU', ' prod-eu'])
    assert.equal(session.receive({ type: 'apply', review: 1, excluded: [], typed }).kind, 'refused', typed);
  assert.equal(session.open, true);
  assert.equal(session.receive({ type: 'apply', review: 1, excluded: [], typed: 'prod-eu' }).kind, 'none');
  assert.equal((await session.decision).kind, 'apply');
});

test('once applied, the view shows each outcome and the counts, and no longer says nothing is written until you confirm', () => {
  const session = new PlanSession(1, reviewed(plan([create, update, second])));
  session.receive({ type: 'exclude', review: 1, key: changeKey(second), excluded: true });
  session.receive({ type: 'apply', review: 1, excluded: [changeKey(second)], typed: '' });
  const results: ChangeResult[] = [
    {
      change: create,
      outcome: 'applied',
      id: 't-new',
      storedDifferently: [],
      note: 'id written into triggers/api/New-trigger.trigger.json',
    },
    {
      change: update,
      outcome: 'applied',
      id: 't-1',
      storedDifferently: [{ path: 'frequency', member: 'frequency', service: 900, local: 600 }],
    },
  ];
  session.applied(results);
  const m = session.model();
  assert.deepEqual(
    [m.phase, m.title, m.status, m.confirm, m.canPlanAgain],
    [
      'applied',
      'Applied: the trigger files to Sandbox (http://127.0.0.1:4321)',
      {
        text: 'Applied to Sandbox: 2 applied (1 stored differently), 0 skipped, 0 refused, 0 failed.',
        tone: 'warning',
      },
      undefined,
      true,
    ],
  );
  assert.doesNotMatch(JSON.stringify(m), /Nothing is written until you confirm/);
  assert.deepEqual(
    m.groups.flatMap((g) => g.changes.map((c) => [c.label, c.result])),
    [
      [
        'api "New trigger"',
        {
          outcome: 'applied',
          headline: 'Created as t-new',
          details: ['id written into triggers/api/New-trigger.trigger.json'],
        },
      ],
      [
        'api "High latency" (t-1)',
        {
          outcome: 'applied',
          headline: 'Updated',
          details: ['frequency stored differently (sent -> stored): 600 -> 900'],
        },
      ],
      [
        'api "Errors" (t-2)',
        { outcome: 'excluded', headline: 'Not written: you left it out of this apply', details: [] },
      ],
    ],
  );
});

test("what failed is said in the user's words, never as the HTTP line the client logged", () => {
  const http = 'replace trigger failed: HTTP 422 Unprocessable Entity: frequency must be a multiple of 60';
  const cases: [ChangeResult, string][] = [
    [
      {
        change: update,
        outcome: 'refused',
        reason: http,
        members: [{ field: 'frequency', message: 'must be a multiple of 60' }],
        cause: { kind: 'http', status: 422, said: 'frequency must be a multiple of 60' },
      },
      'Refused by the service: frequency must be a multiple of 60',
    ],
    [
      {
        change: update,
        outcome: 'refused',
        reason: 'replace trigger failed: HTTP 403 Forbidden',
        members: [],
        cause: { kind: 'http', status: 403 },
      },
      'Refused by the service: the configuration key may not write triggers',
    ],
    [
      {
        change: update,
        outcome: 'failed',
        reason: 'replace trigger failed: HTTP 503 Service Unavailable',
        cause: { kind: 'http', status: 503 },
      },
      'Not written: the service failed on its side',
    ],
    [
      {
        change: update,
        outcome: 'failed',
        reason: 'replace trigger failed: could not reach the service (ECONNREFUSED)',
        cause: { kind: 'network' },
      },
      'Not written: the service could not be reached',
    ],
    [
      {
        change: update,
        outcome: 'unknown',
        reason: 'replace trigger failed: HTTP 504 Gateway Timeout',
        cause: { kind: 'http', status: 504 },
      },
      'Maybe written: the answer was lost (the service failed on its side); plan again to see what the service holds',
    ],
    [
      {
        change: create,
        outcome: 'unverified',
        id: 't-9',
        reason: 'reading it back failed (read trigger failed: HTTP 503)',
        cause: { kind: 'timeout' },
      },
      'Written as t-9, but it could not be read back (the service did not answer in time): what the service stored is not known; plan again to compare',
    ],
    [
      {
        change: update,
        outcome: 'skipped',
        reason: '"High latency" (t-1) changed on the service since the plan; plan again to see the change',
      },
      'Not written: "High latency" (t-1) changed on the service since the plan; plan again to see the change',
    ],
  ];
  for (const [result, headline] of cases) {
    const o = outcomeOf(result);
    assert.equal(o.headline, headline);
    assert.doesNotMatch(JSON.stringify(o), /HTTP \d{3}/);
  }
  assert.deepEqual(outcomeOf(cases[0]?.[0] ?? assert.fail()).details, ['frequency: must be a multiple of 60']);
});

test('planned again, a change left out may differ and the rest is still written; a change kept that differs stops the apply', () => {
  const shown = plan([update, second]);
  const changedSecond: PlannedChange = {
    ...second,
    differences: [{ path: 'frequency', member: 'frequency', service: 300, local: 1200 }],
  };
  const now = plan([update, changedSecond]);
  const leftOut = new Set([changeKey(second)]);
  assert.deepEqual(planDifferences(withoutChanges(shown, leftOut), withoutChanges(now, leftOut)), []);
  assert.deepEqual(withoutChanges(now, leftOut).changes, [update], 'only the change kept is written');
  assert.deepEqual(
    planDifferences(
      withoutChanges(shown, new Set([changeKey(update)])),
      withoutChanges(now, new Set([changeKey(update)])),
    ),
    [
      'the update of "Errors" (t-2) from triggers/api/Errors.trigger.json: frequency: 300 -> 1200 (the plan showed 300 -> 600)',
    ],
  );
});

test('a change that appears only when planned again is never written, left out or not', () => {
  const shown = plan([update]);
  const now = plan([update, second]);
  assert.deepEqual(planDifferences(withoutChanges(shown, new Set()), withoutChanges(now, new Set())), [
    'the update of "Errors" (t-2) from triggers/api/Errors.trigger.json would be made now, and is not in the plan',
  ]);
});

test("every model the view is given passes the page's check, and the page's messages pass the host's; anything else is refused", () => {
  const session = new PlanSession(
    3,
    reviewed(
      plan([create, update, remove], { blocked: [{ kind: 'trigger', index: -1, dataset: 'api', reasons: ['r'] }] }),
      {
        notes: ['the recipients were not checked'],
      },
    ),
  );
  assert.equal(PlanToWebview.safeParse({ type: 'show', model: session.model() }).success, true);
  session.notApplied('Nothing was written.', ['a difference']);
  assert.equal(PlanToWebview.safeParse({ type: 'show', model: session.model() }).success, true);
  const good: PlanFromWebview[] = [
    { type: 'ready' },
    { type: 'exclude', review: 3, key: 'k', excluded: true },
    { type: 'apply', review: 3, excluded: ['k'], typed: '' },
    { type: 'cancel', review: 3 },
    { type: 'open', review: 3, key: 'k' },
    { type: 'compare', review: 3, key: 'k' },
    { type: 'planAgain', review: 3 },
  ];
  for (const m of good) assert.deepEqual(parsePlanMessage(m), { ok: true, message: m });
  const bad: unknown[] = [
    { type: 'apply', review: 3, excluded: [] },
    { type: 'apply', review: 3, excluded: [], typed: '', force: true },
    { type: 'exclude', review: -1, key: 'k', excluded: true },
    { type: 'exclude', review: 3, key: '', excluded: true },
    { type: 'write', review: 3 },
    'apply',
    null,
  ];
  for (const m of bad) assert.equal(parsePlanMessage(m).ok, false, JSON.stringify(m));
});
