// What the editor shows of drift (src/extension/sync/driftPresentation.ts) and the words of a pull
// (pullPlanText.ts): Explorer badges, the CodeLens, the Drift view's items, the overwrite questions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { driftCounts, type FileDrift, type PullAction, type ServiceTrigger } from '../../src/triggerFiles';
import {
  decorationOf,
  differenceItems,
  driftBadgeCount,
  draftsOf,
  driftRoots,
  driftSummary,
  lensesOf,
} from '../../src/extension/sync/driftPresentation';
import {
  approveUpdates,
  pullReportText,
  updateQuestion,
  type UpdateAnswer,
} from '../../src/extension/sync/pullPlanText';
import { scopeOf } from '../../src/extension/sync/pullScope';
import { sloFileRow } from '../../src/extension/sync/sloDriftPresentation';
import { parseServiceTriggerPath, serviceTriggerPath } from '../../src/extension/sync/serviceTriggerUri';
import type { DriftSnapshot } from '../../src/extension/sync/driftModel';

const svc: ServiceTrigger = { id: 't1', name: 'Errors', dataset_slug: 'api' };
const differs: FileDrift = {
  file: 'file:///w/triggers/api/errors.trigger.json',
  status: 'differs',
  triggers: [
    {
      status: 'differs',
      index: -1,
      name: 'Errors',
      dataset: 'api',
      service: svc,
      differences: [
        { path: 'threshold.value', member: 'threshold', service: 5, local: 10 },
        { path: 'recipients', member: 'recipients', service: [], local: [{ id: 'r1' }] },
      ],
    },
  ],
};
const inSync: FileDrift = {
  file: 'file:///w/triggers/api/latency.trigger.json',
  status: 'in-sync',
  triggers: [{ status: 'in-sync', index: -1, service: svc, differences: [] }],
};
const localOnly: FileDrift = {
  file: 'file:///w/triggers/api/new.trigger.json',
  status: 'local-only',
  triggers: [
    {
      status: 'local-only',
      index: -1,
      name: 'New',
      dataset: 'api',
      differences: [],
      reason: 'the service has no trigger named "New" in api',
    },
  ],
};

test('the Explorer shows no badge on a file in sync, and a badge, colour and tooltip on the others', () => {
  assert.equal(decorationOf(inSync, 'prod'), undefined);
  assert.deepEqual(decorationOf(differs, 'prod'), {
    badge: '≠',
    tooltip: 'Differs from prod: threshold, recipients',
    color: 'gitDecoration.modifiedResourceForeground',
  });
  assert.deepEqual(decorationOf(localOnly, 'prod'), {
    badge: 'L',
    tooltip: 'Only local: not on prod',
    color: 'gitDecoration.untrackedResourceForeground',
  });
  assert.deepEqual(
    decorationOf({ file: 'x', status: 'unknown', triggers: [], reason: 'the file holds no trigger' }, 'prod'),
    {
      badge: '?',
      tooltip: 'Not compared with prod: the file holds no trigger',
      color: 'list.warningForeground',
    },
  );
});

const applyLens = {
  title: '$(cloud-upload) Apply to prod',
  tooltip: 'Plan this trigger against prod and apply it after one question',
  action: 'apply',
  index: -1,
};

test('the lens says "In sync with <connection>" or names the members that differ and offers Compare', () => {
  assert.deepEqual(lensesOf(inSync, 'prod', 'ready'), [
    { title: '$(check) In sync with prod', tooltip: 'Compare with Service', action: 'compare', index: -1 },
  ]);
  assert.deepEqual(lensesOf(differs, 'prod', 'ready'), [
    {
      title: '$(diff) Differs: threshold, recipients - Compare',
      tooltip: 'threshold.value: 5 -> 10\nrecipients: [] -> [{"id":"r1"}]',
      action: 'compare',
      index: -1,
    },
    applyLens,
  ]);
  assert.deepEqual(lensesOf(localOnly, 'prod', 'ready'), [
    {
      title: '$(circle-slash) Only local: not on prod',
      tooltip: 'the service has no trigger named "New" in api',
      action: 'none',
    },
    applyLens,
  ]);
});

