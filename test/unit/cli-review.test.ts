// obs review against the sandbox, in a git repository holding the demo's "High error rate" and its tests: what
// --changed-since takes as the change's own, what it lints and tests, and each exit status.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownText } from '../../src/cli/markdown/text';
import type { ReviewReport } from '../../src/cli/reviewReport';

/** The noise member of the JSON report, as much of it as these tests read. */
interface NoiseJson {
  days: number;
  changes: { name: string; action: string; was?: { notifications: number }; would_be?: { notifications: number } }[];
}
import { DEMO_TESTS, DEMO_TRIGGER, demoFolder } from './demo-folder';

const demo = demoFolder('obs-review-');
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: demo.dir }).toString();

/** The folder as a repository whose one commit holds the demo's files. */
function commitBase(): void {
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
}

function editTrigger(edit: (t: { threshold: { value: number }; description?: unknown }) => void): void {
  const file = join(demo.dir, DEMO_TRIGGER);
  const t = JSON.parse(readFileSync(file, 'utf8')) as { threshold: { value: number } };
  edit(t);
  writeFileSync(file, `${JSON.stringify(t, null, 2)}\n`);
}

async function review(...args: string[]) {
  const r = await demo.run(['review', '--format', 'json', ...args]);
  return { ...r, report: r.stdout === '' ? undefined : (JSON.parse(r.stdout) as ReviewReport) };
}

describe('obs review --changed-since', () => {
  test('a threshold edited since the ref: its plan change is the change own, its file linted, its tests run', async () => {
    commitBase();
    editTrigger((t) => (t.threshold.value = 50));
    const r = await review('--changed-since', 'main', 'triggers');
    assert.ok(r.report !== undefined, r.stderr);
    assert.deepEqual(r.report.changedSince?.changed, [DEMO_TRIGGER]);
    assert.deepEqual(
      r.report.plan?.changes.map((c) => [c.action, c.name]),
      [['update', 'High error rate']],
    );
    assert.deepEqual(r.report.fromChange, [0]);
    assert.deepEqual(
      r.report.lint.map((f) => f.file),
      [DEMO_TRIGGER],
    );
    assert.deepEqual(
      r.report.tests.files.map((f) => f.file),
      [DEMO_TESTS],
    );
  });

  test('nothing changed since the ref: nothing linted or tested, no change planned, exit 0', async () => {
    commitBase();
    const r = await review('--changed-since', 'main', 'triggers');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      [r.report?.lint, r.report?.tests.files, r.report?.plan?.changes, r.report?.fromChange],
      [[], [], [], []],
    );
  });

  test('a difference the service already had is planned but not the change own', async () => {
    editTrigger((t) => (t.threshold.value = 50));
    commitBase();
    const r = await review('--changed-since', 'main', 'triggers');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([r.report?.plan?.changes.length, r.report?.fromChange], [1, []]);
  });

  test('a test file changed alone is run; its trigger is not linted', async () => {
    commitBase();
    writeFileSync(join(demo.dir, DEMO_TESTS), `${readFileSync(join(demo.dir, DEMO_TESTS), 'utf8').trim()}\n\n`);
    const r = await review('--changed-since', 'main', 'triggers');
    assert.deepEqual([r.report?.lint.length, r.report?.tests.files.map((f) => f.file)], [0, [DEMO_TESTS]]);
  });

  test('a trigger file deleted by the change: with --prune its delete is the change own', async () => {
    commitBase();
    rmSync(join(demo.dir, DEMO_TRIGGER));
    writeFileSync(join(demo.dir, 'triggers/api-gateway/Other.trigger.json'), otherTrigger());
    const r = await review('--changed-since', 'main', '--prune', 'triggers');
    const changes = r.report?.plan?.changes ?? [];
    const own = (r.report?.fromChange ?? []).map((i) => changes[i]);
    assert.ok(
      own.some((c) => c?.action === 'delete' && c.name === 'High error rate'),
      JSON.stringify(changes.map((c) => [c.action, c.name])),
    );
    assert.ok(!own.some((c) => c?.action === 'delete' && c.name !== 'High error rate'));
  });

  test('a ref git does not know: exit 2 naming it, nothing planned', async () => {
    commitBase();
    const r = await review('--changed-since', 'no-such-branch', 'triggers');
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^obs: --changed-since no-such-branch: git does not know the commit "no-such-branch" here/);
  });

  test('outside a git repository: exit 2 saying so', async () => {
    const r = await review('--changed-since', 'main', 'triggers');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not a git repository/);
  });
});

