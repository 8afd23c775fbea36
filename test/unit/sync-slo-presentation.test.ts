// What the editor shows of the drift of burn alert and definitions files (sloDriftPresentation.ts, and the
// counts of every kind in driftPresentation.ts): the lens, the Explorer badge, the Drift view's rows, its badge
// and summary line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SloFileDrift } from '../../src/triggerFiles';
import { driftBadgeCount, driftRoots, driftSummary } from '../../src/extension/sync/driftPresentation';
import {
  sloDecorationOf,
  sloDifferenceItems,
  sloFileRow,
  sloLensesOf,
} from '../../src/extension/sync/sloDriftPresentation';
import type { DriftSnapshot } from '../../src/extension/sync/driftModel';

const FILE = 'file:///w/burn-alerts/api/Availability.exhaustion-240min.burn-alert.json';
const rel = (uri: string) => uri.replace('file:///w/', '');

const inSync: SloFileDrift = { file: FILE, kind: 'burn-alert', status: 'in-sync', dataset: 'api', differences: [] };
const differs: SloFileDrift = {
  file: FILE,
  kind: 'burn-alert',
  status: 'differs',
  dataset: 'api',
  id: 'ba_1',
  differences: [{ path: 'exhaustion_minutes', member: 'exhaustion_minutes', service: 240, local: 300 }],
};
const missing: SloFileDrift = {
  file: 'file:///w/burn-alerts/api/Old.exhaustion-30min.burn-alert.json',
  kind: 'burn-alert',
  status: 'unknown',
  dataset: 'api',
  reason: 'the service has no burn alert ba_old: burn alerts cannot be created from files',
  missing: true,
  differences: [],
};
const notJson: SloFileDrift = {
  file: 'file:///w/definitions/api.definitions.json',
  kind: 'definitions',
  status: 'unknown',
  reason: 'it is not a JSON object',
  differences: [],
};

test('the lens of a burn alert file says in sync, differs with Compare and Apply, or that it is not on the service', () => {
  const lenses = (d: SloFileDrift) => sloLensesOf(d, 'prod', 'ready').map((l) => [l.title, l.action, l.tooltip]);
  assert.deepEqual(lenses(inSync), [['$(check) In sync with prod', 'compareFile', 'Compare with Service']]);
  assert.deepEqual(lenses(differs), [
    ['$(diff) Differs: exhaustion_minutes - Compare', 'compareFile', 'exhaustion_minutes: 240 -> 300'],
    ['$(cloud-upload) Apply to prod', 'apply', 'Plan this file against prod and apply it after one question'],
  ]);
  assert.deepEqual(lenses(missing), [
    ['$(circle-slash) Not on prod: burn alerts cannot be created from files', 'none', missing.reason],
  ]);
  assert.deepEqual(lenses(notJson), [
    ['$(question) Not compared with prod: it is not a JSON object', 'none', undefined],
  ]);
  assert.deepEqual(
    sloLensesOf(undefined, 'prod', 'loading').map((l) => l.title),
    ['$(sync~spin) Comparing with prod...'],
  );
});

test('the Explorer marks a file that differs, one not on the service and one not compared; none in sync', () => {
  assert.equal(sloDecorationOf(inSync, 'prod'), undefined);
  assert.deepEqual(
    [differs, missing, notJson].map((d) => sloDecorationOf(d, 'prod')),
    [
      {
        badge: '≠',
        tooltip: 'Differs from prod: exhaustion_minutes',
        color: 'gitDecoration.modifiedResourceForeground',
      },
      { badge: 'L', tooltip: `Not on prod: ${missing.reason}`, color: 'gitDecoration.untrackedResourceForeground' },
      { badge: '?', tooltip: 'Not compared with prod: it is not a JSON object', color: 'list.warningForeground' },
    ],
  );
});

const snapshot = (sloFiles: SloFileDrift[]): DriftSnapshot => ({
  state: { kind: 'ready', connection: 'prod' },
  files: [],
  onlyOnService: [],
  counts: { inSync: 2, differs: 1, localOnly: 0, serviceOnly: 0, unknown: 0 },
  drafts: 0,
  sloFiles,
  sloCounts: { inSync: 1, differs: 1, missing: 1, unknown: 1 },
});

test('the Drift view lists each burn alert and definitions file not in sync with its kind, and its differences', () => {
  const roots = driftRoots(snapshot([differs, inSync, missing, notJson]), rel, (f) => sloFileRow(f, rel));
  assert.deepEqual(
    roots.map((r) => [r.label, 'description' in r ? r.description : '', 'status' in r ? r.status : '']),
    [
      [
        'Availability.exhaustion-240min.burn-alert.json',
        'burn alert, differs: exhaustion_minutes · burn-alerts/api',
        'differs',
      ],
      ['Old.exhaustion-30min.burn-alert.json', 'burn alert, not on the service · burn-alerts/api', 'local-only'],
      ['api.definitions.json', 'definitions, not compared · definitions', 'unknown'],
    ],
  );
  assert.deepEqual(
    sloDifferenceItems(differs).map((d) => [d.kind, d.label, 'of' in d ? d.of : undefined]),
    [['difference', 'exhaustion_minutes: 240 -> 300', 'burn-alert']],
  );
});

test('the badge counts every kind: triggers that differ, and burn alert and definitions files that differ or are not on the service', () => {
  const s = snapshot([differs, missing, notJson, inSync]);
  assert.equal(driftBadgeCount(s), 3);
  assert.equal(
    driftSummary(s),
    '2 differ, 1 not on the service (cannot be created from files), 1 not compared, 3 in sync (prod)',
  );
});
