// obs on hostile input: text from a file reaches the terminal as visible escapes, never as control,
// bidi or invisible characters; a device, a FIFO or a file past the byte cap named on the command
// line is refused at once (exit 2, the file named) instead of read forever.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runObs } from './obs-run';

const root = join(import.meta.dirname, '..', '..');
let dir = '';

/** Starts an escape sequence that sets the terminal's title, returns to the line start, forges a line, then reverses and hides text. */
const HOSTILE =
  '\u001b]0;owned\u0007\r\n1 file checked: 0 errors, 0 warnings, 0 infos\u202e\u2066\u200f\u061c\u009b\u007f\u200b';

/** Every raw character a terminal acts on or hides, the line feeds between lines aside. */
const hiddenIn = (text: string) =>
  [...text.matchAll(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu)].map((m) => m[0]).filter((c) => c !== '\n');

/** A trigger whose values carry HOSTILE where rules quote them (alert type, ops, tag, recipient, dataset, unknown member). */
const HOSTILE_TRIGGER = {
  name: `Name${HOSTILE}`,
  dataset_slug: `ds${HOSTILE}`,
  frequency: 900,
  alert_type: `type${HOSTILE}`,
  threshold: { op: `>${HOSTILE}`, value: 10 },
  query: {
    calculations: [{ op: `COUNT${HOSTILE}` }],
    filters: [{ column: 'status', op: `=${HOSTILE}`, value: 1 }],
    time_range: 1800,
    granularity: 60,
  },
  recipients: [{ type: 'email', target: `ops${HOSTILE}` }],
  tags: [{ key: `key${HOSTILE}`, value: 'v' }],
  [`member${HOSTILE}`]: 1,
};

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'obs-safety-'));
  writeFileSync(join(dir, 'hostile.trigger.json'), JSON.stringify(HOSTILE_TRIGGER, null, 2));
  // Raw, not JSON-escaped: a JSON string may hold U+202E and U+009B as they are.
  writeFileSync(
    join(dir, 'raw.trigger.json'),
    `{ "name": "x", "frequency": 900, "alert_type": "on_change\u202e\u009b", "threshold": { "op": ">", "value": 1 }, "query": { "time_range": 900 } }`,
  );
  writeFileSync(
    join(dir, 'valid.trigger.json'),
    JSON.stringify({
      name: 'Valid',
      frequency: 900,
      threshold: { op: '>', value: 1 },
      query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
    }),
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]) {
  return runObs(argv, { cwd: dir });
}

describe('what a file holds is shown, never acted on by the terminal', () => {
  test('lint text: every such character of the values quoted is a visible escape, and every line is a diagnostic or the summary', async () => {
    const r = await run('lint', 'hostile.trigger.json', 'raw.trigger.json');
    assert.equal(r.code, 1);
    assert.deepEqual(hiddenIn(r.stdout + r.stderr), []);
    const lines = r.stdout.trimEnd().split('\n');
    assert.ok(lines.length > 8, r.stdout);
    assert.deepEqual(
      lines.slice(0, -1).filter((l) => !/^(hostile|raw)\.trigger\.json:\d+:\d+ /.test(l)),
      [],
    );
    assert.match(lines[lines.length - 1] ?? '', /^2 files checked: \d+ errors/);
    assert.ok(r.stdout.includes('ops\\u{1b}]0;owned\\u{7}\\u{d}\\u{a}1 file checked'), 'the recipient target, escaped');
    assert.ok(r.stdout.includes('on_change\\u{202e}\\u{9b}'), 'raw bidi and C1 characters, escaped');
  });

  test('json and sarif: the exact values, with bidi, C1 and invisible characters as JSON escapes', async () => {
    for (const format of ['json', 'sarif']) {
      const r = await run('lint', '--format', format, 'hostile.trigger.json', 'raw.trigger.json');
      assert.deepEqual(hiddenIn(r.stdout), [], format);
      assert.ok(r.stdout.includes('on_change\\u202e\\u009b'), format);
    }
    const report = JSON.parse((await run('lint', '--format', 'json', 'hostile.trigger.json')).stdout) as {
      diagnostics: { rule: string; message: string }[];
    }[];
    const recipient = report[0]?.diagnostics.find((d) => d.rule === 'trigger/recipient-deprecated');
    assert.ok(recipient?.message.includes(`ops${HOSTILE}`), 'the message as the linter words it');
  });

  test('error lines: a file or glob named with such characters is escaped', async () => {
    const r = await run('lint', `missing${HOSTILE}.json`, `none${HOSTILE}/*.json`);
    assert.equal(r.code, 2);
    assert.deepEqual(hiddenIn(r.stderr), []);
    assert.equal(r.stderr.split('\n').filter((l) => l !== '').length, 2, r.stderr);
  });
});