describe('obs review: lint findings on the lines the change touches', () => {
  const LONG = 'x'.repeat(2000);

  test('a finding on a line the change does not touch is counted, not listed; the file changed lines are in the JSON', async () => {
    editTrigger((t) => (t.description = LONG));
    commitBase();
    editTrigger((t) => (t.threshold.value = 6));
    const r = await review('--changed-since', 'main', '--no-noise', 'triggers');
    const lines = r.report?.changedLines?.[DEMO_TRIGGER];
    const finding = r.report?.lint[0]?.diagnostics[0];
    assert.ok(Array.isArray(lines) && finding !== undefined, JSON.stringify(r.report?.changedLines));
    assert.ok(!lines.includes(finding.range.start.line + 1), JSON.stringify(lines));
    const md = (await demo.run(['review', '--changed-since', 'main', '--no-noise', 'triggers'])).stdout;
    const lint = md.slice(md.indexOf('### Lint'), md.indexOf('### Trigger tests'));
    assert.match(lint, /1 finding on lines this change does not touch, listed in the JSON report\./);
    assert.ok(!lint.includes(markdownText(finding.rule)), lint);
  });

  test('a finding on a line the change edits is listed', async () => {
    commitBase();
    editTrigger((t) => (t.description = LONG));
    const r = await review('--changed-since', 'main', '--no-noise', 'triggers');
    const finding = r.report?.lint[0]?.diagnostics[0];
    assert.ok(finding !== undefined);
    const md = (await demo.run(['review', '--changed-since', 'main', '--no-noise', 'triggers'])).stdout;
    const lint = md.slice(md.indexOf('### Lint'), md.indexOf('### Trigger tests'));
    assert.ok(lint.includes(markdownText(finding.rule)) && !lint.includes('does not touch'), lint);
  });
});

describe('obs review: what the change would have notified', () => {
  const createdResults = () =>
    demo.sandbox.handle.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/1/query_results/')).length;

  test("the change's own update is evaluated with both versions, and the first lines say it in a sentence", async () => {
    commitBase();
    editTrigger((t) => (t.threshold.value = 1));
    const json = await review('--changed-since', 'main', 'triggers');
    const noise = (json.report as unknown as { noise: NoiseJson }).noise;
    const change = noise.changes[0];
    assert.ok(change !== undefined && noise.changes.length === 1, JSON.stringify(noise));
    assert.deepEqual([noise.days, change.name, change.action], [7, 'High error rate', 'update']);
    const [was, now] = [change.was?.notifications, change.would_be?.notifications];
    assert.ok(was !== undefined && now !== undefined && now > was, JSON.stringify(change));
    const md = await demo.run(['review', '--changed-since', 'main', 'triggers']);
    assert.equal(
      md.stdout.split('\n')[4],
      `\\"High error rate\\" would have notified ${now} times in 7 days \\(was ${was}\\).`,
    );
  });

  test('--no-noise evaluates nothing: no noise member, no query result created for it', async () => {
    rmSync(join(demo.dir, DEMO_TESTS));
    commitBase();
    editTrigger((t) => (t.threshold.value = 1));
    const before = createdResults();
    const r = await review('--changed-since', 'main', '--no-noise', 'triggers');
    assert.deepEqual([r.code, 'noise' in (r.report ?? {}), createdResults() - before], [0, false, 0]);
  });
});

describe('obs review exit status', () => {
  test('a lint error in a file the change touches: exit 1', async () => {
    commitBase();
    editTrigger((t) => (t.description = 'x'.repeat(2000)));
    const r = await review('--changed-since', 'main', 'triggers');
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.report?.lint[0]?.diagnostics.some((d) => d.severity === 'error'));
  });

  test('a failing test is exit 1 (the demo has one that fails on purpose)', async () => {
    const r = await review('triggers');
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(
      r.report?.tests.files[0]?.outcomes.map((o) => o.status),
      ['passed', 'passed', 'failed'],
    );
  });

  test('--json-out saves the same report as the JSON output', async () => {
    commitBase();
    const r = await review('--changed-since', 'main', '--json-out', 'out/review.json', 'triggers');
    assert.equal(readFileSync(join(demo.dir, 'out/review.json'), 'utf8'), r.stdout);
  });
});

/** A trigger file that keeps the dataset's folder from being empty once the demo's trigger is deleted. */
function otherTrigger(): string {
  const t = JSON.parse(readFileSync(join(import.meta.dirname, '../../demo/workspace', DEMO_TRIGGER), 'utf8')) as Record<
    string,
    unknown
  >;
  delete t.id;
  return `${JSON.stringify({ ...t, name: 'Other' }, null, 2)}\n`;
}
