// obs lint --env (docs/ENVIRONMENTS.md): the trigger files checked as the environment sees them, each problem at
// the place a person fixes it: a member the environment's override set, at that override in obs.environments.json;
// any other, at the member in the trigger file; an override naming no trigger of a folder's files, at its place.
// The same places in text, JSON, SARIF and GitHub annotations. No service is asked without --columns-from-service.
import { after, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runObs } from './obs-run';

const TRIGGER = `{
  "dataset_slug": "api-gateway",
  "name": "High error rate",
  "threshold": { "op": ">", "value": 5 },
  "frequency": 300,
  "recipients": [{ "id": "rcp_oncall", "type": "email", "target": "oncall@example.com" }],
  "query": {
    "calculations": [{ "op": "COUNT" }],
    "time_range": 1200
  }
}
`;

// Production's override sets an operator the service refuses and a frequency the file's time_range is too long
// for; "Hgh error rate" names no trigger.
const ENVIRONMENTS = `{
  "home": "staging",
  "environments": {
    "staging": {},
    "production": {
      "triggers": {
        "api-gateway": {
          "High error rate": { "threshold": { "op": "=>" }, "frequency": 60 },
          "Hgh error rate": { "disabled": true }
        }
      }
    }
  }
}
`;

const FILE = 'triggers/api-gateway/High-error-rate.trigger.json';
let dir = '';
beforeEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-lint-env-'));
  mkdirSync(join(dir, 'triggers', 'api-gateway'), { recursive: true });
  writeFileSync(join(dir, FILE), TRIGGER);
  writeFileSync(join(dir, 'obs.environments.json'), ENVIRONMENTS);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const lint = (...argv: string[]) => runObs(['lint', ...argv], { cwd: dir, env: {} });

const TIME_RANGE = 'time_range 1200 exceeds 240 = 4 x frequency 60; expected 60 (the frequency) to 240 (4 x frequency)';
const OP = 'threshold op "=>" is not allowed; expected one of >, >=, <, <=';
const UNUSED =
  'production overrides "Hgh error rate" of api-gateway, but no trigger file holds a trigger of that name: ' +
  'a misspelt name leaves the trigger it means as its file holds it';

test('a problem with a member the override set is at the override, any other at the trigger file', async () => {
  const r = await lint('--env', 'production', 'triggers');
  assert.equal(r.stderr, '');
  assert.equal(r.code, 1);
  assert.equal(
    r.stdout,
    `${FILE}:9:5 error query/time-range-max ${TIME_RANGE}\n` +
      `obs.environments.json:8:47 error trigger/threshold-op ${OP}\n` +
      `obs.environments.json:9:11 error environments/file ${UNUSED}\n` +
      '2 files checked: 3 errors, 0 warnings, 0 infos\n',
  );
});

test('the home environment sees the files as they are: no override, no problem', async () => {
  const r = await lint('--env', 'staging', 'triggers');
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, '1 file checked: 0 errors, 0 warnings, 0 infos\n', '']);
});

test('a file named on its own checks no override against the rest of its dataset', async () => {
  const r = await lint('--env', 'production', FILE);
  assert.equal(
    r.stdout,
    `${FILE}:9:5 error query/time-range-max ${TIME_RANGE}\n` +
      `obs.environments.json:8:47 error trigger/threshold-op ${OP}\n` +
      '2 files checked: 2 errors, 0 warnings, 0 infos\n',
  );
});

test('linting the environments file too adds the diagnostics to its one report', async () => {
  const r = await lint('--env', 'production', 'triggers', 'obs.environments.json');
  assert.equal(
    r.stdout,
    `${FILE}:9:5 error query/time-range-max ${TIME_RANGE}\n` +
      `obs.environments.json:8:47 error trigger/threshold-op ${OP}\n` +
      `obs.environments.json:9:11 error environments/file ${UNUSED}\n` +
      '2 files checked: 3 errors, 0 warnings, 0 infos\n',
  );
});

test('in JSON each diagnostic has the range of its place', async () => {
  const r = await lint('--env', 'production', '--format', 'json', FILE);
  const reports = JSON.parse(r.stdout) as { file: string; diagnostics: { rule: string; range: unknown }[] }[];
  assert.deepEqual(
    reports.map((f) => [f.file, f.diagnostics.map((d) => [d.rule, d.range])]),
    [
      [FILE, [['query/time-range-max', { start: { line: 8, character: 4 }, end: { line: 8, character: 22 } }]]],
      [
        'obs.environments.json',
        [['trigger/threshold-op', { start: { line: 7, character: 46 }, end: { line: 7, character: 56 } }]],
      ],
    ],
  );
});

test('in SARIF the override problem is a result located in the environments file', async () => {
  const r = await lint('--env', 'production', '--format', 'sarif', FILE);
  const sarif = JSON.parse(r.stdout) as {
    runs: {
      results: {
        ruleId: string;
        locations: { physicalLocation: { artifactLocation: { uri: string }; region: unknown } }[];
      }[];
    }[];
  };
  const located = (sarif.runs[0]?.results ?? []).map((x) => [
    x.ruleId,
    x.locations[0]?.physicalLocation.artifactLocation.uri,
    x.locations[0]?.physicalLocation.region,
  ]);
  assert.deepEqual(located, [
    ['query/time-range-max', FILE, { startLine: 9, startColumn: 5, endLine: 9, endColumn: 23 }],
    ['trigger/threshold-op', 'obs.environments.json', { startLine: 8, startColumn: 47, endLine: 8, endColumn: 57 }],
  ]);
});

test('--format github annotates the override at its line in the environments file', async () => {
  const r = await lint('--env', 'production', '--format', 'github', FILE);
  const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::'));
  assert.deepEqual(
    annotations.map((a) => a.slice(0, a.indexOf(',title='))),
    [
      `::error file=${FILE},line=9,col=5,endLine=9,endColumn=23`,
      '::error file=obs.environments.json,line=8,col=47,endLine=8,endColumn=57',
    ],
  );
});

test('an environment the file does not hold stops the run before anything is checked, exit 2', async () => {
  const r = await lint('--env', 'prod', 'triggers');
  assert.deepEqual(
    [r.code, r.stdout, r.stderr],
    [
      2,
      '',
      'obs: obs.environments.json has no environment "prod" (its environments: staging, production); ' +
        'nothing was checked\n',
    ],
  );
});

test('a recipient named by id alone is an error at the trigger’s recipients: production cannot tell it', async () => {
  writeFileSync(join(dir, FILE), TRIGGER.replace(', "type": "email", "target": "oncall@example.com"', ''));
  writeFileSync(
    join(dir, 'obs.environments.json'),
    ENVIRONMENTS.replace(/"triggers": \{[^]*\n {6}\}/, '"triggers": {}'),
  );
  const r = await lint('--env', 'production', FILE);
  assert.equal(
    r.stdout,
    `${FILE}:6:3 error trigger/recipient recipient "rcp_oncall" is named by id alone: give its type and target, ` +
      'which every environment can resolve\n' +
      '1 file checked: 1 error, 0 warnings, 0 infos\n',
  );
});