describe('lint counts every problem of a file, those past --max-problems included', () => {
  test('6,667 errors shown as 1,000 and one that counts the other 5,667: the summary says 6667 errors', async () => {
    const many = Array.from({ length: 6667 }, (_, i) => ({
      name: `t${i}`,
      frequency: 90,
      threshold: { op: '>', value: 1 },
      query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
    }));
    writeFileSync(join(dir, 'many.trigger.json'), JSON.stringify(many));
    const r = await run('lint', 'many.trigger.json');
    assert.equal(r.code, 1);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 1002);
    assert.match(
      lines[0] ?? '',
      /^many\.trigger\.json:1:1 error file\/too-many-problems 5,667 more problems not shown \(5,667 errors/,
    );
    assert.equal(lines[1001], '1 file checked: 6667 errors, 0 warnings, 0 infos');
  });
});

describe('only regular files are read, and at most --max-bytes of one', () => {
  // In a child process with a time limit: before the fix each of these read forever or blocked.
  // tsx found from the repository, wherever the child runs.
  const tsx = pathToFileURL(createRequire(join(root, 'package.json')).resolve('tsx')).href;
  const cliIn = (cwd: string, ...args: string[]) =>
    spawnSync(process.execPath, ['--import', tsx, join(root, 'src', 'cli', 'obs.ts'), ...args], {
      cwd,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '' },
    });
  const cli = (...args: string[]) => cliIn(root, ...args);
  const refused = (file: string) =>
    `obs: cannot read ${file}: is not a regular file (a device, FIFO or socket): only files are read\n`;

  test(
    'a trigger file that is a link to /dev/zero: exit 2, naming it',
    { skip: existsSync('/dev/zero') ? false : 'no /dev/zero here' },
    () => {
      const link = join(dir, 'zero.trigger.json');
      symlinkSync('/dev/zero', link);
      const r = cli('lint', link);
      assert.deepEqual([r.status, r.stderr], [2, refused(link)]);
    },
  );

  test(
    'a FIFO: exit 2, naming it, for lint and drift',
    { skip: process.platform === 'win32' ? 'no FIFO on Windows' : false },
    () => {
      const fifo = join(dir, 'fifo.trigger.json');
      assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
      const lint = cli('lint', fifo);
      assert.deepEqual([lint.status, lint.stderr], [2, refused(fifo)]);
      // drift reads only inside the folder it runs in.
      const drift = cliIn(dir, 'drift', fifo);
      assert.equal(drift.status, 2);
      assert.ok(drift.stderr.startsWith(refused(fifo)), drift.stderr);
    },
  );

  test('a file past the cap (64 MiB unless --max-bytes says otherwise): exit 2, naming it and the cap', async () => {
    const big = join(dir, 'big.trigger.json');
    writeFileSync(big, '');
    truncateSync(big, 64 * 1024 * 1024 + 1); // sparse: nothing is written
    const r = await run('lint', 'big.trigger.json');
    assert.deepEqual(
      [r.code, r.stderr],
      [
        2,
        'obs: cannot read big.trigger.json: is larger than 64 MiB, the most obs reads of a file; --max-bytes N raises it\n',
      ],
    );
    const small = await run('lint', '--max-bytes', '100', 'valid.trigger.json');
    assert.deepEqual(
      [small.code, small.stderr],
      [
        2,
        'obs: cannot read valid.trigger.json: is larger than 100 bytes, the most obs reads of a file; --max-bytes N raises it\n',
      ],
    );
    assert.equal((await run('lint', '--max-bytes', '1000', 'valid.trigger.json')).code, 0);
  });
});
