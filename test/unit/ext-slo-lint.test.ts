// Burn alert and definitions files in the editor: the lint worker's jobs lint them by their own rules, told apart
// by the name of the file the host lints, fix all applies their sure fixes, and the settings that find them
// read as their defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runLintJob } from '../../src/extension/diagnostics/lintJobs';
import { sloFileKind } from '../../src/lint/sloKinds';
import {
  DEFAULT_BURN_ALERT_FILES,
  DEFAULT_DEFINITIONS_FILES,
  Settings,
  type ConfigurationSource,
} from '../../src/extension/core/settings';

/** A burn alert file's URI, as the host names the file it lints. */
const URI = 'file:///w/burn-alerts/checkout/Checkout-availability.exhaustion-240min.burn-alert.json';

const ALERT = `{
  "id": "ba_1",
  "dataset_slug": "checkout",
  "slo": { "id": "slo_1", "name": "Checkout availability" },
  "alert_type": "exhaustion_time",
  "exhaustion_minutes": 240,
  "triggered": true,
  "recipients": [{ "id": "rcp_1" }]
}`;

test('the kind of a file comes from its name or URI, in any letter case', () => {
  assert.deepEqual(
    [
      sloFileKind('file:///w/burn-alerts/api/SLO.exhaustion-240min.burn-alert.json'),
      sloFileKind('C:\\w\\definitions\\API.DEFINITIONS.JSON'),
      sloFileKind('triggers/api/x.trigger.json'),
    ],
    ['burn-alert', 'definitions', undefined],
  );
});

test('a lint job of a burn alert file reports the burn alert rules, not the trigger rules', () => {
  const result = runLintJob({ kind: 'lint', input: ALERT, options: { metricsDatasets: [], fileName: URI } });
  assert.deepEqual(result.kind === 'lint' ? result.diagnostics.map((d) => d.rule) : [], [
    'burn-alert/read-only-member',
  ]);
});

test("a fix-all job of a burn alert file removes the members the service sets, the file's text otherwise kept", () => {
  const result = runLintJob({ kind: 'fixAll', text: ALERT, options: { metricsDatasets: [], fileName: URI } });
  assert.ok(result.kind === 'fixAll' && result.edit !== undefined);
  const lines = ALERT.split('\n');
  const fixed = [...lines.slice(0, 6), ...lines.slice(7)].join('\n');
  const { range, newText } = result.edit;
  const offsetOf = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  assert.equal(ALERT.slice(0, offsetOf(range.start)) + newText + ALERT.slice(offsetOf(range.end)), fixed);
});

test('a lint job of a definitions file given as bytes names its dataset, for the live columns', () => {
  const bytes = new TextEncoder().encode('{ "dataset_slug": "checkout", "definitions": { "route": null } }');
  const result = runLintJob({
    kind: 'lint',
    input: bytes,
    options: { metricsDatasets: [], fileName: 'file:///w/definitions/checkout.definitions.json' },
  });
  assert.deepEqual(result.kind === 'lint' ? [result.diagnostics, result.datasets] : [], [[], ['checkout']]);
});

test('obs.burnAlertFiles and obs.definitionsFiles read as their defaults when unset or not a list', () => {
  const values: Record<string, unknown> = { 'obs.definitionsFiles': 'x' };
  const source: ConfigurationSource = {
    get: (key) => values[key],
    inspect: () => undefined,
    update: () => Promise.resolve(),
    onDidChange: () => ({ dispose: () => undefined }),
  };
  const s = new Settings(source);
  assert.deepEqual(
    [s.burnAlertFiles(), s.definitionsFiles()],
    [[...DEFAULT_BURN_ALERT_FILES], [...DEFAULT_DEFINITIONS_FILES]],
  );
});
