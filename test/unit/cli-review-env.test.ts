// obs review --env against two sandboxes, staging and production, in a git repository holding the demo workspace
// (its trigger files and obs.environments.json): each environment's review of one change, the files as that
// environment sees them, and an edit of the environments file taken as the change's own change of the triggers
// it makes the environment see otherwise.
import { after, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReviewReport } from '../../src/cli/reviewReport';
import { PRODUCTION } from '../../src/sandbox';
import { FakeGitHub } from './github-fake';
import { runObs } from './obs-run';
import { demoWorkspaceCopy, environmentSandboxes } from './env-sandboxes';

const HIGH = 'triggers/api-gateway/High-error-rate.trigger.json';
const ENVIRONMENTS = 'obs.environments.json';

const sandboxes = environmentSandboxes();
let dir = '';

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir }).toString();

/** A repository whose one commit holds the demo workspace but its draft trigger (on neither service, with errors). */
beforeEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = demoWorkspaceCopy('obs-review-env-');
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
});

const readJson = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
const writeJson = (file: string, value: unknown) =>
  writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);

/** Edits production's overrides of api-gateway's triggers in the environments file. */
function editGatewayOverrides(edit: (overrides: Record<string, unknown>) => void): void {
  const file = readJson(ENVIRONMENTS) as {
    environments: Record<string, { triggers: Record<string, Record<string, unknown>> }>;
  };
  const overrides = file.environments.production?.triggers['api-gateway'];
  assert.ok(overrides);
  edit(overrides);
  writeJson(ENVIRONMENTS, file);
}

async function review(args: string[], over: Record<string, string> = {}) {
  const r = await runObs(['review', '--format', 'json', '--no-noise', ...args], {
    cwd: dir,
    env: { ...sandboxes.env, ...over },
  });
  return { ...r, report: r.stdout === '' ? undefined : (JSON.parse(r.stdout) as ReviewReport) };
}

const changesOf = (report: ReviewReport | undefined) =>
  report?.plan?.changes.map((c) => [c.action, c.kind, c.name, c.action === 'create' ? '' : c.id]);

test("an override edited by the change is production's own update of its trigger, linted and tested as production sees it", async () => {
  editGatewayOverrides((o) => (o['High error rate'] = { threshold: { value: 24 } }));
  const r = await review(['--env', 'production', '--changed-since', 'main', 'triggers']);
  assert.ok(r.report !== undefined, r.stderr);
  assert.equal(r.report.environment, 'production');
  assert.deepEqual(r.report.changedSince?.changed, [ENVIRONMENTS]);
  assert.deepEqual(changesOf(r.report), [['update', 'trigger', 'High error rate', PRODUCTION.triggers.gwErrors]]);
  assert.deepEqual(r.report.fromChange, [0]);
  assert.equal(r.report.plan?.target.baseUrl, sandboxes.production.base);
  assert.deepEqual(
    r.report.lint.map((f) => [f.file, f.diagnostics.length]),
    [[HIGH, 0]],
  );
  assert.deepEqual(
    r.report.tests.files.map((f) => f.file),
    ['triggers/api-gateway/High-error-rate.trigger-test.json'],
  );
});

test("staging's review of a change to production's overrides has nothing of its own: the home sees the files as they are", async () => {
  editGatewayOverrides((o) => (o['High error rate'] = { threshold: { value: 24 } }));
  const r = await review(['--env', 'staging', '--changed-since', 'main', 'triggers']);
  assert.ok(r.report !== undefined, r.stderr);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.report.environment, 'staging');
  assert.equal(r.report.plan?.target.baseUrl, sandboxes.staging.base);
  assert.deepEqual(changesOf(r.report), []);
  assert.deepEqual(r.report.fromChange, []);
  assert.deepEqual(r.report.lint, []);
  assert.deepEqual(r.report.tests.files, []);
});

test('an override the linter refuses is a finding at its place in the environments file, and blocks its trigger there', async () => {
  // Edited in place, as a person would: the one line changes.
  const text = readFileSync(join(dir, ENVIRONMENTS), 'utf8');
  const line = '"High error rate": { "threshold": { "value": 20 } },';
  assert.ok(text.includes(line));
  writeFileSync(join(dir, ENVIRONMENTS), text.replace(line, line.replace('20 }', '20, "op": "=>" }')));
  const r = await review(['--env', 'production', '--changed-since', 'main', 'triggers']);
  assert.ok(r.report !== undefined, r.stderr);
  assert.deepEqual(
    r.report.lint.map((f) => [f.file, f.diagnostics.map((d) => [d.rule, d.range.start.line + 1])]),
    [
      [HIGH, []],
      [ENVIRONMENTS, [['trigger/threshold-op', 22]]],
    ],
  );
  assert.deepEqual(r.report.changedLines?.[ENVIRONMENTS], [22]);
  assert.deepEqual(
    r.report.plan?.blocked.map((b) => [b.name, b.reasons]),
    [
      [
        'High error rate',
        [
          'trigger/threshold-op (obs.environments.json environments.production."triggers"."api-gateway"."High error rate"."threshold"."op"): threshold op "=>" is not allowed; expected one of >, >=, <, <=',
        ],
      ],
    ],
  );
  // Its tests cannot evaluate a trigger without a valid op: said as tests that could not run (exit 2).
  assert.equal(r.code, 2, r.stderr);
});

test("a trigger file the change deletes, with --prune: production's delete of that trigger, by its name, is the change's own", async () => {
  rmSync(join(dir, HIGH));
  editGatewayOverrides((o) => delete o['High error rate']);
  const r = await review(['--env', 'production', '--prune', '--changed-since', 'main', 'triggers']);
  assert.ok(r.report !== undefined, r.stderr);
  const deletes = r.report.plan?.changes.flatMap((c, i) => (c.action === 'delete' ? [[i, c.name, c.id]] : []));
  assert.deepEqual(deletes, [[0, 'High error rate', PRODUCTION.triggers.gwErrors]]);
  assert.deepEqual(r.report.fromChange, [0]);
});

test('an environment the environments file does not name: exit 2 naming those it has, nothing reviewed', async () => {
  const r = await review(['--env', 'prod', 'triggers']);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    'obs: obs.environments.json has no environment "prod" (its environments: staging, production); nothing was reviewed\n',
  );
});

test("--comment posts production's review as production's own comment of the pull request", async () => {
  const fake = await FakeGitHub.start('ghs_token', 'team/triggers', [7]);
  try {
    const event = join(dir, '..', `${join(dir).split('/').pop() ?? ''}-event.json`);
    writeFileSync(event, JSON.stringify({ action: 'synchronize', number: 7, pull_request: { number: 7 } }));
    editGatewayOverrides((o) => (o['High error rate'] = { threshold: { value: 24 } }));
    const r = await review(['--env', 'production', '--changed-since', 'main', '--comment', 'triggers'], {
      GITHUB_TOKEN: 'ghs_token',
      GITHUB_REPOSITORY: 'team/triggers',
      GITHUB_API_URL: fake.url,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
    });
    rmSync(event);
    assert.ok(r.stderr.includes('the review is posted to the pull request'), r.stderr);
    const bodies = fake.comments(7).map((c) => c.body.split('\n').slice(0, 2));
    assert.deepEqual(bodies, [
      ['<!-- obs-review production: obs edits this comment in place on each run -->', '## Trigger review: production'],
    ]);
  } finally {
    await fake.close();
  }
});
