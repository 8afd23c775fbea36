// The editor's drift model (src/extension/sync/driftModel.ts): every trigger file compared with the
// active connection's lists, cached per connection and dataset; a save compares one file; a refresh
// reads the lists again. Work is counted from outside the model: the list calls its fake service answered,
// the files its fake workspace read, and the calls V8 counted of the comparison of a file (driftOfFile) and
// of the listing of every file in order (FileOrder.list, when a snapshot's files are read after a change).
import { measuredAsync } from './outside-work'; // first: V8 counts calls only in code compiled after it
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  triggerFileText,
  type RecipientLister,
  type ServiceTrigger,
  type SloReads,
  type TriggerLister,
} from '../../src/triggerFiles';
import type { AccountRecipient } from '../../src/api/schemas/account';
import { serviceTrigger } from './serviceTriggers';
import { sloServiceFake } from './sloServiceFake';
import { DriftModel, type DriftConnection } from '../../src/extension/sync/driftModel';
import { ConnectionCache } from '../../src/extension/sync/driftListings';

const trigger = (id: string, name: string, dataset: string, value = 5): ServiceTrigger =>
  serviceTrigger(id, name, dataset, value);

/** A service with a list of triggers per dataset; counts the list calls per dataset. */
function service(
  lists: Record<string, ServiceTrigger[]>,
  fail: Set<string> = new Set(),
  team: AccountRecipient[] = [],
): TriggerLister & SloReads & RecipientLister & { calls: string[] } {
  const calls: string[] = [];
  return {
    ...sloServiceFake(),
    calls,
    listRecipients: () => {
      calls.push('recipients');
      return Promise.resolve({ data: team });
    },
    listTriggers(dataset: string) {
      calls.push(dataset);
      if (fail.has(dataset)) return Promise.reject(Object.assign(new Error('service unavailable'), { status: 503 }));
      const data = lists[dataset];
      if (data === undefined) return Promise.reject(Object.assign(new Error('not found'), { status: 404 }));
      return Promise.resolve({ data: structuredClone(data) });
    },
  };
}

/** The comparisons of a file with the service's triggers, in the script that holds them. */
const DRIFT = '/src/triggerFiles/drift.ts';
/** The snapshot's list of every file (FileOrder.list), made when a view reads it after a change. */
const SNAPSHOT = '/src/extension/sync/driftSnapshot.ts';

/** A model over a workspace holding `files` (uri → text) that lists the files it read. */
function setup(files: Record<string, string>, first: DriftConnection | undefined) {
  let active = first;
  const reads: string[] = [];
  const model = new DriftModel({
    workspace: {
      list: () => Promise.resolve(Object.keys(files).sort()),
      read: (uri) => {
        reads.push(uri);
        return Promise.resolve(files[uri]);
      },
    },
    connection: () => Promise.resolve(active),
    concurrency: () => 2,
  });
  return { model, files, reads, use: (c: DriftConnection | undefined) => (active = c) };
}

const ERRORS = trigger('t1', 'Errors', 'api');
const LATENCY = trigger('t2', 'Latency', 'api');
const API = [ERRORS, LATENCY];
const local = (t: ServiceTrigger, over: Record<string, unknown> = {}) => triggerFileText({ ...t, ...over });
/** A trigger file not created on the service yet: no id, a name its dataset does not have. */
const draft = (t: ServiceTrigger, name: string) => JSON.stringify({ ...t, id: undefined, name }, null, 2);

test('a refresh compares every trigger file with the lists of the datasets they name, each list read once', async () => {
  const api = service({ api: API });
  const { model } = setup(
    {
      'file:///w/api/errors.trigger.json': local(ERRORS),
      'file:///w/api/latency.trigger.json': local(LATENCY, { frequency: 600 }),
    },
    { id: 'c1', name: 'prod', api },
  );
  await model.refresh(false);
  const s = model.snapshot();
  assert.deepEqual(s.state, { kind: 'ready', connection: 'prod' });
  assert.deepEqual(
    s.files.map((f) => [f.file, f.status]),
    [
      ['file:///w/api/errors.trigger.json', 'in-sync'],
      ['file:///w/api/latency.trigger.json', 'differs'],
    ],
  );
  assert.deepEqual(
    s.files[1]?.triggers[0]?.differences.map((d) => [d.path, d.service, d.local]),
    [['frequency', 300, 600]],
  );
  assert.deepEqual(api.calls, ['api']);
  assert.deepEqual(s.counts, { inSync: 1, differs: 1, localOnly: 0, serviceOnly: 0, unknown: 0 });
});

