// The rules do not know how a metrics dataset is declared: the caller words it (obs lint its flag, the
// editor its setting). Users of both see the same messages as before the wording moved to the callers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lint, type LintOptions } from '../../src/lint';
import { runMain as runCli } from '../../src/cli/main';
import { EDITOR_METRICS_DATASET_HINT } from '../../src/extension/diagnostics/lintMapping';
import { trigger } from './lint-helpers';

const query = '"query": { "calculations": [{ "op": "COUNT_DATAPOINTS" }], "time_range": 1800, "granularity": 60 }';
const ON_API = trigger('"dataset_slug": "api"', query);
const NO_SLUG = trigger(query);

const SAID = {
  onApi: [
    'COUNT_DATAPOINTS needs a metrics dataset, and dataset api is standard; if api is a metrics dataset, name it with --metrics-dataset api (editor setting obs.metricsDatasets)',
    'granularity is supported only on metrics datasets and dataset api is standard; if api is a metrics dataset, name it with --metrics-dataset api (editor setting obs.metricsDatasets)',
  ],
  noSlug: [
    'COUNT_DATAPOINTS needs a metrics dataset, and the dataset (no dataset_slug) is standard; if the dataset is a metrics dataset, give dataset_slug and name it with --metrics-dataset (editor setting obs.metricsDatasets)',
    'granularity is supported only on metrics datasets and the dataset is standard; if the dataset is a metrics dataset, give dataset_slug and name it with --metrics-dataset (editor setting obs.metricsDatasets)',
  ],
};

const messages = (text: string, options?: LintOptions) =>
  lint(text, options)
    .map((d) => d.message)
    .sort();

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'obs-lint-hint-'));
  writeFileSync(join(dir, 'api.trigger.json'), ON_API);
  writeFileSync(join(dir, 'none.trigger.json'), NO_SLUG);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('obs lint names its flag (and the editor setting), as it always has', async () => {
  let stdout = '';
  const code = await runCli(['lint', '--format', 'json', 'api.trigger.json', 'none.trigger.json'], {
    cwd: dir,
    stdout: (t) => (stdout += t),
    stderr: () => undefined,
  });
  assert.equal(code, 1);
  const reports = JSON.parse(stdout) as { diagnostics: { message: string }[] }[];
  assert.deepEqual(
    reports.map((r) => r.diagnostics.map((d) => d.message).sort()),
    [SAID.onApi, SAID.noSlug],
  );
});

test('the editor names its setting (and the flag), as it always has', () => {
  const options: LintOptions = { metricsDatasets: [], metricsDatasetHint: EDITOR_METRICS_DATASET_HINT };
  assert.deepEqual(messages(ON_API, options), SAID.onApi);
  assert.deepEqual(messages(NO_SLUG, options), SAID.noSlug);
});

test('without a hint the messages name neither a flag nor a setting', () => {
  assert.deepEqual(messages(ON_API), [
    'COUNT_DATAPOINTS needs a metrics dataset, and dataset api is standard; if api is a metrics dataset, declare it as one to the linter',
    'granularity is supported only on metrics datasets and dataset api is standard; if api is a metrics dataset, declare it as one to the linter',
  ]);
  assert.deepEqual(messages(NO_SLUG, { metricsDatasets: ['otel-metrics'] }), [
    'COUNT_DATAPOINTS needs a metrics dataset, and the dataset (no dataset_slug) is standard; if the dataset is a metrics dataset, give dataset_slug and declare it as one to the linter',
    'granularity is supported only on metrics datasets and the dataset is standard; if the dataset is a metrics dataset, give dataset_slug and declare it as one to the linter',
  ]);
});

test('each call gets its own hint, whatever was linted before with the same datasets', () => {
  const own = (slug: string | undefined) => `ask about ${slug ?? 'no slug'}`;
  const datasets = { metricsDatasets: ['otel-metrics'] };
  assert.ok(
    messages(ON_API, { ...datasets, metricsDatasetHint: own }).every((m) =>
      m.endsWith('; if api is a metrics dataset, ask about api'),
    ),
  );
  assert.ok(
    messages(ON_API, datasets).every((m) =>
      m.endsWith('; if api is a metrics dataset, declare it as one to the linter'),
    ),
  );
  assert.ok(
    messages(ON_API, { ...datasets, metricsDatasetHint: EDITOR_METRICS_DATASET_HINT }).every((m) =>
      m.endsWith('(editor setting obs.metricsDatasets)'),
    ),
  );
  assert.deepEqual(messages(ON_API, { metricsDatasets: ['api'], metricsDatasetHint: own }), []);
});
