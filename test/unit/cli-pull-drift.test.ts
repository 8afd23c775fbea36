// obs pull, drift and lint --columns-from-service against the sandbox: exit statuses, reports,
// files never overwritten without --force, credentials from the environment only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandOf } from '../../src/cli/main';
import { DEMO } from '../../src/sandbox';
import { pathKey } from '../../src/triggerFiles';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

let sandbox: TestSandbox;
let env: Record<string, string>;
let dir = '';

before(async () => {
  sandbox = await startTestSandbox();
  env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
});
after(async () => {
  await sandbox.handle.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-cli-'));
  return dir;
}

async function run(argv: string[], over: { env?: Record<string, string>; cwd?: string } = {}) {
  return runObs(argv, { cwd: over.cwd ?? dir, env: over.env ?? env });
}

const GATEWAY_FILES = [
  '5xx-from-a-saved-query.trigger.json',
  'High-error-rate.trigger.json',
  'Legacy-settings-linter-warnings-on-purpose.trigger.json',
  'Office-hours-latency.trigger.json',
  'Server-errors-every-interval.trigger.json',
  'Slow-routes-disabled.trigger.json',
  'Traffic-up-against-yesterday.trigger.json',
];

test('the command is the first word that is not an option or an option value', () => {
  assert.equal(commandOf(['--format', 'json', 'drift', 'a.json']), 'drift');
  assert.equal(commandOf(['--dataset', 'pull', 'pull']), 'pull');
  assert.equal(commandOf(['--help']), undefined);
});

describe('pull', () => {
  test('writes one canonical file per trigger of the dataset and reports them; a second pull writes nothing', async () => {
    freshDir();
    const r = await run(['pull', '--dataset', DEMO.datasets.gateway]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(join(dir, 'triggers', DEMO.datasets.gateway)).sort(), GATEWAY_FILES.sort());
    assert.equal(r.stdout.split('\n').filter((l) => l.startsWith('wrote triggers/api-gateway/')).length, 7);
    assert.ok(r.stdout.endsWith('7 written, 0 unchanged, 0 skipped\n'), r.stdout);
    assert.equal(r.stderr, 'obs: listed 7 triggers of api-gateway\n');
    const again = await run(['pull', '--dataset', DEMO.datasets.gateway]);
    assert.deepEqual([again.code, again.stdout], [0, '0 written, 7 unchanged, 0 skipped\n']);
  });

  test('a file edited locally is left alone and named (exit 1), and overwritten with --force', async () => {
    freshDir();
    await run(['pull', '--dataset', DEMO.datasets.gateway, '--out', 'conf']);
    const file = join(dir, 'conf', DEMO.datasets.gateway, 'High-error-rate.trigger.json');
    const pulled = readFileSync(file, 'utf8');
    const edited = pulled.replace('"value": 5\n', '"value": 50\n');
    writeFileSync(file, edited);
    const refused = await run(['pull', '--dataset', DEMO.datasets.gateway, '--out', 'conf']);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stdout,
      'skipped conf/api-gateway/High-error-rate.trigger.json: it differs from the service (--force overwrites it)\n0 written, 6 unchanged, 1 skipped\n',
    );
    assert.equal(readFileSync(file, 'utf8'), edited);
    const forced = await run(['pull', '--dataset', DEMO.datasets.gateway, '--out', 'conf', '--force']);
    assert.deepEqual(
      [forced.code, forced.stdout],
      [0, 'wrote conf/api-gateway/High-error-rate.trigger.json\n1 written, 6 unchanged, 0 skipped\n'],
    );
    assert.equal(readFileSync(file, 'utf8'), pulled);
  });

  test('a trigger file that is a link to an edited file is compared like a regular file: left alone and named (exit 1), written through with --force', async () => {
    freshDir();
    await run(['pull', '--dataset', DEMO.datasets.gateway]);
    const gw = join(dir, 'triggers', DEMO.datasets.gateway);
    const pulled = readFileSync(join(gw, 'High-error-rate.trigger.json'), 'utf8');
    const edited = pulled.replace('"value": 5\n', '"value": 50\n');
    writeFileSync(join(gw, 'mine.json'), edited);
    rmSync(join(gw, 'High-error-rate.trigger.json'));
    symlinkSync('mine.json', join(gw, 'High-error-rate.trigger.json'));
    const refused = await run(['pull', '--dataset', DEMO.datasets.gateway]);
    assert.deepEqual(
      [refused.code, refused.stdout],
      [
        1,
        'skipped triggers/api-gateway/High-error-rate.trigger.json: it differs from the service (--force overwrites it)\n0 written, 6 unchanged, 1 skipped\n',
      ],
    );
    assert.ok(lstatSync(join(gw, 'High-error-rate.trigger.json')).isSymbolicLink());
    assert.equal(readFileSync(join(gw, 'mine.json'), 'utf8'), edited);
    const forced = await run(['pull', '--dataset', DEMO.datasets.gateway, '--force']);
    assert.deepEqual(
      [forced.code, forced.stdout],
      [0, 'wrote triggers/api-gateway/High-error-rate.trigger.json\n1 written, 6 unchanged, 0 skipped\n'],
    );
    assert.ok(lstatSync(join(gw, 'High-error-rate.trigger.json')).isSymbolicLink(), 'the link is kept');
    assert.equal(readFileSync(join(gw, 'mine.json'), 'utf8'), pulled);
  });

  test('a dataset folder that is a link leading outside --out gets no write: each trigger named, exit 2', async () => {
    freshDir();
    await run(['pull', '--dataset', DEMO.datasets.checkout, '--out', 'elsewhere']);
    const before = readdirSync(join(dir, 'elsewhere', DEMO.datasets.checkout)).sort();
    renameSync(join(dir, 'elsewhere', DEMO.datasets.checkout), join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', before[0] ?? ''), 'mine');
    symlinkSync(join(dir, 'outside'), join(dir, 'elsewhere', DEMO.datasets.checkout));
    const r = await run(['pull', '--dataset', DEMO.datasets.checkout, '--out', 'elsewhere', '--force']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '0 written, 0 unchanged, 0 skipped, 2 failed\n');
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('obs: could not write'));
    assert.equal(lines.length, 2);
    for (const l of lines)
      assert.match(
        l,
        /: the folder checkout-service is a link leading outside the folder pulled into \(to .*\/outside\); pull writes only inside it$/,
      );
    assert.equal(readFileSync(join(dir, 'outside', before[0] ?? ''), 'utf8'), 'mine');
  });

  test('a service trigger nested 2,000 levels deep is refused alone (exit 2); the others are written; names that differ only in case get different files', async () => {
    freshDir();
    const triggers = sandbox.handle.state.triggers;
    const model = triggers.find((t) => t.dataset_slug === DEMO.datasets.checkout);
    assert.ok(model);
    let value: unknown = 500;
    for (let i = 0; i < 2_000; i++) value = { v: value };
    const added = [
      {
        ...model,
        id: 'trig_deep',
        name: 'Deep',
        query: { calculations: [{ op: 'COUNT' }], filters: [{ column: 'status', op: '=', value }], time_range: 900 },
      },
      { ...model, id: 'trig_case_1', name: 'High-Latency' },
      { ...model, id: 'trig_case_2', name: 'High-latency' },
    ];
    triggers.push(...added);
    try {
      const r = await run(['pull', '--dataset', DEMO.datasets.checkout]);
      assert.equal(r.code, 2);
      assert.ok(
        r.stderr.includes(
          "obs: could not write triggers/checkout-service/Deep.trigger.json: the service's trigger is nested more than 64 levels deep (in query); trigger files hold at most 64 levels\n",
        ),
        r.stderr,
      );
      assert.ok(r.stdout.endsWith('4 written, 0 unchanged, 0 skipped, 1 failed\n'), r.stdout);
      const files = readdirSync(join(dir, 'triggers', DEMO.datasets.checkout));
      assert.equal(files.length, 4);
      assert.equal(new Set(files.map(pathKey)).size, 4, files.join(', '));
      assert.ok(
        files.includes('High-latency.trigger.json') && files.includes('High-Latency-trig_case_1.trigger.json'),
        files.join(', '),
      );
    } finally {
      for (const t of added) triggers.splice(triggers.indexOf(t), 1);
    }
  });

  test('a temporary file an interrupted pull left behind is removed by a later pull, which says so', async () => {
    freshDir();
    await run(['pull', '--dataset', DEMO.datasets.gateway]);
    const stale = join(dir, 'triggers', DEMO.datasets.gateway, 'High-error-rate.trigger.json.5eadbeef.tmp');
    writeFileSync(stale, '{"id": "trig_gw_');
    const hourAgo = Date.now() / 1000 - 3600;
    utimesSync(stale, hourAgo, hourAgo);
    const r = await run(['pull', '--dataset', DEMO.datasets.gateway]);
    assert.deepEqual([r.code, r.stdout], [0, '0 written, 7 unchanged, 0 skipped, 1 stale temporary file removed\n']);
    assert.equal(existsSync(stale), false);
  });

  test('--all writes every trigger of the environment, environment-wide ones under __all__', async () => {
    freshDir();
    const r = await run(['pull', '--all']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(join(dir, 'triggers')).sort(), [
      '__all__',
      'api-gateway',
      'checkout-service',
      'metrics-hosts',
      'zz-hostile-strings',
    ]);
    assert.ok(r.stdout.endsWith(`${Object.keys(DEMO.triggers).length} written, 0 unchanged, 0 skipped\n`));
  });

  test('a dataset the service does not know is named and the exit status is 2', async () => {
    freshDir();
    const r = await run(['pull', '--dataset', 'no-such-dataset']);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      'obs: could not list the triggers of no-such-dataset: the service has no dataset no-such-dataset\n',
    );
  });

  test('usage: nothing to pull, a file name, a bad --concurrency (exit 2 with the usage)', async () => {
    freshDir();
    for (const [argv, first] of [
      [['pull'], 'obs: name the datasets to pull with --dataset SLUG, or pull everything with --all'],
      [['pull', '--all', 'x.json'], 'obs: pull takes no file names (got x.json); choose the folder with --out'],
      [['pull', '--all', '--concurrency', '0'], 'obs: --concurrency needs a whole number from 1 to 16, got "0"'],
    ] as const) {
      const r = await run([...argv]);
      assert.deepEqual([r.code, r.stderr.split('\n')[0]], [2, first]);
      assert.ok(r.stderr.includes('Usage: obs pull'));
    }
  });

  test('credentials come from the environment only: without them, exit 2 naming the variables', async () => {
    freshDir();
    const r = await run(['pull', '--all'], { env: {} });
    assert.deepEqual(
      [r.code, r.stderr],
      [
        2,
        "obs: set OBS_BASE_URL and OBS_CONFIG_KEY in the environment: the service's address and a configuration key are read from there only\n",
      ],
    );
  });
});