test('"Apply to <connection>" shows only next to a trigger that differs or is only local', () => {
  const applies = (d: FileDrift) => lensesOf(d, 'prod', 'ready').filter((l) => l.action === 'apply');
  assert.deepEqual(applies(inSync), []);
  assert.deepEqual(applies(differs), [applyLens]);
  assert.deepEqual(applies(localOnly), [applyLens]);
  assert.deepEqual(
    applies({
      file: 'f',
      status: 'unknown',
      triggers: [{ status: 'unknown', index: -1, differences: [], reason: 'not listed' }],
    }),
    [],
  );
});

test('no lens without a connection; a loading and a failed comparison say so', () => {
  assert.deepEqual(lensesOf(differs, undefined, 'no-connection'), []);
  assert.deepEqual(lensesOf(undefined, 'prod', 'loading'), [
    { title: '$(sync~spin) Comparing with prod...', action: 'none' },
  ]);
  assert.deepEqual(lensesOf(undefined, 'prod', 'failed'), [
    { title: '$(warning) Could not compare with prod', tooltip: 'Compare again', action: 'refresh' },
  ]);
});

test('a file of several triggers gets a lens per trigger that is not in sync, naming the trigger', () => {
  const many: FileDrift = {
    file: 'f',
    status: 'differs',
    triggers: [
      { status: 'in-sync', index: 0, name: 'A', service: svc, differences: [] },
      {
        status: 'differs',
        index: 1,
        name: 'B',
        service: svc,
        differences: [{ path: 'frequency', member: 'frequency', service: 300, local: 600 }],
      },
    ],
  };
  assert.deepEqual(
    lensesOf(many, 'prod', 'ready').map((l) => [l.title, l.index]),
    [
      ['$(check) "A": In sync', 0],
      ['$(diff) "B": Differs: frequency - Compare', 1],
      ['$(cloud-upload) Apply to prod', 1],
    ],
  );
});

const snapshot = (files: FileDrift[], only: ServiceTrigger[] = []): DriftSnapshot => ({
  state: { kind: 'ready', connection: 'prod' },
  files,
  onlyOnService: only,
  counts: driftCounts(files, only),
  drafts: draftsOf(files),
  sloFiles: [],
  sloCounts: { inSync: 0, differs: 0, missing: 0, unknown: 0 },
});
const rel = (uri: string) => uri.replace('file:///w/', '');

test('the Drift view lists every file not in sync, then the triggers only on the service', () => {
  const roots = driftRoots(
    snapshot([differs, inSync, localOnly], [{ id: 't9', name: 'Orphan', dataset_slug: 'web' }]),
    rel,
    (f) => sloFileRow(f, rel),
  );
  assert.deepEqual(
    roots.map((r) => [r.kind, r.label, 'description' in r ? r.description : '']),
    [
      ['file', 'errors.trigger.json', 'differs: threshold, recipients · triggers/api'],
      ['file', 'new.trigger.json', 'only local · triggers/api'],
      ['serviceOnly', 'Orphan', 'only on prod · web'],
    ],
  );
  assert.deepEqual(
    differenceItems(differs).map((d) => d.label),
    ['threshold.value: 5 -> 10', 'recipients: [] -> [{"id":"r1"}]'],
  );
});

test('the Drift view says when every file is in sync, and its summary counts each status', () => {
  assert.deepEqual(
    driftRoots(snapshot([inSync]), rel, (f) => sloFileRow(f, rel)),
    [{ kind: 'note', label: 'Every file is in sync with prod' }],
  );
  assert.equal(
    driftSummary(snapshot([differs, inSync, localOnly], [svc])),
    '1 differs, 1 only local, 1 only on the service, 1 in sync (prod)',
  );
  assert.equal(driftSummary({ ...snapshot([]), state: { kind: 'loading', connection: 'prod' } }), undefined);
});

