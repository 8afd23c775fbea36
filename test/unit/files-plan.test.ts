// The plan: what applying trigger files would change. No phantom change right after a pull, exactly the
// edited member after one edit, creates and deletes only where they belong, and gates that block a write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  keyFingerprint,
  makePlan,
  normalize,
  planCounts,
  readTriggerFile,
  sameKey,
  ServiceIndex,
  sha256,
  triggerFileText,
  writeBody,
  type PlanFile,
  type PlanInput,
  type ServiceTrigger,
} from '../../src/triggerFiles';
import { asServiceLists, rewrites, writtenTrigger, type Json } from './service-rewrites';

const target = { baseUrl: 'https://api.example.com', key: keyFingerprint('cfg-key', 'salt-1') };
const now = new Date('2026-11-26T12:00:00Z');

const file = (name: string, value: unknown): PlanFile => {
  const text = typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`;
  return { file: name, text, read: readTriggerFile(text) };
};

function indexOf(lists: Record<string, ServiceTrigger[] | 'missing'>): ServiceIndex {
  const index = new ServiceIndex();
  for (const [dataset, triggers] of Object.entries(lists))
    index.add(dataset, triggers === 'missing' ? { state: 'missing' } : { state: 'listed', triggers });
  return index;
}

const plan = (files: PlanFile[], lists: Record<string, ServiceTrigger[] | 'missing'>, extra: Partial<PlanInput> = {}) =>
  makePlan({
    files,
    index: indexOf(lists),
    target,
    inputs: { scope: { kind: 'files' }, allowUnknownColumns: false, matchByName: false },
    now,
    ...extra,
  });

const service = (over: Json = {}): ServiceTrigger => ({
  id: 't-1',
  dataset_slug: 'api',
  name: 'High latency',
  threshold: { op: '>', value: 500, exceeded_limit: 1 },
  frequency: 300,
  alert_type: 'on_change',
  disabled: false,
  recipients: [{ id: 'rcp_a', type: 'email', target: 'a@example.com' }],
  query: { calculations: [{ op: 'P99', column: 'duration_ms' }], time_range: 600 },
  query_id: 'q-1',
  triggered: false,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-20T00:00:00Z',
  ...over,
});

const pulled = (t: ServiceTrigger) => JSON.parse(triggerFileText(t)) as Json;

test('a file right after a pull plans nothing', () => {
  const p = plan([file('api/high.trigger.json', pulled(service()))], { api: [service()] });
  assert.deepEqual(planCounts(p), { create: 0, update: 0, delete: 0, blocked: 0, unchanged: 1 });
});

test('property: a pulled trigger plans nothing, whatever the service rewrote', () => {
  fc.assert(
    fc.property(writtenTrigger, rewrites, (written, r) => {
      const listed = asServiceLists(written, r) as ServiceTrigger;
      const p = plan([file('x.trigger.json', pulled(listed))], { [String(listed.dataset_slug)]: [listed] });
      assert.deepEqual(p.changes, []);
      assert.deepEqual(p.blocked, []);
    }),
    { numRuns: 300 },
  );
});

const EDITS: Record<string, (t: Json) => void> = {
  'threshold.value': (t) => ((t.threshold as Json).value = 750),
  frequency: (t) => (t.frequency = 600),
  name: (t) => (t.name = 'Renamed'),
  description: (t) => (t.description = 'now with words'),
  alert_type: (t) => (t.alert_type = 'on_true'),
  disabled: (t) => (t.disabled = true),
  'query.time_range': (t) => ((t.query as Json).time_range = 1200),
};

test('property: one edit of a pulled file plans one update naming exactly that member, old and new', () => {
  fc.assert(
    fc.property(fc.constantFrom(...Object.keys(EDITS)), (path) => {
      const local = pulled(service());
      EDITS[path]?.(local);
      const p = plan([file('api/high.trigger.json', local)], { api: [service()] });
      assert.equal(p.changes.length, 1);
      const change = p.changes[0];
      assert.ok(change?.action === 'update');
      assert.deepEqual(
        change.differences.map((d) => d.path),
        [path],
      );
      assert.equal(change.matchedBy, 'id');
      assert.deepEqual(change.service, {
        updatedAt: '2026-11-20T00:00:00Z',
        sha256: sha256(JSON.stringify(normalize(service()))),
      });
    }),
  );
});

test('an update sends the whole writable trigger: no read-only member, recipients by id, disabled given', () => {
  const local = pulled(service());
  (local.threshold as Json).value = 900;
  const p = plan([file('api/high.trigger.json', local)], { api: [service()] });
  const change = p.changes[0];
  assert.ok(change?.action === 'update');
  assert.deepEqual(change.body, {
    name: 'High latency',
    threshold: { op: '>', value: 900 },
    frequency: 300,
    recipients: [{ id: 'rcp_a' }],
    query: { calculations: [{ op: 'P99', column: 'duration_ms' }], time_range: 600 },
    disabled: false,
  });
});

test('an update clears a baseline the file no longer has and keeps members the file format does not hold', () => {
  const onService = service({ baseline_details: { type: 'percentage', offset_minutes: 60 }, auto_investigate: true });
  const local = pulled(service());
  const body = writeBody(local, onService);
  assert.deepEqual(body.baseline_details, {});
  assert.equal(body.auto_investigate, true);
});

test('a file with no id and no trigger of its name on the service plans a create', () => {
  const { id: _id, ...fresh } = pulled(service());
  const p = plan([file('api/new.trigger.json', { ...fresh, name: 'New one' })], { api: [service()] });
  assert.deepEqual(
    p.changes.map((c) => [c.action, 'name' in c ? c.name : '']),
    [['create', 'New one']],
  );
  const change = p.changes[0];
  assert.ok(change?.action === 'create');
  assert.equal(change.body.id, undefined);
  assert.equal(change.body.dataset_slug, undefined);
  assert.equal(change.body.disabled, false);
});

test('a file whose id the service does not have is blocked, never created again', () => {
  const p = plan([file('api/gone.trigger.json', pulled(service({ id: 't-gone' })))], { api: [service()] });
  assert.deepEqual(p.changes, []);
  assert.equal(p.blocked.length, 1);
  assert.match(
    p.blocked[0]?.reasons[0] ?? '',
    /no trigger with id t-gone .*remove the id from the file to create it anew/,
  );
});

test('a trigger of a dataset the service does not have is blocked with that reason', () => {
  const { id: _id, ...fresh } = pulled(service({ dataset_slug: 'checkout' }));
  const p = plan([file('checkout/x.trigger.json', fresh)], { checkout: 'missing' });
  assert.deepEqual(
    p.blocked.map((b) => b.reasons),
    [['the service has no dataset checkout']],
  );
});

test('a trigger the caller blocks (lint errors, unknown columns) is never planned as a write', () => {
  const local = pulled(service());
  (local.threshold as Json).value = 1;
  const p = plan(
    [file('api/high.trigger.json', local)],
    { api: [service()] },
    { blockedBy: (f, i) => (f === 'api/high.trigger.json' && i === -1 ? ['1 lint error: trigger/frequency'] : []) },
  );
  assert.deepEqual(p.changes, []);
  assert.deepEqual(
    p.blocked.map((b) => b.reasons),
    [['1 lint error: trigger/frequency']],
  );
});

test('a recipient id the team does not have blocks the trigger, named', () => {
  const local = pulled(service());
  local.recipients = [{ id: 'rcp_a' }, { id: 'rcp_typo' }];
  const p = plan([file('api/high.trigger.json', local)], { api: [service()] }, { recipients: new Set(['rcp_a']) });
  assert.deepEqual(
    p.blocked.map((b) => b.reasons),
    [['recipient "rcp_typo" is not one of the team\'s recipients']],
  );
});

test("a recipient id the service trigger already holds never blocks an edit, though the team's list leaves it out (a marker)", () => {
  const held = service({
    recipients: [
      { id: 'rcp_a', type: 'email', target: 'a@example.com' },
      { id: 'rcp_marker', type: 'marker', target: 'deploys' },
    ],
  });
  const local = pulled(held);
  (local.threshold as Json).value = 1;
  const p = plan([file('api/high.trigger.json', local)], { api: [held] }, { recipients: new Set(['rcp_a']) });
  assert.deepEqual([planCounts(p), p.blocked], [{ create: 0, update: 1, delete: 0, blocked: 0, unchanged: 0 }, []]);
});

test('a trigger in sync is not blocked by its lint problems: nothing would be written', () => {
  const p = plan(
    [file('api/high.trigger.json', pulled(service()))],
    { api: [service()] },
    { blockedBy: () => ['an error'] },
  );
  assert.deepEqual(planCounts(p), { create: 0, update: 0, delete: 0, blocked: 0, unchanged: 1 });
});

test('deletes only with prune, only in the datasets the files cover', () => {
  const lists = {
    api: [service(), service({ id: 't-2', name: 'Orphan' })],
    other: [service({ id: 't-3', dataset_slug: 'other', name: 'Elsewhere' })],
  };
  const files = [file('api/high.trigger.json', pulled(service()))];
  assert.deepEqual(plan(files, lists).changes, []);
  const pruned = plan(files, lists, {
    inputs: { scope: { kind: 'all' }, allowUnknownColumns: false, matchByName: false },
  });
  assert.deepEqual(
    pruned.changes.map((c) => [c.action, c.dataset, 'id' in c ? c.id : '']),
    [['delete', 'api', 't-2']],
  );
});

test('a file that cannot be read withholds every delete and says so', () => {
  const lists = { api: [service(), service({ id: 't-2', name: 'Orphan' })] };
  const p = plan(
    [file('api/high.trigger.json', pulled(service())), file('api/broken.trigger.json', '{ "name": ')],
    lists,
    { inputs: { scope: { kind: 'all' }, allowUnknownColumns: false, matchByName: false } },
  );
  assert.deepEqual(p.changes, []);
  assert.equal(p.blocked.length, 2);
  assert.match(
    p.blocked[1]?.reasons[0] ?? '',
    /^not deleted: "Orphan" \(api\/broken\.trigger\.json could not be planned and may hold them\)$/,
  );
});

test('the plan records each file by the hash of its bytes, and the key only as a salted hash', () => {
  const f = file('api/high.trigger.json', pulled(service()));
  const p = plan([f], { api: [service()] });
  assert.deepEqual(p.files, [{ file: 'api/high.trigger.json', sha256: sha256(f.text) }]);
  assert.ok(!JSON.stringify(p).includes('cfg-key'));
  assert.equal(sameKey(p.target.key, 'cfg-key'), true);
  assert.equal(sameKey(p.target.key, 'another-key'), false);
});

test('a service trigger nested too deep to compare is not deleted, and the plan says why', () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 5_000; i++) deep = [deep];
  const lists = {
    api: [
      service(),
      service({
        id: 't-2',
        name: 'Deep',
        query: { calculations: [{ op: 'COUNT' }], filters: [{ column: 'a', op: 'in', value: deep }], time_range: 600 },
      }),
    ],
  };
  const p = plan([file('api/high.trigger.json', pulled(service()))], lists, {
    inputs: { scope: { kind: 'all' }, allowUnknownColumns: false, matchByName: false },
  });
  assert.deepEqual(p.changes, []);
  assert.match(
    p.blocked[0]?.reasons[0] ?? '',
    /^not deleted: "Deep" \(t-2\) is nested more than 64 levels deep \(in query\)/,
  );
});
