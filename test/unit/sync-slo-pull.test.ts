// What the editor's pull of burn alerts and definitions reads for a Datasets view item or the palette
// (src/extension/sync/sloPullText.ts), and the question it asks about a file that differs locally.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sloPullDatasets, sloPullReportText, sloUpdateQuestion } from '../../src/extension/sync/sloPullText';

const listed = ['api', '__all__', 'web'];

test("a dataset's item pulls the burn alerts of that dataset's SLOs, and its definitions", () => {
  assert.deepEqual(sloPullDatasets('burn-alerts', { kind: 'dataset', slug: 'api' }, listed), ['api']);
  assert.deepEqual(sloPullDatasets('definitions', { kind: 'dataset', slug: 'api' }, listed), ['api']);
});

test("the environment's item pulls the environment-wide SLOs' alerts, and no definitions (they are per dataset)", () => {
  assert.deepEqual(sloPullDatasets('burn-alerts', { kind: 'environment' }, listed), ['__all__']);
  assert.deepEqual(sloPullDatasets('definitions', { kind: 'environment' }, listed), []);
});

test("from the palette: every dataset the view shows, and for burn alerts the environment's SLOs too", () => {
  assert.deepEqual(sloPullDatasets('burn-alerts', { kind: 'everything' }, listed), ['__all__', 'api', 'web']);
  assert.deepEqual(sloPullDatasets('definitions', { kind: 'everything' }, listed), ['api', 'web']);
});

test('the question about a differing burn alert file names the kind, the members that differ and a link', () => {
  const update = {
    path: 'api/Latency.exhaustion-60min.burn-alert.json',
    differences: [{ path: 'exhaustion_minutes', member: 'exhaustion_minutes', local: 30, service: 60 }],
    linkTo: 'shared/latency.json',
  };
  assert.deepEqual(sloUpdateQuestion('burn-alerts', update, 3), {
    message:
      "api/Latency.exhaustion-60min.burn-alert.json differs from the service (files to ask about after this one: 2). Overwrite it with the service's burn alert?",
    detail:
      'Your file differs in: exhaustion_minutes. Skipped files are left as they are.\nIt is a link to shared/latency.json: overwriting it writes shared/latency.json.',
  });
});

test('the report names the kind, the dataset, the connection and the folder, then what was done', () => {
  const report = {
    created: ['a.json'],
    updated: [],
    unchanged: ['b.json'],
    skipped: [],
    failed: [],
    removed: [],
    cancelled: false,
  };
  assert.equal(
    sloPullReportText('definitions', 'api', 'Sandbox', 'definitions', report, 1),
    'Pulled the definitions of api from Sandbox into definitions: 1 written, 1 unchanged, 0 skipped. 1 thing could not be read from the service (see the logs).',
  );
});