test('the service triggers no file holds are listed as only on the service', async () => {
  const api = service({ api: API });
  const { model } = setup({ 'file:///w/api/errors.trigger.json': local(ERRORS) }, { id: 'c1', name: 'prod', api });
  await model.refresh(false);
  assert.deepEqual(
    model.snapshot().onlyOnService.map((t) => t.id),
    ['t2'],
  );
  assert.equal(model.snapshot().counts.serviceOnly, 1);
});

test('a saved file is compared alone, with the text saved, against the cached list (no list call, no file read)', async () => {
  const api = service({ api: API });
  const { model, reads } = setup(
    { 'file:///w/a.trigger.json': local(ERRORS), 'file:///w/b.trigger.json': local(LATENCY) },
    { id: 'c1', name: 'prod', api },
  );
  await model.refresh(false);
  const seen: (readonly string[] | 'all')[] = [];
  model.onDidChange((w) => seen.push(w));
  reads.length = 0;
  const save = await measuredAsync(() =>
    model.fileChanged(
      'file:///w/a.trigger.json',
      local(ERRORS, { threshold: { op: '>', value: 9, exceeded_limit: 1 } }),
    ),
  );
  assert.equal(model.fileDrift('file:///w/a.trigger.json')?.status, 'differs');
  assert.deepEqual(seen, [['file:///w/a.trigger.json']]);
  assert.deepEqual(api.calls, ['api']);
  assert.deepEqual(reads, []);
  assert.equal(save.calls(DRIFT, 'driftOfFile'), 1);
});

test('a saved file naming a dataset not yet read reads that list only', async () => {
  const api = service({ api: API, web: [trigger('w1', 'Slow', 'web')] });
  const { model } = setup({ 'file:///w/a.trigger.json': local(ERRORS) }, { id: 'c1', name: 'prod', api });
  await model.refresh(false);
  await model.fileChanged('file:///w/b.trigger.json', local(trigger('w1', 'Slow', 'web')));
  assert.equal(model.fileDrift('file:///w/b.trigger.json')?.status, 'in-sync');
  assert.deepEqual(api.calls, ['api', 'web']);
});

test('lists are cached per connection: switching back compares without reading them again', async () => {
  const prod = service({ api: API });
  const staging = service({ api: [trigger('t1', 'Errors', 'api', 7)] });
  const c1 = { id: 'c1', name: 'prod', api: prod };
  const c2 = { id: 'c2', name: 'staging', api: staging };
  const { model, use } = setup({ 'file:///w/a.trigger.json': local(ERRORS) }, c1);
  await model.refresh(false);
  use(c2);
  await model.refresh(false);
  assert.equal(model.fileDrift('file:///w/a.trigger.json')?.status, 'differs');
  use(c1);
  await model.refresh(false);
  assert.equal(model.fileDrift('file:///w/a.trigger.json')?.status, 'in-sync');
  assert.deepEqual([prod.calls, staging.calls], [['api'], ['api']]);
});

test('a refresh on demand reads the lists again and sees the service change', async () => {
  const lists = { api: [...API] };
  const api = service(lists);
  const { model } = setup({ 'file:///w/a.trigger.json': local(ERRORS) }, { id: 'c1', name: 'prod', api });
  await model.refresh(false);
  lists.api = [trigger('t1', 'Errors', 'api', 50), LATENCY];
  await model.refresh(false);
  assert.equal(model.fileDrift('file:///w/a.trigger.json')?.status, 'in-sync');
  await model.refresh(true);
  assert.equal(model.fileDrift('file:///w/a.trigger.json')?.status, 'differs');
  assert.deepEqual(api.calls, ['api', 'api']);
});

