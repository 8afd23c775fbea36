// A results panel after a window reload (host side, plain Node): the page's saved state is read with zod,
// the connection is found among the saved profiles, and the links are checked again before they are offered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failedPreviewModel } from '../../src/extension/queries/resultsModel';
import { queryPanelKey, restoreResults } from '../../src/extension/queries/resultsRestore';
import type { ResultsModel, ResultsState, SavedRun } from '../../src/webview/protocol/queryResults';

const profiles = [{ id: 'c1', uiUrl: 'https://ui.example' }];
const model: ResultsModel = {
  title: 'Saved query q_1',
  subtitle: 'api on Sandbox · saved query q_1',
  status: 'complete',
  ranAt: Date.parse('2026-01-02T03:04:05Z'),
  chart: { times: [1, 2], aggregates: ['COUNT'], lines: [{ group: '', aggregate: 'COUNT', values: [1, 2] }] },
  table: { columns: ['COUNT'], rows: [[3]] },
  totals: [],
  links: { query: true, graph: true },
  canRerun: true,
};
const queryRun: SavedRun = {
  run: {
    kind: 'query',
    connectionId: 'c1',
    dataset: 'api',
    queryId: 'q_1',
    label: 'saved query q_1',
    request: { query_id: 'q_1', disable_series: true, limit: 50 },
  },
  links: { query: 'https://ui.example/team/datasets/api/result/r1', graph: 'https://elsewhere.example/r1/snapshot' },
};

test('a saved query panel comes back with its model, under its own key, runnable, with only the links that pass the check now', () => {
  const state: ResultsState = { title: 'Query q_1', model, saved: queryRun };
  const restored = restoreResults(JSON.parse(JSON.stringify(state)), profiles);
  assert.equal(restored.key, queryPanelKey('c1', 'api', 'q_1'));
  assert.equal(restored.title, 'Query q_1');
  assert.deepEqual(restored.model, { ...model, restored: true, links: { query: true, graph: false }, canRerun: true });
  assert.deepEqual(restored.links, { query: 'https://ui.example/team/datasets/api/result/r1' });
  assert.deepEqual(restored.run, queryRun.run);
  assert.deepEqual(restored.saved, queryRun);
});

test('a preview panel comes back under the key it was opened with, with the trigger as it was previewed', () => {
  const saved: SavedRun = {
    run: {
      kind: 'preview',
      connectionId: 'c1',
      dataset: 'api',
      key: 'preview:file:file:///w/t.json',
      where: 't.json (unsaved edits included) against api on Sandbox',
      trigger: { name: 'High', frequency: 300, threshold: { op: '>', value: 5 } },
      windowSeconds: 86400,
      mode: 'exact',
    },
    links: {},
  };
  const restored = restoreResults(
    {
      title: 'Preview: High',
      model: failedPreviewModel('Preview: High', saved.run.kind === 'preview' ? saved.run.where : '', 'it failed'),
      saved,
    },
    profiles,
  );
  assert.equal(restored.key, 'preview:file:file:///w/t.json');
  assert.deepEqual(restored.run, saved.run);
  assert.equal(restored.model.status, 'failed');
  assert.equal(restored.model.subject, 'preview');
  assert.equal(restored.model.canRerun, true);
});

test('when the connection is gone the panel still shows its result, says why it cannot run again and offers no link', () => {
  const restored = restoreResults({ title: 'Query q_1', model, saved: queryRun }, [
    { id: 'other', uiUrl: 'https://ui.example' },
  ]);
  assert.equal(restored.run, undefined);
  assert.equal(restored.saved, undefined);
  assert.deepEqual(restored.links, {});
  assert.deepEqual(restored.model, {
    ...model,
    restored: true,
    links: { query: false, graph: false },
    canRerun: false,
    note: 'The connection of this result no longer exists, so it cannot be run again.',
  });
});

test('a model too large to keep comes back as a title and Run Again', () => {
  const restored = restoreResults({ title: 'Query q_1', saved: queryRun }, profiles);
  assert.deepEqual(restored.model, {
    title: 'Query q_1',
    subtitle: '',
    status: 'incomplete',
    message: 'This result was too large to keep across a window reload. Run Again to see it.',
    chart: null,
    table: null,
    totals: [],
    links: { query: true, graph: false },
    canRerun: true,
    restored: true,
  });
});

test('a damaged or missing state is refused with a clear message and nothing to run', () => {
  for (const raw of [
    undefined,
    null,
    'x',
    { title: 3 },
    { title: 't', model: { ...model, status: 'weird' } },
    { title: 't', saved: { run: { kind: 'query', connectionId: '' }, links: {} } },
    { title: 't', extra: 1 },
  ]) {
    const restored = restoreResults(raw, profiles);
    assert.equal(restored.key, undefined, JSON.stringify(raw));
    assert.equal(restored.run, undefined);
    assert.deepEqual(restored.model, {
      title: 'Query Results',
      subtitle: '',
      status: 'failed',
      message:
        'This panel could not be restored after the window reload: its saved state is missing or damaged. Run the query or the preview again.',
      chart: null,
      table: null,
      totals: [],
      links: { query: false, graph: false },
      canRerun: false,
    });
  }
});

test('a failed preview model says what failed and can be run again', () => {
  assert.deepEqual(
    failedPreviewModel(
      'Preview: High',
      'api on Sandbox',
      'Previewing trigger "High" over the last 24 h failed: HTTP 500',
    ),
    {
      title: 'Preview: High',
      subtitle: 'api on Sandbox',
      status: 'failed',
      subject: 'preview',
      message: 'Previewing trigger "High" over the last 24 h failed: HTTP 500',
      chart: null,
      table: null,
      totals: [],
      links: { query: false, graph: false },
      canRerun: true,
    },
  );
});
