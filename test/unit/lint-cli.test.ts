// obs lint: exit codes, the text, JSON and SARIF reports, unreadable files and globs; through the
// function, and through the real entry point in a child process.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvDraft4 from 'ajv-draft-04';
import { runMain as runCli, usage } from '../../src/cli/main';
import { expandGlob } from '../../src/cli/files';
import { globToRegExp } from './glob-dialect';
import { RULES, ruleDocsAnchor } from '../../src/lint';
import { trigger } from './lint-helpers';

const root = join(import.meta.dirname, '..', '..');
let dir = '';

const VALID = trigger();
const WITH_ERROR = trigger('"frequency": 90');
const WITH_WARNING = trigger('"recipients": [{ "type": "email", "target": "ops@example.com" }]');

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'obs-lint-'));
  mkdirSync(join(dir, 'team', 'api'), { recursive: true });
  mkdirSync(join(dir, 'node_modules', 'pkg'), { recursive: true });
  writeFileSync(join(dir, 'valid.trigger.json'), VALID);
  writeFileSync(join(dir, 'team', 'error.trigger.json'), WITH_ERROR);
  writeFileSync(join(dir, 'team', 'api', 'warning.trigger.json'), WITH_WARNING);
  writeFileSync(join(dir, 'team', 'notes.json'), VALID);
  writeFileSync(join(dir, 'node_modules', 'pkg', 'x.trigger.json'), '{');
  writeFileSync(join(dir, 'bom.trigger.json'), `\uFEFF${WITH_ERROR}`);
  mkdirSync(join(dir, 'odd'));
  writeFileSync(join(dir, 'odd', 'a[1].json'), WITH_ERROR);
  // Files that cannot be read: a FIFO named on its own, and one a walk meets.
  mkdirSync(join(dir, 'fifo'));
  mkdirSync(join(dir, 'pipes'));
  assert.equal(spawnSync('mkfifo', [join(dir, 'fifo', 'named.json'), join(dir, 'pipes', 'p.trigger.json')]).status, 0);
  writeFileSync(
    join(dir, 'metrics.trigger.json'),
    trigger('"dataset_slug": "m1"', '"query": { "calculations": [{ "op": "COUNT_DATAPOINTS" }], "time_range": 1800 }'),
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { cwd: dir, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('exit status', () => {
  test('0 when no file has an error (warnings allowed)', async () => {
    assert.equal((await run('lint', 'valid.trigger.json', 'team/api/warning.trigger.json')).code, 0);
  });
  test('1 when a file has an error', async () => {
    assert.equal((await run('lint', 'valid.trigger.json', 'team/error.trigger.json')).code, 1);
  });
  test('2 and the file named when a file cannot be read', async () => {
    const r = await run('lint', 'valid.trigger.json', 'fifo/named.json');
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      'obs: cannot read fifo/named.json: is not a regular file (a device, FIFO or socket): only files are read\n',
    );
  });
  test('2 with the usage for an unknown option', async () => {
    const r = await run('lint', '--colour', 'valid.trigger.json');
    assert.equal(r.code, 2);
    assert.ok(r.stderr.startsWith("obs: Unknown option '--colour'"), r.stderr);
    assert.ok(r.stderr.includes(usage()));
  });
  test('2 for an unknown format, a missing command or no files', async () => {
    assert.equal(
      (await run('lint', '--format', 'xml', 'valid.trigger.json')).stderr.split('\n')[0],
      'obs: unknown format "xml"; use text, json, sarif or github',
    );
    assert.equal(
      (await run('valid.trigger.json')).stderr.split('\n')[0],
      'obs: unknown command "valid.trigger.json"; the commands are lint, pull, drift, plan, apply, review, test, noise and mcp',
    );
    assert.equal(
      (await run('lint')).stderr.split('\n')[0],
      'obs: no files given; name trigger files, folders or globs',
    );
  });
  test('2 for a glob that matches nothing', async () => {
    const r = await run('lint', 'nothing/**/*.trigger.json');
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'obs: no file matches nothing/**/*.trigger.json\n');
  });
  test('2 for a glob that matches nothing, even beside files that lint clean', async () => {
    const r = await run('lint', 'valid.trigger.json', '*.yaml');
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'obs: no file matches *.yaml\n');
  });
  test('--help prints the usage and exits 0', async () => {
    const r = await run('--help');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, usage());
  });
});

describe('text format', () => {
  test('file:line:col severity rule message, 1-based, and a summary', async () => {
    const r = await run('lint', 'team/error.trigger.json');
    assert.equal(
      r.stdout,
      'team/error.trigger.json:3:3 error trigger/frequency frequency 90 is not a multiple of 60; expected a whole number of seconds from 60 to 86400, a multiple of 60\n' +
        '1 file checked: 1 error, 0 warnings, 0 infos\n',
    );
  });
  test('a byte order mark does not shift columns', async () => {
    assert.ok(
      (await run('lint', 'bom.trigger.json')).stdout.startsWith('bom.trigger.json:3:3 error trigger/frequency'),
    );
  });
});