test('a list that failed leaves its files not compared, and is read again by the next check', async () => {
  const fail = new Set(['api']);
  const api = service({ api: API }, fail);
  const { model } = setup({ 'file:///w/a.trigger.json': local(ERRORS) }, { id: 'c1', name: 'prod', api });
  await model.refresh(false);
  const drift = model.fileDrift('file:///w/a.trigger.json');
  assert.equal(drift?.status, 'unknown');
  assert.equal(drift?.triggers[0]?.reason, 'the triggers of api could not be read: service unavailable');
  fail.clear();
  await model.fileChanged('file:///w/a.trigger.json');
  assert.equal(model.fileDrift('file:///w/a.trigger.json')?.status, 'in-sync');
  assert.deepEqual(api.calls, ['api', 'api']);
});

test('without a connection nothing is compared and no file has drift', async () => {
  const { model } = setup({ 'file:///w/a.trigger.json': local(ERRORS) }, undefined);
  await model.refresh(false);
  assert.deepEqual(model.snapshot().state, { kind: 'no-connection' });
  assert.equal(model.fileDrift('file:///w/a.trigger.json'), undefined);
  assert.equal(model.connectionName(), undefined);
});

test('a deleted file leaves the drift', async () => {
  const api = service({ api: API });
  const { model } = setup({ 'file:///w/a.trigger.json': local(ERRORS) }, { id: 'c1', name: 'prod', api });
  await model.refresh(false);
  await model.fileDeleted('file:///w/a.trigger.json');
  assert.deepEqual(model.snapshot().files, []);
  assert.deepEqual(
    model.snapshot().onlyOnService.map((t) => t.id),
    [],
  );
});

test('the service trigger a file was compared with is found by id for Compare, and lists a pull read are reused', async () => {
  const api = service({ api: API, web: [trigger('w1', 'Slow', 'web')] });
  const { model } = setup(
    { 'file:///w/a.trigger.json': local(ERRORS, { frequency: 60 }) },
    { id: 'c1', name: 'prod', api },
  );
  await model.refresh(false);
  assert.equal(model.serviceTriggerOf('file:///w/a.trigger.json')?.id, 't1');
  assert.equal(model.serviceTrigger('c1', 't2')?.name, 'Latency');
  model.accept('c1', 'web', { state: 'listed', triggers: [trigger('w1', 'Slow', 'web')] });
  await model.fileChanged('file:///w/b.trigger.json', local(trigger('w1', 'Slow', 'web')));
  assert.equal(model.fileDrift('file:///w/b.trigger.json')?.status, 'in-sync');
  assert.deepEqual(api.calls, ['api']);
});

test('an older comparison finishing after a newer one is dropped', async () => {
  let release: () => void = () => undefined;
  const slow: TriggerLister & SloReads & RecipientLister = {
    ...sloServiceFake(),
    listRecipients: () => Promise.resolve({ data: [] }),
    listTriggers: () =>
      new Promise((resolve) => (release = () => resolve({ data: [trigger('t1', 'Errors', 'api', 99)] }))),
  };
  const fast = service({ api: API });
  const { model, use } = setup({ 'file:///w/a.trigger.json': local(ERRORS) }, { id: 'slow', name: 'slow', api: slow });
  const first = model.refresh(false);
  await new Promise((r) => setImmediate(r));
  use({ id: 'fast', name: 'fast', api: fast });
  await model.refresh(false);
  release();
  await first;
  assert.deepEqual(model.snapshot().state, { kind: 'ready', connection: 'fast' });
  assert.equal(model.fileDrift('file:///w/a.trigger.json')?.status, 'in-sync');
});

test('a workspace file nested 5,000 levels deep is not compared, with its reason; the other files are', async () => {
  const api = service({ api: API });
  const deep = `{"id":"t2","name":"Latency","dataset_slug":"api","query":{"filters":[{"column":"a","op":"in","value":${'['.repeat(5_000)}${']'.repeat(5_000)}}]}}`;
  const { model } = setup(
    { 'file:///w/api/errors.trigger.json': local(ERRORS), 'file:///w/api/latency.trigger.json': deep },
    { id: 'c1', name: 'prod', api },
  );
  await model.refresh(false);
  const s = model.snapshot();
  assert.deepEqual(s.state, { kind: 'ready', connection: 'prod' });
  assert.deepEqual(
    s.files.map((f) => [f.file, f.status, f.triggers[0]?.reason]),
    [
      ['file:///w/api/errors.trigger.json', 'in-sync', undefined],
      [
        'file:///w/api/latency.trigger.json',
        'unknown',
        "the file's trigger is nested more than 64 levels deep (in query); trigger files hold at most 64 levels",
      ],
    ],
  );
  assert.deepEqual(s.counts, { inSync: 1, differs: 0, localOnly: 0, serviceOnly: 0, unknown: 1 });
});

