// obs plan --noise against the sandbox: the demo's "High error rate" with a threshold raised in its file,
// each version's count of notifications checked against obs test's at-most count over the same window (the
// file's version by its file, the service's by a copy of the file as the service holds it), its tests run
// with each version, and the plan itself unchanged by the diff.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_TESTS as TESTS, DEMO_TRIGGER as TRIGGER, demoFolder } from './demo-folder';
import { runObs } from './obs-run';

const demo = demoFolder('obs-plan-noise-');
const { run } = demo;

interface Side {
  status: string;
  notifications: number;
  from: string;
  to: string;
}
interface Tests {
  passed: number;
  failed: number;
  not_passed: { name: string }[];
}
interface Change {
  action: string;
  file: string;
  was: Side;
  would_be: Side;
  tests: { files: string[]; was: Tests; would_be: Tests };
}

/** The demo trigger with its threshold at `value` (the service holds 5). */
function withThreshold(value: number): string {
  const text = readFileSync(join(demo.dir, TRIGGER), 'utf8');
  const edited = text.replace(
    /"threshold": \{\n {4}"op": ">",\n {4}"value": 5\n/,
    `"threshold": {\n    "op": ">",\n    "value": ${value}\n`,
  );
  assert.notEqual(edited, text);
  return edited;
}

/** What obs test finds of "as many" and "one fewer" notifications than the side's in its window, with `folder`'s trigger. */
async function sendsExactly(folder: string, side: Side): Promise<[boolean, boolean]> {
  const at = (n: number, name: string) => ({ name, expect: 'at-most', notifications: n, from: side.from, to: side.to });
  writeFileSync(
    join(demo.dir, folder, 'High-error-rate.trigger-test.json'),
    JSON.stringify({ expectations: [at(side.notifications, 'as many'), at(side.notifications - 1, 'one fewer')] }),
  );
  const r = await run(['test', folder]);
  return [/^ {2}passed +as many: sent /m.test(r.stdout), /^ {2}FAILED +one fewer: sent /m.test(r.stdout)];
}

describe('obs plan --noise', () => {
  test("a raised threshold: each version's notifications as obs test counts them over the same window", async () => {
    const original = readFileSync(join(demo.dir, TRIGGER), 'utf8');
    writeFileSync(join(demo.dir, TRIGGER), withThreshold(45));
    const r = await run(['plan', '--noise', '--format', 'json', TRIGGER]);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout) as { changes: unknown[]; noise_diff: { version: number; changes: Change[] } };
    const [change, ...rest] = out.noise_diff.changes;
    assert.ok(change !== undefined && rest.length === 0, r.stdout);
    assert.deepEqual([change.action, change.file, out.noise_diff.version], ['update', TRIGGER, 1]);
    assert.ok(change.was.notifications > change.would_be.notifications, r.stdout);
    // The plan is the one made without the diff.
    const plain = await run(['plan', '--format', 'json', TRIGGER]);
    assert.deepEqual(out.changes, (JSON.parse(plain.stdout) as { changes: unknown[] }).changes);
    mkdirSync(join(demo.dir, 'service'));
    writeFileSync(join(demo.dir, 'service', 'High-error-rate.trigger.json'), original);
    assert.deepEqual(await sendsExactly('service', change.was), [true, true]);
    assert.deepEqual(await sendsExactly('triggers/api-gateway', change.would_be), [true, true]);
  });

  test('its tests run with each version: a budget the file keeps and the service broke fails with the service alone', async () => {
    writeFileSync(join(demo.dir, TRIGGER), withThreshold(45));
    const plan = async () => {
      const r = await run(['plan', '--noise', '--format', 'json', TRIGGER]);
      const [change] = (JSON.parse(r.stdout) as { noise_diff: { changes: Change[] } }).noise_diff.changes;
      assert.ok(change !== undefined, r.stdout);
      return change;
    };
    // Windows in UTC times, from a first diff: the same verdicts whenever the second runs.
    const first = await plan();
    const { from, to, notifications } = first.would_be;
    assert.ok(notifications > 0 && first.was.notifications > notifications, JSON.stringify(first));
    const tests = [
      { name: 'at most as the file', expect: 'at-most', notifications, from, to },
      { name: 'fires in the window', expect: 'fires', from, to },
    ];
    writeFileSync(join(demo.dir, TESTS), JSON.stringify({ expectations: tests }));
    const change = await plan();
    const outcome = (t: Tests) => [t.passed, t.failed, t.not_passed.map((p) => p.name)];
    assert.deepEqual(change.tests.files, [TESTS]);
    assert.deepEqual(outcome(change.tests.was), [1, 1, ['at most as the file']]);
    assert.deepEqual(outcome(change.tests.would_be), [2, 0, []]);
  });

  test('text: the plan, then a line per change saying what it would have notified and what it did', async () => {
    const edited = withThreshold(45);
    writeFileSync(join(demo.dir, TRIGGER), edited);
    const created = JSON.parse(edited) as Record<string, unknown>;
    delete created.id;
    writeFileSync(
      join(demo.dir, 'triggers', 'api-gateway', 'Copy.trigger.json'),
      JSON.stringify({ ...created, name: 'High error rate, copy' }),
    );
    const r = await run(['plan', '--noise', 'triggers']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /\n\nWhat the changes would have notified \(each version evaluated as the service would have\):\n\n/,
    );
    assert.match(
      r.stdout,
      /^(\d+) -> (\d+) {2}update "High error rate" \(triggers\/api-gateway\/High-error-rate\.trigger\.json\) on api-gateway: would have notified \2 times? in 7 days \(was \1\)$/m,
    );
    assert.match(
      r.stdout,
      /^new -> (\d+) {2}create "High error rate, copy" \(triggers\/api-gateway\/Copy\.trigger\.json\) on api-gateway: would have notified \1 times? in 7 days \(a new trigger\)$/m,
    );
    assert.match(r.stdout, /\n2 changes over the last 7 days: 1 quieter, 1 noisier, 0 the same, 0 not evaluated\n$/);
  });

  test("with --prune, a delete has the service's version alone: what it would stop sending", async () => {
    // The dataset's triggers as the service holds them, less one: the plan deletes that one and changes nothing else.
    const pulled = await run(['pull', '--dataset', 'api-gateway']);
    assert.equal(pulled.code, 0, pulled.stderr);
    rmSync(join(demo.dir, 'triggers', 'api-gateway', '5xx-from-a-saved-query.trigger.json'));
    const r = await run(['plan', '--prune', '--noise', '--format', 'json', 'triggers']);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout) as { changes: unknown[]; noise_diff: { changes: (Change & { name: string })[] } };
    const [gone, ...rest] = out.noise_diff.changes;
    assert.ok(gone !== undefined && rest.length === 0 && out.changes.length === 1, r.stdout);
    assert.deepEqual(
      [gone.action, gone.name, gone.file, gone.was.status, gone.would_be, gone.tests.files],
      ['delete', '5xx from a saved query', null, 'evaluated', null, []],
    );
    const text = await run(['plan', '--prune', '--noise', 'triggers']);
    assert.match(
      text.stdout,
      new RegExp(
        `^${gone.was.notifications} -> deleted {2}delete "5xx from a saved query" \\(api-gateway, id trig_gw_saved_query\\) on api-gateway: would no longer send the ${gone.was.notifications} notifications? it sent in 7 days$`,
        'm',
      ),
    );
  });

  test('stopped while the noise is evaluated: the plan still printed, the changes not evaluated said so, exit 2', async () => {
    writeFileSync(join(demo.dir, TRIGGER), withThreshold(45));
    const stop = new AbortController();
    // The service records each request as it answers it: the first query saved is the noise diff's first.
    const records = demo.sandbox.handle.requests;
    const record = records.push.bind(records);
    records.push = (...added) => {
      if (added.some((r) => r.method === 'POST' && r.path.startsWith('/1/queries/'))) stop.abort();
      return record(...added);
    };
    try {
      const r = await runObs(['plan', '--noise', '--format', 'json', TRIGGER], {
        cwd: demo.dir,
        env: demo.env,
        signal: stop.signal,
      });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /^obs: stopped: the changes whose noise was not evaluated are listed as such$/m);
      const [change] = (JSON.parse(r.stdout) as { noise_diff: { changes: { was: unknown }[] } }).noise_diff.changes;
      assert.deepEqual(change?.was, { status: 'not-evaluated', reason: 'the report was cancelled' });
    } finally {
      records.push = record;
    }
  });

  test("--format github: the step summary holds the plan's Markdown and then the noise diff's table", async () => {
    writeFileSync(join(demo.dir, TRIGGER), withThreshold(45));
    const summary = join(demo.dir, 'summary.md');
    const r = await run(['plan', '--noise', '--format', 'github', TRIGGER], {
      env: { ...demo.env, GITHUB_STEP_SUMMARY: summary },
    });
    assert.equal(r.code, 1, r.stderr);
    const md = readFileSync(summary, 'utf8');
    const diff = md.indexOf('### What the changes would have notified\n\n1 change over the last 7 days: 1 quieter');
    assert.ok(diff > md.indexOf('threshold'), md);
    assert.match(
      md.slice(diff),
      /\n\| High error rate<br>update · triggers\\\/api\\-gateway\\\/High\\-error\\-rate\\\.trigger\\\.json \| \d+ \| \d+ \| /,
    );
  });

  test('a burn alert change has no noise to diff: the plan holds it, the noise diff does not', async () => {
    const file = 'burn-alerts/api-gateway/Gateway-availability.exhaustion-240min.burn-alert.json';
    const text = readFileSync(join(import.meta.dirname, '..', '..', 'demo', 'workspace', file), 'utf8');
    mkdirSync(join(demo.dir, 'burn-alerts', 'api-gateway'), { recursive: true });
    writeFileSync(join(demo.dir, file), text.replace('"exhaustion_minutes": 240', '"exhaustion_minutes": 300'));
    const r = await run(['plan', '--noise', '--format', 'json', file]);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout) as { changes: { kind: string }[]; noise_diff: { changes: unknown[] } };
    assert.deepEqual([out.changes.map((c) => c.kind), out.noise_diff.changes], [['burn-alert'], []]);
  });
});
