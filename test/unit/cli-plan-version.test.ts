// A saved plan's format version: a plan saved by an older obs (version 2, before plans held burn alerts and
// definitions) is refused whole with what to do, never read as a plan of this version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePlan, planFileText } from '../../src/cli/planFile';
import type { Plan } from '../../src/triggerFiles';

const plan: Plan = {
  format: 'obs-trigger-plan',
  version: 3,
  createdAt: '2026-12-01T00:00:00.000Z',
  target: { baseUrl: 'http://127.0.0.1:1', key: { salt: 's', sha256: 'a'.repeat(64) } },
  inputs: {
    scope: { kind: 'files' },
    allowUnknownColumns: false,
    matchByName: false,
    paths: ['.'],
    metricsDatasets: [],
  },
  prune: false,
  files: [{ file: 'burn-alerts/api/A.exhaustion-60min.burn-alert.json', sha256: 'b'.repeat(64) }],
  changes: [
    {
      kind: 'burn-alert',
      action: 'update',
      file: 'burn-alerts/api/A.exhaustion-60min.burn-alert.json',
      index: -1,
      dataset: 'api',
      name: 'A, exhaustion 60 min',
      id: 'ba1',
      matchedBy: 'id',
      differences: [{ path: 'exhaustion_minutes', member: 'exhaustion_minutes', service: 30, local: 60 }],
      body: { alert_type: 'exhaustion_time', exhaustion_minutes: 60, description: '', recipients: [{ id: 'r1' }] },
      service: { updatedAt: '2026-11-30T00:00:00Z', sha256: 'c'.repeat(64) },
    },
  ],
  blocked: [{ kind: 'definitions', file: 'definitions/api.definitions.json', index: -1, reasons: ['r'] }],
  unchanged: 0,
};

test('a plan of version 3 holding a burn alert update and a blocked definitions file reads back as saved', () => {
  const parsed = parsePlan(planFileText(plan, 'key'));
  assert.ok('saved' in parsed);
  assert.deepEqual(parsed.saved.plan, { ...plan, seal: parsed.saved.seal });
});

test('a plan saved by an older obs (version 2) is refused: plan again', () => {
  const old = JSON.parse(planFileText(plan, 'key')) as Record<string, unknown>;
  old.version = 2;
  assert.deepEqual(parsePlan(JSON.stringify(old)), {
    problem: 'it was made by an older obs, before plans held burn alerts and definitions: plan again',
  });
});