describe('drift', () => {
  async function pulledWorkspace(): Promise<string> {
    freshDir();
    await run(['pull', '--dataset', DEMO.datasets.gateway]);
    return join(dir, 'triggers', DEMO.datasets.gateway);
  }

  test('right after a pull: in sync, exit 0', async () => {
    await pulledWorkspace();
    const r = await run(['drift']);
    assert.deepEqual(
      [r.code, r.stdout],
      [0, '7 files compared: 7 in sync, 0 differ, 0 only local, 0 only on the service\n'],
    );
  });

  test('an edited member, a file of a trigger the service lacks and a deleted file: each named, exit 1', async () => {
    const gw = await pulledWorkspace();
    const high = join(gw, 'High-error-rate.trigger.json');
    writeFileSync(high, readFileSync(high, 'utf8').replace('"value": 5\n', '"value": 10\n'));
    writeFileSync(
      join(gw, 'mine.trigger.json'),
      JSON.stringify({
        name: 'Mine',
        dataset_slug: 'api-gateway',
        threshold: { op: '>', value: 1 },
        query: { time_range: 900 },
      }),
    );
    rmSync(join(gw, 'Slow-routes-disabled.trigger.json'));
    const r = await run(['drift', 'triggers']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      [
        'triggers/api-gateway/High-error-rate.trigger.json: differs from the service: "High error rate" (trig_gw_errors)',
        '  threshold.value: 5 -> 10',
        'triggers/api-gateway/mine.trigger.json: only local: the service has no trigger named "Mine" in api-gateway',
        'api-gateway: only on the service: "Slow routes (disabled)" (trig_gw_latency)',
        '7 files compared: 5 in sync, 1 differ, 1 only local, 1 only on the service',
        '',
      ].join('\n'),
    );
    const json = JSON.parse((await run(['drift', '--format', 'json'])).stdout) as {
      counts: object;
      files: { file: string; triggers: { differences: object[] }[] }[];
      onlyOnService: object[];
    };
    assert.deepEqual(json.counts, { inSync: 5, differs: 1, localOnly: 1, serviceOnly: 1, unknown: 0 });
    assert.deepEqual(
      json.files.find((f) => f.file.endsWith('High-error-rate.trigger.json'))?.triggers[0]?.differences,
      [{ path: 'threshold.value', service: 5, local: 10 }],
    );
    assert.deepEqual(json.onlyOnService, [
      { dataset: 'api-gateway', id: 'trig_gw_latency', name: 'Slow routes (disabled)' },
    ]);
  });

  test('SARIF locates each difference at its member in the file', async () => {
    const gw = await pulledWorkspace();
    const high = join(gw, 'High-error-rate.trigger.json');
    const text = readFileSync(high, 'utf8').replace('"value": 5\n', '"value": 10\n');
    writeFileSync(high, text);
    const r = await run(['drift', '--format', 'sarif', 'triggers/api-gateway/High-error-rate.trigger.json']);
    assert.equal(r.code, 1);
    const log = JSON.parse(r.stdout) as {
      runs: {
        results: {
          ruleId: string;
          message: { text: string };
          locations?: { physicalLocation: { region: { startLine: number } } }[];
        }[];
      }[];
    };
    const results = log.runs[0]?.results ?? [];
    const line = text.split('\n').findIndex((l) => l.includes('"value": 10')) + 1;
    assert.deepEqual(
      results.map((x) => [x.ruleId, x.message.text, x.locations?.[0]?.physicalLocation.region.startLine]),
      [
        ['drift/differs', 'Differs from the service: threshold.value: 5 -> 10', line],
        ...[
          'trig_gw_5xx_on_true',
          'trig_gw_baseline',
          'trig_gw_latency',
          'trig_gw_legacy',
          'trig_gw_saved_query',
          'trig_gw_window',
        ].map((id) => [
          'drift/service-only',
          results.find((x) => x.message.text.includes(`(${id})`))?.message.text,
          undefined,
        ]),
      ]
        .sort((a, b) => String(a[1]).localeCompare(String(b[1])))
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });

  test('a file that is not JSON is named and the exit status is 2', async () => {
    const gw = await pulledWorkspace();
    writeFileSync(join(gw, 'broken.trigger.json'), '{ "name": ');
    const r = await run(['drift']);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /^triggers\/api-gateway\/broken\.trigger\.json: not compared: the file is not valid JSON/m);
  });

  test('a file nested 5,000 or 100,000 levels deep is named as not compared (exit 2); every other file is compared', async () => {
    const gw = await pulledWorkspace();
    for (const n of [5_000, 100_000]) {
      writeFileSync(
        join(gw, `deep-${n}.trigger.json`),
        `{"id":"trig_gw_errors","dataset_slug":"api-gateway","query":{"filters":[{"column":"a","op":"=","value":${'['.repeat(n)}${']'.repeat(n)}}]}}`,
      );
    }
    const r = await run(['drift']);
    assert.equal(r.code, 2, r.stderr);
    const reason =
      "the file's trigger is nested more than 64 levels deep (in query); trigger files hold at most 64 levels";
    assert.ok(r.stdout.includes(`triggers/api-gateway/deep-5000.trigger.json: not compared: ${reason}\n`), r.stdout);
    assert.ok(r.stdout.includes(`triggers/api-gateway/deep-100000.trigger.json: not compared: ${reason}\n`), r.stdout);
    assert.ok(
      r.stdout.endsWith('9 files compared: 7 in sync, 0 differ, 0 only local, 0 only on the service, 2 not compared\n'),
      r.stdout,
    );
    const sarif = await run(['drift', '--format', 'sarif']);
    assert.equal(sarif.code, 2, sarif.stderr);
    const results =
      (
        JSON.parse(sarif.stdout) as {
          runs: {
            results: {
              ruleId: string;
              message: { text: string };
              locations: { physicalLocation: { artifactLocation: { uri: string }; region: object } }[];
            }[];
          }[];
        }
      ).runs[0]?.results ?? [];
    assert.deepEqual(
      results.map((x) => [
        x.ruleId,
        x.message.text,
        x.locations[0]?.physicalLocation.artifactLocation.uri,
        x.locations[0]?.physicalLocation.region,
      ]),
      [100_000, 5_000].map((n) => [
        'drift/not-compared',
        `Not compared: ${reason}`,
        `triggers/api-gateway/deep-${n}.trigger.json`,
        { startLine: 1, startColumn: 1 },
      ]),
    );
  });

  test('a path that holds no trigger file is a usage problem (exit 2)', async () => {
    freshDir();
    const r = await run(['drift', 'nothing/**/*.trigger.json']);
    assert.deepEqual([r.code, r.stderr], [2, 'obs: no file matches nothing/**/*.trigger.json\n']);
  });
});

