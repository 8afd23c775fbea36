// The repository's GitHub Action (action.yml), run: its steps in bash as a runner runs them (action-runner.ts),
// obs installed by its own step from the package `npm pack` makes here (offline), a sandbox as the service, a
// local fake of GitHub's API (github-fake.ts) for the comment, and a repository with a base and a head commit of
// trigger files.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import * as z from 'zod';
import { runMain } from '../../src/cli/main';
import { MARKER } from '../../src/cli/github/comment';
import { DEMO, SANDBOX_CREDENTIALS } from '../../src/sandbox';
import { loadAction, runAction, type ActionRun } from './action-runner';
import { FakeGitHub } from './github-fake';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

const root = join(import.meta.dirname, '..', '..');
const GW = DEMO.datasets.gateway;
const HIGH = 'High-error-rate.trigger.json';
const REPOSITORY = 'team/triggers';
const PR = 7;
const TOKEN = 'ghs_actionTestToken0123456789abcdef';

let dir = '';
let tarball = '';
let sandbox: TestSandbox;
let base = '';
let head = '';
const env: Record<string, string> = {};

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

before(async () => {
  assert.ok(existsSync(join(root, 'dist', 'cli.js')), 'dist/cli.js is missing: run node esbuild.mjs first');
  dir = mkdtempSync(join(tmpdir(), 'obs-action-'));
  sandbox = await startTestSandbox({ rateLimit: 100_000 });
  Object.assign(env, {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    LANG: 'C',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Dev',
    GIT_AUTHOR_EMAIL: 'dev@example.com',
    GIT_COMMITTER_NAME: 'Dev',
    GIT_COMMITTER_EMAIL: 'dev@example.com',
    // The action's npm install finds the package in the tarball alone: no registry, no user configuration.
    npm_config_offline: 'true',
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_userconfig: join(dir, 'npmrc'),
  });
  const packed = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  tarball = join(dir, packed.trim());
  // origin, with main holding the gateway's triggers as the service holds them, and a branch raising a threshold.
  git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', 'origin.git');
  git(dir, 'clone', '--quiet', 'origin.git', 'dev');
  const dev = join(dir, 'dev');
  const pulled = await runMain(['pull', '--dataset', GW, '--out', 'triggers'], {
    cwd: dev,
    env: { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey },
    stdout: () => undefined,
    stderr: () => undefined,
  });
  assert.equal(pulled, 0);
  git(dev, 'add', '-A');
  git(dev, 'commit', '--quiet', '-m', 'The triggers as the service holds them');
  git(dev, 'push', '--quiet', 'origin', 'main');
  base = git(dev, 'rev-parse', 'HEAD');
  git(dev, 'checkout', '--quiet', '-b', 'raise-threshold');
  const file = join(dev, 'triggers', GW, HIGH);
  const high = JSON.parse(readFileSync(file, 'utf8')) as { threshold: Record<string, unknown> };
  writeFileSync(file, `${JSON.stringify({ ...high, threshold: { ...high.threshold, value: 9 } }, null, 2)}\n`);
  git(dev, 'commit', '--quiet', '-am', 'Raise the threshold of High error rate');
  git(dev, 'push', '--quiet', 'origin', 'raise-threshold');
  head = git(dev, 'rev-parse', 'HEAD');
});

after(async () => {
  await sandbox.handle.close();
  rmSync(dir, { recursive: true, force: true });
});

let runs = 0;

/** A fresh clone of origin at `sha`, as actions/checkout with fetch-depth 0 makes it. */
function checkout(sha: string): string {
  const cwd = join(dir, `run-${++runs}`);
  git(dir, 'clone', '--quiet', 'origin.git', cwd);
  git(cwd, 'checkout', '--quiet', '--detach', sha);
  return cwd;
}

/** The action in a pull_request job of PR #7, on its head commit, with `with` as the workflow gives it. */
async function reviewJob(fake: FakeGitHub, withInputs: Record<string, string>): Promise<ActionRun> {
  const cwd = checkout(head);
  const event = join(dir, `event-${runs}.json`);
  writeFileSync(
    event,
    JSON.stringify({
      action: 'synchronize',
      number: PR,
      pull_request: { number: PR, base: { sha: base }, head: { sha: head, repo: { full_name: REPOSITORY } } },
    }),
  );
  const runnerTemp = join(dir, `runner-temp-${runs}`);
  mkdirSync(runnerTemp);
  return runAction(loadAction(), {
    cwd,
    with: withInputs,
    contexts: { 'github.token': TOKEN, 'github.event.pull_request.base.sha': base },
    env: {
      ...env,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_API_URL: fake.url,
      GITHUB_SHA: head,
      GITHUB_WORKSPACE: cwd,
      GITHUB_STEP_SUMMARY: join(runnerTemp, 'summary.md'),
      RUNNER_TEMP: runnerTemp,
    },
  });
}