describe('json format', () => {
  test('one array, one element per file in the order given', async () => {
    const r = await run('lint', '--format', 'json', 'team/error.trigger.json', 'valid.trigger.json', 'fifo/named.json');
    assert.deepEqual(JSON.parse(r.stdout), [
      {
        file: 'team/error.trigger.json',
        diagnostics: [
          {
            rule: 'trigger/frequency',
            severity: 'error',
            message:
              'frequency 90 is not a multiple of 60; expected a whole number of seconds from 60 to 86400, a multiple of 60',
            range: { start: { line: 2, character: 2 }, end: { line: 2, character: 17 } },
          },
        ],
      },
      { file: 'valid.trigger.json', diagnostics: [] },
      {
        file: 'fifo/named.json',
        error: 'is not a regular file (a device, FIFO or socket): only files are read',
        diagnostics: [],
      },
    ]);
  });
  test('--metrics-dataset makes a dataset a metrics dataset', async () => {
    const standard = JSON.parse((await run('lint', '--format', 'json', 'metrics.trigger.json')).stdout) as {
      diagnostics: { rule: string }[];
    }[];
    assert.deepEqual(
      standard[0]?.diagnostics.map((d) => d.rule),
      ['query/calculation-op-metrics-only'],
    );
    const metrics = await run(
      'lint',
      '--format',
      'json',
      '--metrics-dataset',
      'm0',
      '--metrics-dataset',
      'm1',
      'metrics.trigger.json',
    );
    assert.equal(metrics.code, 0);
    assert.deepEqual(JSON.parse(metrics.stdout), [{ file: 'metrics.trigger.json', diagnostics: [] }]);
  });
});

describe('globs', () => {
  test('**/*.trigger.json finds files at every depth, sorted, without node_modules', async () => {
    const r = await run('lint', '--format', 'json', '**/*.trigger.json');
    const files = (JSON.parse(r.stdout) as { file: string }[]).map((f) => f.file);
    assert.deepEqual(files, [
      'bom.trigger.json',
      'metrics.trigger.json',
      'team/api/warning.trigger.json',
      'team/error.trigger.json',
      'valid.trigger.json',
    ]);
  });
  test('a file named twice is linted once', async () => {
    const r = await run('lint', '--format', 'json', 'team/*.json', 'team/error.trigger.json');
    assert.deepEqual(
      (JSON.parse(r.stdout) as { file: string }[]).map((f) => f.file),
      ['team/error.trigger.json', 'team/notes.json'],
    );
  });
  test('the matcher: *, **, ?, classes, braces, dot files', () => {
    const re = globToRegExp('**/*.trigger.json');
    assert.ok(re.test('a.trigger.json'));
    assert.ok(re.test('a/b/c.trigger.json'));
    assert.ok(!re.test('a/.hidden/c.trigger.json'));
    assert.ok(!re.test('.c.trigger.json'));
    assert.ok(!re.test('a.trigger.jsonx'));
    assert.ok(globToRegExp('t?.{json,jsonc}').test('t1.jsonc'));
    assert.ok(!globToRegExp('t?.{json,jsonc}').test('t12.json'));
    assert.ok(globToRegExp('[ab]*.json').test('b1.json'));
    assert.ok(!globToRegExp('[!ab]*.json').test('b1.json'));
  });
  test('a path with glob characters that names a file is linted as written', async () => {
    const r = await run('lint', '--format', 'json', 'odd/a[1].json');
    assert.equal(r.code, 1);
    assert.deepEqual(
      (JSON.parse(r.stdout) as { file: string; diagnostics: { rule: string }[] }[]).map((f) => [
        f.file,
        f.diagnostics.map((d) => d.rule),
      ]),
      [['odd/a[1].json', ['trigger/frequency']]],
    );
  });
  test('a glob with a directory prefix keeps it in the paths', async () => {
    assert.deepEqual((await expandGlob('team/**/*.trigger.json', dir)).files, [
      'team/api/warning.trigger.json',
      'team/error.trigger.json',
    ]);
  });
});