describe('lint --columns-from-service', () => {
  test('checks the columns each query names against its dataset, and skips datasets the service does not know', async () => {
    freshDir();
    writeFileSync(
      join(dir, 'a.trigger.json'),
      JSON.stringify(
        {
          name: 'A',
          dataset_slug: 'api-gateway',
          threshold: { op: '>', value: 1 },
          query: {
            calculations: [{ op: 'COUNT' }],
            filters: [{ column: 'http.status_code', op: '>=', value: 500 }],
            breakdowns: ['internal.debug_token'],
            time_range: 900,
          },
        },
        null,
        2,
      ),
    );
    writeFileSync(
      join(dir, 'b.trigger.json'),
      JSON.stringify({
        name: 'B',
        dataset_slug: 'nowhere',
        threshold: { op: '>', value: 1 },
        query: { calculations: [{ op: 'COUNT' }], breakdowns: ['anything'], time_range: 900 },
      }),
    );
    const r = await run(['lint', '--columns-from-service', '--format', 'json', 'a.trigger.json', 'b.trigger.json']);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, 'obs: the service has no dataset nowhere: its columns are not checked\n');
    const report = JSON.parse(r.stdout) as { file: string; diagnostics: { rule: string; message: string }[] }[];
    assert.deepEqual(
      report.map((f) => [f.file, f.diagnostics.map((d) => [d.rule, d.message])]),
      [
        [
          'a.trigger.json',
          [
            [
              'query/unknown-column',
              '"http.status_code" is not a column of api-gateway as the service lists them; did you mean "status_code"? (derived columns are not in that list: if it is one, ignore this)',
            ],
            [
              'query/hidden-column',
              '"internal.debug_token" is a hidden column of api-gateway: the query still reads it, but autocomplete and field lists leave it out',
            ],
          ],
        ],
        ['b.trigger.json', []],
      ],
    );
    const plain = await run(['lint', '--format', 'json', 'a.trigger.json']);
    assert.deepEqual(
      (JSON.parse(plain.stdout) as { diagnostics: unknown[] }[])[0]?.diagnostics,
      [],
      'without the flag no column is checked',
    );
  });
});