test('no run script of the action holds an expression: inputs reach the scripts as environment variables only', () => {
  const scripts = loadAction().runs.steps.map((s) => s.run);
  assert.deepEqual(
    scripts.filter((s) => s.includes('${{')),
    [],
  );
});

test('a pull request gets its review as one comment, and a later run of the same changes sends no edit', async () => {
  const fake = await FakeGitHub.start(TOKEN, REPOSITORY, [PR]);
  try {
    const inputs = {
      'base-url': sandbox.base,
      'config-key': SANDBOX_CREDENTIALS.readOnlyConfigKey,
      'obs-package': tarball,
    };
    const first = await reviewJob(fake, inputs);
    assert.deepEqual(
      first.steps,
      [
        ['Install obs', 0],
        ['Check the inputs', 0],
        ['Review', 0],
      ],
      first.log,
    );
    const comments = fake.comments(PR);
    assert.equal(comments.length, 1);
    assert.ok(comments[0]?.body.startsWith(`${MARKER}\n## Trigger review\n\n**1 change to apply**`), comments[0]?.body);
    assert.ok(comments[0]?.body.includes('  - threshold\\.value\\: 5 \\-&gt; 9\n'), comments[0]?.body);
    const second = await reviewJob(fake, inputs);
    assert.deepEqual(
      second.steps.map(([, code]) => code),
      [0, 0, 0],
      second.log,
    );
    assert.deepEqual(fake.sent(), [
      `GET /repos/${REPOSITORY}/issues/${PR}/comments?per_page=100`,
      `POST /repos/${REPOSITORY}/issues/${PR}/comments`,
      `GET /repos/${REPOSITORY}/issues/${PR}/comments?per_page=100`,
    ]);
    assert.equal(fake.comments(PR).length, 1);
    for (const secret of [SANDBOX_CREDENTIALS.readOnlyConfigKey, TOKEN])
      assert.ok(!first.log.includes(secret) && !second.log.includes(secret), 'a secret was printed');
  } finally {
    await fake.close();
  }
});

/** The action in a push job of main's commit `sha`, with `with` as the workflow gives it. */
async function mainJob(sha: string, withInputs: Record<string, string>): Promise<ActionRun> {
  const cwd = checkout(sha);
  const runnerTemp = join(dir, `runner-temp-${runs}`);
  mkdirSync(runnerTemp);
  return runAction(loadAction(), {
    cwd,
    with: {
      'base-url': sandbox.base,
      'config-key': sandbox.handle.info.configKey,
      'obs-package': tarball,
      ...withInputs,
    },
    contexts: { 'github.token': TOKEN, 'github.event.pull_request.base.sha': '' },
    env: {
      ...env,
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_SHA: sha,
      GITHUB_REF: 'refs/heads/main',
      GITHUB_WORKSPACE: cwd,
      RUNNER_TEMP: runnerTemp,
    },
  });
}

test('a mode that is none of review, plan and apply stops the action before obs runs', async () => {
  const run = await mainJob(base, { mode: 'deploy' });
  assert.deepEqual(run.steps, [
    ['Install obs', 0],
    ['Check the inputs', 1],
  ]);
  assert.ok(run.log.includes('::error::mode is "deploy": it is review, plan or apply.\n'), run.log);
});

test('mode apply without the tag of the commit last applied writes nothing and says what to do', async () => {
  const run = await mainJob(head, { mode: 'apply', 'applied-tag': 'obs-applied/staging' });
  assert.deepEqual(run.steps.at(-1), ['The commit last applied', 1]);
  assert.ok(
    run.log.includes(
      '::error::No tag obs-applied/staging: tag the commit whose files the service holds, or run this workflow ' +
        'with overwrite to apply main as it is.\n',
    ),
    run.log,
  );
  const high = await sandbox.v1('GET', `/1/triggers/${GW}/trig_gw_errors`);
  assert.equal((high.json() as { threshold: { value: number } }).threshold.value, 5);
});