test("the service trigger's document path names the connection and the trigger and ends in its file name", () => {
  const path = serviceTriggerPath('conn/1', { id: 'a b', name: 'High errors' });
  assert.equal(path, '/conn%2F1/a%20b/High-errors.trigger.json');
  assert.deepEqual(parseServiceTriggerPath(path), { connectionId: 'conn/1', triggerId: 'a b' });
  assert.equal(parseServiceTriggerPath('/only/two'), undefined);
});

const update = (path: string): Extract<PullAction, { kind: 'update' }> => ({
  kind: 'update',
  path,
  text: '{}\n',
  item: { dataset: 'api', trigger: svc },
  differences: [{ path: 'threshold.value', member: 'threshold', service: 5, local: 10 }],
});

test('pull asks about each differing file: Overwrite, Skip, Overwrite All approve exactly what was answered', async () => {
  const answers: (UpdateAnswer | undefined)[] = ['Overwrite', 'Skip', 'Overwrite All'];
  const asked: string[] = [];
  const approved = await approveUpdates(['a', 'b', 'c', 'd'].map(update), (u) => {
    asked.push(u.path);
    return Promise.resolve(answers.shift());
  });
  assert.deepEqual(asked, ['a', 'b', 'c']);
  assert.deepEqual([...approved].sort(), ['a', 'c', 'd']);
});

test('pull overwrites nothing more after Skip All or a dismissed question', async () => {
  assert.deepEqual(
    [...(await approveUpdates(['a', 'b'].map(update), () => Promise.resolve<UpdateAnswer>('Skip All')))],
    [],
  );
  const answers: (UpdateAnswer | undefined)[] = ['Overwrite', undefined];
  assert.deepEqual(
    [...(await approveUpdates(['a', 'b', 'c'].map(update), () => Promise.resolve(answers.shift())))],
    ['a'],
  );
});

test('the overwrite question names the file, how many follow, and the members that differ', () => {
  assert.deepEqual(updateQuestion(update('api/errors.trigger.json'), 3), {
    message:
      "api/errors.trigger.json differs from the service (2 more differ after this one). Overwrite it with the service's trigger?",
    detail: 'Your file differs in: threshold. Skipped files are left as they are.',
  });
});

test('the pull report counts written, unchanged and skipped files and names failed lists', () => {
  const report = {
    created: ['a', 'b'],
    updated: ['c'],
    unchanged: ['d'],
    skipped: [{ path: 'e', reason: 'it differs from the service' }],
    failed: [],
    removed: [],
    cancelled: false,
  };
  assert.equal(
    pullReportText('api', 'prod', 'triggers', report, 0),
    'Pulled 5 triggers of api from prod into triggers: 3 written (2 new), 1 unchanged, 1 skipped.',
  );
  assert.equal(
    pullReportText('every dataset', 'prod', 'triggers', { ...report, cancelled: true }, 2),
    'Pull of every dataset from prod into triggers cancelled part way: 3 written (2 new), 1 unchanged, 1 skipped. The triggers of 2 datasets could not be read (see the logs).',
  );
});

test('a pull command pulls the item it was run on, from the connection the item came from', () => {
  const dataset = { kind: 'dataset', connectionId: 'c2', slug: 'api' };
  const environment = { kind: 'dataset', connectionId: 'c2', slug: '__all__' };
  assert.deepEqual(scopeOf('dataset', dataset), { scope: { kind: 'dataset', slug: 'api' }, connectionId: 'c2' });
  assert.deepEqual(scopeOf('dataset', environment), { scope: { kind: 'environment' }, connectionId: 'c2' });
  assert.deepEqual(scopeOf('everything', dataset), { scope: { kind: 'everything' }, connectionId: 'c2' });
  assert.deepEqual(scopeOf('everything', undefined), { scope: { kind: 'everything' } });
  assert.equal(scopeOf('dataset', undefined), undefined);
  assert.equal(scopeOf('dataset', { kind: 'trigger', connectionId: 'c2' }), undefined);
});

test('the overwrite question of a link says which file overwriting it writes', () => {
  assert.deepEqual(updateQuestion({ ...update('api/errors.trigger.json'), linkTo: 'shared/errors.json' }, 1), {
    message: "api/errors.trigger.json differs from the service. Overwrite it with the service's trigger?",
    detail:
      'Your file differs in: threshold. Skipped files are left as they are.\nIt is a link to shared/errors.json: overwriting it writes shared/errors.json.',
  });
});

