// obs apply's report of each change: a write made but not readable back is said as written and not verified,
// with its id, and counted apart from the failures (the run still exits 1: applyRun's clean check).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyText } from '../../src/cli/planReport';
import type { ChangeResult, PlannedChange } from '../../src/triggerFiles';

const create: PlannedChange = {
  kind: 'trigger',
  action: 'create',
  file: 'api/new.trigger.json',
  index: -1,
  dataset: 'api',
  name: 'New one',
  body: {},
};

test('a create written but not readable back is reported with its id as written, not verified, and counted so', () => {
  const results: ChangeResult[] = [
    {
      change: create,
      outcome: 'unverified',
      id: 't-9',
      reason:
        'reading it back failed (read trigger: 503 unavailable), so what the service stored is not known; plan again to compare',
      cause: { kind: 'http', status: 503 },
    },
  ];
  assert.equal(
    applyText(results),
    'written, not verified  + api "New one" as t-9: reading it back failed (read trigger: 503 unavailable), so what the service stored is not known; plan again to compare\n\n0 applied, 0 skipped, 0 refused, 0 failed, 1 written but not verified\n',
  );
});

test('a run with no unverified write keeps the four counts it always printed', () => {
  const results: ChangeResult[] = [
    { change: create, outcome: 'failed', reason: 'create trigger: 500', cause: { kind: 'http', status: 500 } },
  ];
  assert.equal(applyText(results).split('\n').at(-2), '0 applied, 0 skipped, 0 refused, 1 failed');
});
