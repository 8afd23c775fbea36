// obs lint of the environments file (docs/ENVIRONMENTS.md): each mistake at its place, in text and in SARIF, by
// the rule environments/file; and the JSON Schema the editor completes and hovers it with, generated and registered.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { environmentsJsonSchemaText, ENVIRONMENTS_SCHEMA_PATH } from '../../src/triggerFiles/environmentsSchema';
import { runObs } from './obs-run';

const root = join(import.meta.dirname, '..', '..');
let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'obs-lint-env-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const MISTAKEN = `{
  "home": "staging",
  "environments": {
    "staging": {},
    "production": {
      "datasets": { "checkout": "checkout-prod", "billing": "checkout-prod" }
    }
  }
}
`;

test('a dataset map that is not one to one is an error at the second member, exit 1', async () => {
  writeFileSync(join(dir, 'obs.environments.json'), MISTAKEN);
  const r = await runObs(['lint', 'obs.environments.json'], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(
    r.stdout,
    'obs.environments.json:6:50 error environments/file billing and checkout are both mapped to checkout-prod\n' +
      '1 file checked: 1 error, 0 warnings, 0 infos\n',
  );
});

test('in SARIF the mistake is located at its member of the environments file', async () => {
  writeFileSync(join(dir, 'obs.environments.json'), MISTAKEN);
  const r = await runObs(['lint', '--format', 'sarif', 'obs.environments.json'], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  const sarif = JSON.parse(r.stdout) as {
    runs: { results: { ruleId: string; locations: { physicalLocation: { region: unknown } }[] }[] }[];
  };
  const [result] = sarif.runs[0]?.results ?? [];
  assert.equal(result?.ruleId, 'environments/file');
  assert.deepEqual(result.locations[0]?.physicalLocation.region, {
    startLine: 6,
    startColumn: 50,
    endLine: 6,
    endColumn: 76,
  });
});

test("the demo workspace's environments file lints clean", async () => {
  const r = await runObs(['lint', 'obs.environments.json'], { cwd: join(root, 'demo', 'workspace') });
  assert.deepEqual([r.code, r.stdout], [0, '1 file checked: 0 errors, 0 warnings, 0 infos\n']);
});

test('the environments file gets its schema in the editor by its name, and the schema is the one generated', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes: { jsonValidation: { fileMatch: string[]; url: string }[] };
  };
  assert.deepEqual(
    manifest.contributes.jsonValidation.find((v) => v.url === `./${ENVIRONMENTS_SCHEMA_PATH}`)?.fileMatch,
    ['obs.environments.json'],
  );
  assert.equal(readFileSync(join(root, ENVIRONMENTS_SCHEMA_PATH), 'utf8'), environmentsJsonSchemaText());
});