test('the pull report says how many stale temporary files it removed', () => {
  const report = {
    created: ['a'],
    updated: [],
    unchanged: [],
    skipped: [],
    failed: [],
    removed: ['api/a.trigger.json.0a1b2c3d.tmp', 'api/b.trigger.json.0a1b2c3d.tmp'],
    cancelled: false,
  };
  assert.equal(
    pullReportText('api', 'prod', 'triggers', report, 0),
    'Pulled 1 trigger of api from prod into triggers: 1 written, 0 unchanged, 0 skipped, 2 stale temporary files removed.',
  );
  assert.equal(
    pullReportText('api', 'prod', 'triggers', { ...report, removed: ['x'] }, 0),
    'Pulled 1 trigger of api from prod into triggers: 1 written, 0 unchanged, 0 skipped, 1 stale temporary file removed.',
  );
});

test('a draft (a trigger file not created on the service yet) is listed but not counted in the badge; a file whose id the service lost is', () => {
  const draft: FileDrift = {
    file: 'file:///w/triggers/error-burst.trigger.json',
    status: 'local-only',
    triggers: [
      {
        status: 'local-only',
        index: -1,
        name: 'Burst',
        dataset: 'api',
        differences: [],
        draft: true,
        reason: 'the service has no trigger named "Burst" in api',
      },
    ],
  };
  const lost: FileDrift = {
    file: 'file:///w/triggers/api/gone.trigger.json',
    status: 'local-only',
    triggers: [
      {
        status: 'local-only',
        index: -1,
        name: 'Gone',
        dataset: 'api',
        differences: [],
        reason: 'the service has no trigger with id t7 in api',
      },
    ],
  };
  assert.equal(driftBadgeCount(snapshot([inSync, draft])), 0, 'nothing the user did: no badge');
  assert.equal(driftSummary(snapshot([inSync, draft])), '1 new (not on the service yet), 1 in sync (prod)');
  assert.deepEqual(
    driftRoots(snapshot([inSync, draft]), rel, (f) => sloFileRow(f, rel)).map((r) => r.label),
    ['error-burst.trigger.json'],
  );
  assert.equal(driftBadgeCount(snapshot([inSync, draft, lost, differs], [svc])), 3);
});

test('what drift draws stays bounded whatever a file or the service holds: one-line titles and labels, tooltips cut with the length said', () => {
  const huge = 'x'.repeat(2_000_000);
  const path = `query.${'m'.repeat(1_000_000)}`;
  const file: FileDrift = {
    file: 'file:///w/triggers/api/a.trigger.json',
    status: 'differs',
    triggers: [
      {
        status: 'differs',
        index: 0,
        name: huge,
        dataset: 'api',
        differences: [{ path, member: 'query', service: 1, local: 2 }],
      },
      { status: 'in-sync', index: 1, name: 'ok', dataset: 'api', differences: [] },
    ],
  };
  const lenses = lensesOf(file, 'prod', 'ready');
  const items = [
    ...driftRoots(
      snapshot([file], [{ id: 't9', name: huge, dataset_slug: 'api' }]),
      (u) => u.slice(8),
      (f) => sloFileRow(f, (u) => u.slice(8)),
    ),
    ...differenceItems(file),
  ];
  const longest = Math.max(
    ...lenses.map((l) => l.title.length),
    ...items.map((i) => i.label.length + ('description' in i ? (i.description ?? '').length : 0)),
  );
  assert.ok(longest <= 400, `a title or label of ${longest} characters`);
  const tooltips = [
    ...lenses.flatMap((l) => (l.tooltip === undefined ? [] : [l.tooltip])),
    ...items.flatMap((i) => ('tooltip' in i ? [i.tooltip] : [])),
  ];
  assert.ok(
    tooltips.some((t) => t.includes('characters in all')),
    'a long tooltip says it was shortened',
  );
  assert.ok(Math.max(...tooltips.map((t) => t.length)) <= 1_100, 'every tooltip is cut');
});