test('mode plan prints what an apply would change and writes nothing', async () => {
  const run = await mainJob(head, { mode: 'plan', 'config-key': SANDBOX_CREDENTIALS.readOnlyConfigKey });
  assert.deepEqual(run.steps, [
    ['Install obs', 0],
    ['Check the inputs', 0],
    ['Plan', 0],
  ]);
  assert.ok(run.log.includes('      threshold.value: 5 -> 9\n'), run.log);
  assert.ok(run.log.includes('0 to create, 1 to update, 0 to delete, 6 unchanged, 0 blocked\n'), run.log);
  const high = (await sandbox.v1('GET', `/1/triggers/${GW}/trig_gw_errors`)).json() as { threshold: { value: number } };
  assert.equal(high.threshold.value, 5);
});

test('mode apply stops at the gate, writing nothing, when the service changed since the last apply', async () => {
  const dev = join(dir, 'dev');
  git(dev, 'tag', 'obs-applied/gate-test', base);
  git(dev, 'push', '--quiet', 'origin', 'obs-applied/gate-test');
  const path = `/1/triggers/${GW}/trig_gw_errors`;
  const {
    id: _id,
    query_id: savedQuery,
    ...before
  } = (await sandbox.v1('GET', path)).json() as Record<string, unknown>;
  const sent = before.query === undefined ? { ...before, query_id: savedQuery } : before;
  const edited = await sandbox.v1('PUT', path, { ...sent, description: 'Edited in the UI' });
  assert.equal(edited.status, 200, edited.text);
  try {
    const run = await mainJob(head, { mode: 'apply', 'applied-tag': 'obs-applied/gate-test' });
    assert.deepEqual(run.steps.slice(2), [
      ['The commit last applied', 0],
      ['Plan the apply', 0],
      ['Changes made on the service since the last apply', 1],
    ]);
    assert.ok(run.log.includes('::error::Nothing was written: the service changed since the last apply'), run.log);
    const high = (await sandbox.v1('GET', path)).json() as { threshold: { value: number } };
    assert.equal(high.threshold.value, 5);
  } finally {
    const restored = await sandbox.v1('PUT', path, sent);
    assert.equal(restored.status, 200, restored.text);
  }
});

// Last: it changes the sandbox the tests above read.
test('mode apply on a merge into main plans, passes the gate, applies and moves the tag', async () => {
  const dev = join(dir, 'dev');
  git(dev, 'checkout', '--quiet', 'main');
  git(dev, 'tag', 'obs-applied/production', base);
  git(dev, 'merge', '--quiet', '--no-ff', '--no-edit', 'raise-threshold');
  git(dev, 'push', '--quiet', '--tags', 'origin', 'main');
  const merged = git(dev, 'rev-parse', 'HEAD');
  const run = await mainJob(merged, { mode: 'apply', 'applied-tag': 'obs-applied/production' });
  assert.deepEqual(
    run.steps,
    [
      ['Install obs', 0],
      ['Check the inputs', 0],
      ['The commit last applied', 0],
      ['Plan the apply', 0],
      ['Changes made on the service since the last apply', 0],
      ['Apply', 0],
      ['Record the commit applied', 0],
    ],
    run.log,
  );
  const high = await sandbox.v1('GET', `/1/triggers/${GW}/trig_gw_errors`);
  assert.equal((high.json() as { threshold: { value: number } }).threshold.value, 9);
  assert.equal(git(dir, '--git-dir', 'origin.git', 'rev-parse', 'refs/tags/obs-applied/production'), merged);
  assert.ok(!run.log.includes(sandbox.handle.info.configKey), 'the key was printed');
});

test('docs/ci/review.yml gives the action only inputs it declares, and each job one of its modes', () => {
  const Uses = z.object({ uses: z.string().optional(), with: z.record(z.string(), z.unknown()).optional() });
  const Workflow = z.object({ jobs: z.record(z.string(), z.object({ steps: z.array(Uses) })) });
  const file = join(root, 'docs', 'ci', 'review.yml');
  const workflow = Workflow.parse(load(readFileSync(file, 'utf8'), { filename: file }));
  const declared = Object.keys(loadAction().inputs);
  const used = Object.entries(workflow.jobs).map(([job, { steps }]) => {
    const step = steps.find((s) => s.uses?.startsWith('obs-tools/obs-vscode@'));
    return [job, step?.with?.mode, Object.keys(step?.with ?? {}).filter((k) => !declared.includes(k))];
  });
  assert.deepEqual(used, [
    ['review', 'review', []],
    ['apply-staging', 'apply', []],
    ['apply-production', 'apply', []],
  ]);
});