const bundle = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
/** Runs dist/cli.js in a child process without blocking this one (the sandbox answers from here). */
function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, ...args], { cwd: dir, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test(
  'the bundle dist/cli.js pulls and reports drift with the credentials of its environment',
  { skip: existsSync(bundle) ? false : 'dist/cli.js is not built (npm test builds it)' },
  async () => {
    freshDir();
    const pulled = await cli('pull', '--dataset', DEMO.datasets.checkout);
    assert.equal(pulled.status, 0, pulled.stderr);
    const drift = await cli('drift', '--format', 'json');
    assert.equal(drift.status, 0, drift.stderr);
    assert.deepEqual((JSON.parse(drift.stdout) as { counts: object }).counts, {
      inSync: 2,
      differs: 0,
      localOnly: 0,
      serviceOnly: 0,
      unknown: 0,
    });
  },
);

describe('what the files and the service say is shown, never acted on by the terminal', () => {
  /** Sets the terminal's title, returns to the line start, forges a line, then reverses and hides text. */
  const HOSTILE = '\u001b]0;owned\u0007\r\nall in sync\u202e\u2066\u200f\u061c\u009b\u007f\u200b';
  /** The same without white space, which a dataset slug on the command line may not hold. */
  const SLUG = '\u001b]0;owned\u0007\u202e\u2066\u200f\u061c\u009b\u007f\u200b';
  /** Every raw character a terminal acts on or hides, the line feeds between lines aside. */
  const hiddenIn = (text: string) =>
    [...text.matchAll(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu)].map((m) => m[0]).filter((c) => c !== '\n');
  const trigger = (name: string, dataset: string) =>
    JSON.stringify({ name, dataset_slug: dataset, threshold: { op: '>', value: 1 }, query: { time_range: 900 } });

  test('drift: names and slugs from the files, and a trigger name from the service (U+202E), are escaped in text; exact in JSON', async () => {
    freshDir();
    await run(['pull', '--dataset', DEMO.datasets.hostile]);
    // The service's "Failure ratio <U+202E>gnp.exe" has no file now: it is only on the service.
    for (const f of readdirSync(join(dir, 'triggers', DEMO.datasets.hostile)))
      if (f.includes('gnp')) rmSync(join(dir, 'triggers', DEMO.datasets.hostile, f));
    writeFileSync(join(dir, 'triggers', 'mine.trigger.json'), trigger(`Mine${HOSTILE}`, DEMO.datasets.hostile));
    writeFileSync(join(dir, 'triggers', 'other.trigger.json'), trigger('Other', `ds${HOSTILE}`));
    const r = await run(['drift']);
    assert.equal(r.code, 2);
    assert.deepEqual(hiddenIn(r.stdout + r.stderr), []);
    assert.ok(r.stdout.includes('only on the service: "Failure ratio \\u{202e}gnp.exe"'), r.stdout);
    assert.ok(
      r.stderr.includes('could not list the triggers of ds\\u{1b}]0;owned\\u{7}\\u{d}\\u{a}all in sync\\u{202e}'),
      r.stderr,
    );
    assert.deepEqual(
      r.stdout.split('\n').filter((l) => l.startsWith('all in sync')),
      [],
    );
    const json = await run(['drift', '--format', 'json']);
    assert.deepEqual(hiddenIn(json.stdout), []);
    const parsed = JSON.parse(json.stdout) as {
      files: { triggers: { name?: string }[] }[];
      onlyOnService: { name: string }[];
    };
    assert.ok(parsed.files.some((f) => f.triggers.some((t) => t.name === `Mine${HOSTILE}`)));
    assert.ok(parsed.onlyOnService.some((t) => t.name === 'Failure ratio \u202egnp.exe'));
    assert.deepEqual(hiddenIn((await run(['drift', '--format', 'sarif'])).stdout), []);
  });

  test('pull: a dataset slug and the --out folder are escaped where the output names them', async () => {
    freshDir();
    const r = await run([
      'pull',
      '--dataset',
      `ds${SLUG}`,
      '--dataset',
      DEMO.datasets.checkout,
      '--out',
      `out${HOSTILE}`,
    ]);
    assert.equal(r.code, 2);
    assert.deepEqual(hiddenIn(r.stdout + r.stderr), []);
    assert.ok(r.stderr.includes('could not list the triggers of ds\\u{1b}]0;owned\\u{7}\\u{202e}'), r.stderr);
    assert.ok(r.stdout.startsWith('wrote out\\u{1b}]0;owned\\u{7}\\u{d}\\u{a}all in sync'), r.stdout);
  });
});

describe('pull --out where no folder can be made', () => {
  /** dist/cli.js in a child process, killed after `ms`: before the fix a pull into /proc never ended. */
  function cliWithin(
    ms: number,
    ...args: string[]
  ): Promise<{ status: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bundle, ...args], { cwd: dir, env: { ...process.env, ...env } });
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', reject);
      child.on('close', (status) => {
        clearTimeout(timer);
        resolve({ status, stdout, stderr });
      });
    });
  }

  const procSkip = !existsSync(bundle)
    ? 'dist/cli.js is not built (npm test builds it)'
    : !existsSync('/proc/self')
      ? 'no /proc here'
      : false;

  test('--out /proc/...: exit 2 at once, naming the folder, nothing written', { skip: procSkip }, async () => {
    freshDir();
    const r = await cliWithin(30_000, 'pull', '--dataset', DEMO.datasets.checkout, '--out', '/proc/obs-pull/triggers');
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [
        2,
        '',
        'obs: --out /proc/obs-pull/triggers: cannot create the folder /proc/obs-pull: the file system allows no new folder there; nothing was written\n',
      ],
    );
  });

  test(
    '--out a folder that exists but takes no new folder (/proc/self): exit 2 before anything is written',
    { skip: procSkip },
    async () => {
      freshDir();
      const r = await cliWithin(30_000, 'pull', '--dataset', DEMO.datasets.checkout, '--out', '/proc/self');
      assert.equal(r.status, 2);
      assert.equal(r.stdout, '');
      assert.ok(
        r.stderr.endsWith(
          `obs: --out /proc/self: cannot create the folder /proc/self/${DEMO.datasets.checkout}: the file system allows no new folder there; nothing was written\n`,
        ),
        r.stderr,
      );
    },
  );

  test('--out under a file: exit 2 naming it, before the service is asked', async () => {
    freshDir();
    writeFileSync(join(dir, 'file.txt'), 'x');
    const r = await run(['pull', '--dataset', DEMO.datasets.checkout, '--out', 'file.txt/triggers']);
    assert.deepEqual(
      [r.code, r.stdout, r.stderr],
      [2, '', `obs: --out file.txt/triggers: ${join(dir, 'file.txt')} is not a folder; nothing was written\n`],
    );
  });
});