test('4,000 files changed at once (a branch switch) are applied as one batch: one change event, each file read and compared once, one snapshot', async () => {
  const lists = { api: Array.from({ length: 4000 }, (_, i) => trigger(`t${i}`, `T${i}`, 'api')) };
  const files: Record<string, string> = {};
  lists.api.forEach((t, i) => (files[`file:///w/api/t${String(i).padStart(4, '0')}.trigger.json`] = local(t)));
  const api = service(lists);
  const { model, reads } = setup(files, { id: 'c1', name: 'prod', api });
  await model.refresh(false);
  assert.equal(model.snapshot().counts.inSync, 4000);
  reads.length = 0;
  const listed = api.calls.length;
  const seen: (readonly string[] | 'all')[] = [];
  model.onDidChange((w) => seen.push(w));
  // The other branch holds every trigger with another threshold.
  for (const [i, t] of lists.api.entries())
    files[`file:///w/api/t${String(i).padStart(4, '0')}.trigger.json`] = local(t, {
      threshold: { op: '>', value: 9, exceeded_limit: 1 },
    });
  const work = await measuredAsync(async () => {
    await Promise.all(Object.keys(files).map((uri) => model.fileChanged(uri)));
    const s = model.snapshot();
    assert.equal(model.snapshot(), s);
    assert.equal(s.files.length, 4000);
    return s;
  });
  const s = work.result;
  assert.equal(seen.length, 1);
  assert.equal(seen[0]?.length, 4000);
  assert.deepEqual(s.counts, { inSync: 0, differs: 4000, localOnly: 0, serviceOnly: 0, unknown: 0 });
  assert.deepEqual(
    s.files.map((f) => f.file),
    Object.keys(files).sort(),
  );
  assert.deepEqual(
    {
      read: reads.length,
      distinct: new Set(reads).size,
      compare: work.calls(DRIFT, 'driftOfFile'),
      snapshot: work.calls(SNAPSHOT, 'list'),
      list: api.calls.length - listed,
    },
    { read: 4000, distinct: 4000, compare: 4000, snapshot: 1, list: 0 },
  );
});

test('files created and deleted in one batch keep the file order, and leave the counts right', async () => {
  const api = service({ api: API, web: [trigger('w1', 'Slow', 'web')] });
  const { model, files } = setup({ 'file:///w/m.trigger.json': local(ERRORS) }, { id: 'c1', name: 'prod', api });
  await model.refresh(false);
  assert.deepEqual(
    model.snapshot().onlyOnService.map((t) => t.id),
    ['t2'],
  );
  files['file:///w/z.trigger.json'] = local(LATENCY, { frequency: 600 });
  const seen: (readonly string[] | 'all')[] = [];
  model.onDidChange((w) => seen.push(w));
  await Promise.all([
    model.fileChanged('file:///w/z.trigger.json'),
    model.fileChanged('file:///w/a.trigger.json', local(trigger('w1', 'Slow', 'web'))),
    model.fileDeleted('file:///w/m.trigger.json'),
    model.fileDeleted('file:///w/never-seen.trigger.json'),
  ]);
  assert.deepEqual(seen, [['file:///w/z.trigger.json', 'file:///w/a.trigger.json', 'file:///w/m.trigger.json']]);
  const s = model.snapshot();
  assert.deepEqual(
    s.files.map((f) => [f.file, f.status]),
    [
      ['file:///w/a.trigger.json', 'in-sync'],
      ['file:///w/z.trigger.json', 'differs'],
    ],
  );
  assert.deepEqual(
    s.onlyOnService.map((t) => t.id),
    ['t1'],
  );
  assert.deepEqual(s.counts, { inSync: 1, differs: 1, localOnly: 0, serviceOnly: 1, unknown: 0 });
});