describe('sarif format', () => {
  // The OASIS schema, kept in the repository (test/fixtures/sarif/README.md says where it comes from).
  const schemaFile = join(root, 'test', 'fixtures', 'sarif', 'sarif-schema-2.1.0.json');
  const sarifSchema = JSON.parse(readFileSync(schemaFile, 'utf8')) as object;

  function validator() {
    const ajv = new AjvDraft4({ allErrors: true, strict: false });
    ajv.addFormat('uri', (s: string) => URL.canParse(s));
    ajv.addFormat('uri-reference', (s: string) => URL.canParse(s, 'file:///'));
    ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
    return ajv.compile(sarifSchema);
  }

  test('validates against the SARIF 2.1.0 schema, with results, fixes and an unreadable file', async () => {
    const r = await run(
      'lint',
      '--format',
      'sarif',
      'team/error.trigger.json',
      'team/api/warning.trigger.json',
      'fifo/named.json',
    );
    assert.equal(r.code, 2);
    const validate = validator();
    const log = JSON.parse(r.stdout) as unknown;
    assert.equal(validate(log), true, JSON.stringify(validate.errors, null, 2));
  });

  test("what a glob's walk could not read is an error notification of a valid log", async () => {
    const r = await run('lint', '--format', 'sarif', 'valid.trigger.json', 'pipes/*.json');
    assert.equal(r.code, 2);
    const log = JSON.parse(r.stdout) as {
      runs: { invocations: { executionSuccessful: boolean; toolExecutionNotifications: unknown[] }[] }[];
    };
    const validate = validator();
    assert.equal(validate(log), true, JSON.stringify(validate.errors, null, 2));
    assert.deepEqual(log.runs[0]?.invocations, [
      {
        executionSuccessful: false,
        toolExecutionNotifications: [
          {
            level: 'error',
            message: {
              text: 'cannot read pipes/p.trigger.json: it is not a regular file (a FIFO, socket or device): only files are read',
            },
          },
        ],
      },
    ]);
  });

  test('describes every rule with its help link and level', async () => {
    const log = JSON.parse((await run('lint', '--format', 'sarif', 'valid.trigger.json')).stdout) as {
      version: string;
      runs: {
        tool: { driver: { rules: { id: string; helpUri: string; defaultConfiguration: { level: string } }[] } };
      }[];
    };
    assert.equal(log.version, '2.1.0');
    const rules = log.runs[0]?.tool.driver.rules ?? [];
    assert.deepEqual(
      rules.map((r) => r.id),
      RULES.map((r) => r.id),
    );
    const max = rules.find((r) => r.id === 'query/time-range-max');
    assert.equal(
      max?.helpUri,
      `https://example.invalid/obs-vscode/blob/main/docs/rules.md#${ruleDocsAnchor('query/time-range-max')}`,
    );
    assert.equal(rules.find((r) => r.id === 'trigger/read-only-member')?.defaultConfiguration.level, 'note');
  });

  test('results carry 1-based regions', async () => {
    const log = JSON.parse((await run('lint', '--format', 'sarif', 'team/error.trigger.json')).stdout) as {
      runs: {
        results: {
          ruleId: string;
          level: string;
          locations: { physicalLocation: { artifactLocation: { uri: string }; region: object } }[];
        }[];
      }[];
    };
    const [result] = log.runs[0]?.results ?? [];
    assert.equal(result?.ruleId, 'trigger/frequency');
    assert.equal(result?.level, 'error');
    assert.deepEqual(result?.locations[0]?.physicalLocation.artifactLocation.uri, 'team/error.trigger.json');
    assert.deepEqual(result?.locations[0]?.physicalLocation.region, {
      startLine: 3,
      startColumn: 3,
      endLine: 3,
      endColumn: 18,
    });
  });
});

describe('the entry point in a child process', () => {
  // Runs from the repository (where tsx resolves) on files of the temporary directory.
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join('src', 'cli', 'obs.ts'), ...args], {
      cwd: root,
      encoding: 'utf8',
    });

  test('exits 1 with the text report for a file with an error', () => {
    const file = join(dir, 'team', 'error.trigger.json');
    const r = cli(['lint', file]);
    assert.equal(r.status, 1);
    assert.ok(r.stdout.startsWith(`${file}:3:3 error trigger/frequency`), r.stdout);
  });

  test('exits 2 naming an unreadable file, 0 for a clean glob', () => {
    const missing = join(dir, 'missing.json');
    const r = cli(['lint', missing]);
    assert.equal(r.status, 2);
    assert.equal(r.stderr, `obs: ${missing}: no such file or folder\n`);
    assert.equal(cli(['lint', `${dir}/valid*.json`]).status, 0);
  });
});

const bundle = join(root, 'dist', 'cli.js');
test(
  'the bundle dist/cli.js prints the JSON report and exits 1',
  { skip: existsSync(bundle) ? false : 'dist/cli.js is not built (npm test builds it)' },
  () => {
    const file = join(dir, 'team', 'error.trigger.json');
    const r = spawnSync(process.execPath, [bundle, 'lint', '--format', 'json', file], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.deepEqual(
      (JSON.parse(r.stdout) as { file: string; diagnostics: { rule: string }[] }[]).map((f) => [
        f.file,
        f.diagnostics.map((d) => d.rule),
      ]),
      [[file, ['trigger/frequency']]],
    );
  },
);