test('new files interleaved with the known ones are merged into the file order', async () => {
  const api = service({ api: API });
  const files: Record<string, string> = {};
  for (let i = 0; i < 50; i += 2) files[`file:///w/api/f${String(i).padStart(2, '0')}.trigger.json`] = local(ERRORS);
  const { model } = setup(files, { id: 'c1', name: 'prod', api });
  const added = Array.from(
    { length: 25 },
    (_, k) => `file:///w/api/f${String(49 - 2 * k).padStart(2, '0')}.trigger.json`,
  );
  const work = await measuredAsync(async () => {
    await model.refresh(false);
    assert.equal(model.snapshot().files.length, 25);
    await Promise.all([
      ...added.map((uri) => model.fileChanged(uri, local(LATENCY))),
      model.fileDeleted('file:///w/api/f10.trigger.json'),
    ]);
    return model.snapshot().files.map((f) => f.file);
  });
  const order = work.result;
  assert.deepEqual(order, [...Object.keys(files).filter((u) => !u.endsWith('f10.trigger.json')), ...added].sort());
  assert.equal(order.length, 49);
  assert.equal(work.calls(SNAPSHOT, 'list'), 2, 'files listed: once before the batch, once after');
});

test("the Datasets tree's states come from the comparison: in sync, differs (with the members), only on the service; none before it is done", async () => {
  const api = service({ api: API, web: [trigger('t3', 'Web', 'web')] });
  const { model } = setup(
    { 'file:///w/api/errors.trigger.json': local(ERRORS, { frequency: 600 }) },
    { id: 'c1', name: 'prod', api },
  );
  const path = (uri: string) => uri.replace('file:///w/', '');
  const state = (id: string) => model.triggerFileState('c1', id, path);
  assert.equal(state('t1'), undefined, 'not compared yet');
  await model.refresh(false);
  assert.deepEqual(
    ['t1', 't2', 't3'].map((id) => [id, state(id)]),
    [
      ['t1', { kind: 'differs', file: 'api/errors.trigger.json', members: ['frequency'] }],
      ['t2', { kind: 'service-only' }],
      // Only the datasets the files name are compared: the web dataset's trigger gets no state.
      ['t3', undefined],
    ],
  );
  assert.equal(model.triggerFileState('c2', 't1', path), undefined, "another connection's trigger");
  await model.fileChanged('file:///w/api/errors.trigger.json', local(ERRORS));
  assert.deepEqual(state('t1'), { kind: 'in-sync', file: 'api/errors.trigger.json' });
});

test('after each batch, the counts, drafts, triggers only on the service and tree states are those a full comparison finds', async () => {
  const api = service({
    api: [ERRORS, LATENCY, trigger('t3', 'Saturation', 'api')],
    web: [trigger('w1', 'Slow', 'web'), trigger('w2', 'Down', 'web')],
  });
  const files: Record<string, string> = {
    'file:///w/a.trigger.json': local(ERRORS),
    'file:///w/b.trigger.json': local(LATENCY, { frequency: 600 }),
  };
  const { model } = setup(files, { id: 'c1', name: 'prod', api });
  await model.refresh(false);
  const path = (uri: string) => uri.replace('file:///w/', '');
  const ids = ['t1', 't2', 't3', 'w1', 'w2'];
  const seen = (m: DriftModel) => {
    const s = m.snapshot();
    return {
      counts: s.counts,
      drafts: s.drafts,
      only: s.onlyOnService.map((t) => t.id),
      files: s.files.map((f) => [f.file, f.status]),
      states: ids.map((id) => m.triggerFileState('c1', id, path)),
    };
  };
  const batches: [string, string | undefined][][] = [
    // The only file naming web arrives: web's triggers it does not hold are only on the service.
    [['file:///w/c.trigger.json', local(trigger('w1', 'Slow', 'web'))]],
    // Two files hold t1, one differs; a draft (no id, a name the service does not have).
    [
      ['file:///w/d.trigger.json', local(ERRORS, { frequency: 900 })],
      ['file:///w/e.trigger.json', draft(LATENCY, 'New one')],
    ],
    // The file naming web goes: web is no longer compared; t2 loses its holder.
    [
      ['file:///w/c.trigger.json', undefined],
      ['file:///w/b.trigger.json', undefined],
    ],
    // A file changes which trigger it holds, in one batch with a deleted and a never-seen file.
    [
      ['file:///w/a.trigger.json', local(trigger('t3', 'Saturation', 'api'))],
      ['file:///w/d.trigger.json', undefined],
      ['file:///w/zz.trigger.json', undefined],
    ],
  ];
  for (const batch of batches) {
    await Promise.all(
      batch.map(([uri, text]) => {
        if (text === undefined) {
          delete files[uri];
          return model.fileDeleted(uri);
        }
        files[uri] = text;
        return model.fileChanged(uri, text);
      }),
    );
    const fresh = setup(files, { id: 'c1', name: 'prod', api }).model;
    await fresh.refresh(false);
    assert.deepEqual(seen(model), seen(fresh));
  }
  const last = seen(model);
  assert.deepEqual(
    { only: last.only, drafts: last.drafts, t3: last.states[2] },
    { only: ['t1', 't2'], drafts: 1, t3: { kind: 'in-sync', file: 'a.trigger.json' } },
  );
});

test('a file naming a paging recipient by its integration name is in sync with the trigger of its id', async () => {
  // The service answers a paging recipient named by id with an empty target: only the team's list names it.
  const held = { ...ERRORS, recipients: [{ id: 'rcp_pd', type: 'pagerduty', target: '' }] };
  const team = [{ id: 'rcp_pd', type: 'pagerduty', details: { pagerduty_integration_name: 'Checkout on-call' } }];
  const api = service({ api: [held] }, new Set(), team);
  const { model } = setup(
    { 'file:///w/errors.json': local(ERRORS, { recipients: [{ type: 'pagerduty', target: 'Checkout on-call' }] }) },
    { id: 'c1', name: 'prod', api },
  );
  await model.refresh(false);
  assert.deepEqual(
    model.snapshot().files.map((f) => [f.file, f.status]),
    [['file:///w/errors.json', 'in-sync']],
  );
  assert.deepEqual(api.calls, ['api', 'recipients']);
});

test("a connection's own recipient listing, when given, is where drift lists the team, not its service client", async () => {
  const team = [{ id: 'rcp_pd', type: 'pagerduty', details: { pagerduty_integration_name: 'Checkout on-call' } }];
  const api = service({ api: [{ ...ERRORS, recipients: [{ id: 'rcp_pd', type: 'pagerduty', target: '' }] }] });
  const shared: string[] = [];
  const listing: RecipientLister = {
    listRecipients: () => {
      shared.push('recipients');
      return Promise.resolve({ data: team });
    },
  };
  const { model } = setup(
    { 'file:///w/errors.json': local(ERRORS, { recipients: [{ type: 'pagerduty', target: 'Checkout on-call' }] }) },
    { id: 'c1', name: 'prod', api, team: listing },
  );
  await model.refresh(false);
  assert.deepEqual(
    { files: model.snapshot().files.map((f) => f.status), client: api.calls, shared },
    { files: ['in-sync'], client: ['api'], shared: ['recipients'] },
  );
});

/** Lets pending work run until `done` holds (at most 100 turns of the event loop). */
async function waitUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(done(), 'the awaited state was reached');
}

test('a list read that began before the lists were forgotten (a write) is not kept: it is read again', async () => {
  const answers = [trigger('t1', 'Errors', 'api', 5), trigger('t1', 'Errors', 'api', 9)];
  const started: (() => void)[] = [];
  const api: DriftConnection['api'] = {
    ...sloServiceFake(),
    listRecipients: () => Promise.resolve({ data: [] }),
    listTriggers: () => {
      const answer = answers.shift();
      // Each read answers when the test lets it, as a slow service would.
      return new Promise((resolve) => started.push(() => resolve({ data: answer === undefined ? [] : [answer] })));
    },
  };
  const cache = new ConnectionCache({ id: 'c1', name: 'prod', api });
  const before = cache.ensureListings(['api'], 1);
  await waitUntil(() => started.length === 1);
  cache.forget();
  started[0]?.();
  await waitUntil(() => started.length === 2);
  started[1]?.();
  await before;
  const held = cache.indexOf().get('t1') as { threshold?: { value?: number } } | undefined;
  assert.deepEqual({ reads: started.length, value: held?.threshold?.value }, { reads: 2, value: 9 });
});
