// The GitHub Actions workflow of docs/ci/triggers.yml, run: its jobs' steps in bash, in clones of a bare
// repository standing for GitHub, against two sandboxes standing for staging and production (ci-flow-world.ts,
// ci-flow-runner.ts). A pull request is planned and its merge applied; pull requests open at once are merged
// and applied in turn; a rename leaves one live trigger; a change made in the UI stops the main job until a
// pull request takes it or a run by hand overwrites it; the same files go to staging, then production.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { holds, loadWorkflow, WORKFLOW_FILE, type JobRun } from './ci-flow-runner';
import { GW, inWorld, type World } from './ci-flow-world';

const HIGH = 'High-error-rate.trigger.json';
const OFFICE = 'Office-hours-latency.trigger.json';
const GATE = 'Changes made on the service since the last apply';
const APPLY_STEPS = ['The commit last applied', 'Plan', GATE, 'Apply', 'Record the commit applied'];

const threshold = (t: Record<string, unknown>) => (t.threshold as { value: number }).value;
const withThreshold = (t: Record<string, unknown>, value: number) => ({
  ...t,
  threshold: { ...(t.threshold as object), value },
});
const steps = (run: JobRun) => run.steps.map((s) => [s.name, s.code]);
const allPassed = (names: string[]) => names.map((n) => [n, 0]);

test('the apply jobs run one at a time per service, none cancelled, production after staging, with the same steps', () => {
  const { jobs } = loadWorkflow();
  assert.deepEqual(jobs['apply-staging']?.concurrency, { group: 'obs-apply-staging', 'cancel-in-progress': false });
  assert.deepEqual(jobs['apply-production']?.concurrency, {
    group: 'obs-apply-production',
    'cancel-in-progress': false,
  });
  assert.equal(jobs['apply-production']?.needs, 'apply-staging');
  assert.deepEqual(jobs['apply-production']?.steps, jobs['apply-staging']?.steps);
});

test('no run script holds an expression: values reach the scripts as environment variables only', () => {
  const scripts = Object.values(loadWorkflow().jobs).flatMap((j) =>
    j.steps.flatMap((s) => (s.run === undefined ? [] : [s.run])),
  );
  assert.deepEqual(
    scripts.filter((s) => s.includes('${{')),
    [],
  );
});

test('a pull request from a fork is not planned: it gets no secrets', () => {
  const job = loadWorkflow().jobs.plan;
  const contexts = { 'github.event_name': 'pull_request', 'github.repository': 'team/triggers' };
  assert.equal(
    holds(job?.if ?? '', { ...contexts, 'github.event.pull_request.head.repo.full_name': 'someone/triggers' }),
    false,
  );
  assert.equal(
    holds(job?.if ?? '', { ...contexts, 'github.event.pull_request.head.repo.full_name': 'team/triggers' }),
    true,
  );
});

test('docs/TRIGGER-FILES.md shows the workflow as committed', () => {
  const docs = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'TRIGGER-FILES.md'), 'utf8');
  assert.ok(
    docs.includes(`\n\`\`\`yaml\n${readFileSync(WORKFLOW_FILE, 'utf8')}\`\`\`\n`),
    'the yaml block of docs/TRIGGER-FILES.md differs from docs/ci/triggers.yml',
  );
});

test('a pull request gets the plan against each service as review text, with keys that only read, and writes nothing', () =>
  inWorld(async (w) => {
    const pr = await w.pullRequest('raise-threshold', () => w.write(HIGH, withThreshold(w.read(HIGH), 9)));
    const run = await w.planPullRequest(pr);
    assert.deepEqual(steps(run), allPassed(['Plan against staging', 'Plan against production']), run.log);
    assert.equal(run.log.split('\n').filter((l) => l === '      threshold.value: 5 -> 9').length, 2, run.log);
    assert.deepEqual(
      [
        threshold(await w.trigger('staging', 'High error rate')),
        threshold(await w.trigger('production', 'High error rate')),
      ],
      [5, 5],
    );
  }));

test('a merged pull request is applied by the main job, which records the commit applied', () =>
  inWorld(async (w) => {
    const sha = await w.merge(
      await w.pullRequest('raise-threshold', () => w.write(HIGH, withThreshold(w.read(HIGH), 9))),
    );
    const run = await w.apply('staging', sha);
    assert.deepEqual(steps(run), allPassed(APPLY_STEPS), run.log);
    assert.ok(run.log.includes('      threshold.value: 5 -> 9\n'), run.log);
    assert.equal(threshold(await w.trigger('staging', 'High error rate')), 9);
    assert.equal(await w.applied('staging'), sha);
  }));

test('two pull requests open at once, merged one after the other: each is applied in turn over what the other left', () =>
  inWorld(async (w) => {
    const a = await w.pullRequest('errors', () => w.write(HIGH, withThreshold(w.read(HIGH), 9)));
    const b = await w.pullRequest('latency', () => w.write(OFFICE, withThreshold(w.read(OFFICE), 300)));
    for (const pr of [a, b]) assert.equal((await w.planPullRequest(pr)).ok, true);
    const first = await w.apply('staging', await w.merge(a));
    const second = await w.apply('staging', await w.merge(b));
    assert.deepEqual(
      [steps(first), steps(second)],
      [allPassed(APPLY_STEPS), allPassed(APPLY_STEPS)],
      first.log + second.log,
    );
    assert.ok(second.log.includes('0 to create, 1 to update, 0 to delete, 6 unchanged, 0 blocked\n'), second.log);
    assert.deepEqual(
      [
        threshold(await w.trigger('staging', 'High error rate')),
        threshold(await w.trigger('staging', 'Office-hours latency')),
      ],
      [9, 300],
    );
    assert.equal(await w.applied('staging'), await w.git(w.dev, 'rev-parse', 'HEAD'));
  }));

test('merges faster than the jobs: the run GitHub drops for a newer one is applied by it, and an older run, run again, writes nothing', () =>
  inWorld(async (w) => {
    const c = await w.merge(await w.pullRequest('c', () => w.write(HIGH, withThreshold(w.read(HIGH), 9))));
    await w.merge(await w.pullRequest('d', () => w.write(OFFICE, withThreshold(w.read(OFFICE), 300))));
    const e = await w.merge(
      await w.pullRequest('e', () => w.write(OFFICE, { ...w.read(OFFICE), description: 'Set by e' })),
    );
    assert.equal((await w.apply('staging', c)).ok, true);
    // d's run waited while c's ran, and GitHub dropped it when e's arrived.
    const newest = await w.apply('staging', e);
    assert.deepEqual(steps(newest), allPassed(APPLY_STEPS), newest.log);
    const office = await w.trigger('staging', 'Office-hours latency');
    assert.deepEqual([threshold(office), office.description], [300, 'Set by e']);
    const before = await w.triggers('staging');
    const again = await w.apply('staging', c);
    assert.deepEqual(steps(again), allPassed(['The commit last applied']), again.log);
    assert.ok(
      again.log.includes(`Nothing to do: ${c} is already applied (obs-applied/staging is at ${e}).\n`),
      again.log,
    );
    assert.deepEqual(await w.triggers('staging'), before);
    assert.equal(await w.applied('staging'), e);
  }));

test('a trigger created from a file without an id, then renamed in it: one live trigger, of the new name', () =>
  inWorld(async (w) => {
    const { id: _id, ...high } = w.read(HIGH);
    const file = 'Checkout-errors.trigger.json';
    await w.apply(
      'staging',
      await w.merge(await w.pullRequest('create', () => w.write(file, { ...high, name: 'Checkout errors' }))),
    );
    assert.equal(w.read(file).id, undefined);
    const rename = await w.pullRequest('rename', () => w.write(file, { ...w.read(file), name: 'Checkout failures' }));
    assert.ok(
      (await w.planPullRequest(rename)).log.includes('(probably "Checkout errors" ('),
      'the plan names the rename',
    );
    const run = await w.apply('staging', await w.merge(rename));
    assert.deepEqual(steps(run), allPassed(APPLY_STEPS), run.log);
    const names = (await w.triggers('staging')).map((t) => t.name);
    assert.deepEqual(
      [names.length, names.filter((n) => n === 'Checkout failures').length, names.includes('Checkout errors')],
      [8, 1, false],
    );
  }));

/** A change to "High error rate" made in staging's UI, then a merge of an unrelated change: its main job. */
async function mergeAfterUiEdit(w: World): Promise<{ sha: string; run: JobRun; description: unknown }> {
  const description = w.read(HIGH).description;
  await w.editInTheUi('staging', 'High error rate', { description: 'Edited in the UI' });
  const sha = await w.merge(await w.pullRequest('latency', () => w.write(OFFICE, withThreshold(w.read(OFFICE), 300))));
  return { sha, run: await w.apply('staging', sha), description };
}

test('a change made in the UI since the last apply stops the main job, shown, and nothing is written', () =>
  inWorld(async (w) => {
    const tag = await w.applied('staging');
    const { run, description } = await mergeAfterUiEdit(w);
    const [high, office] = [
      await w.trigger('staging', 'High error rate'),
      await w.trigger('staging', 'Office-hours latency'),
    ];
    assert.deepEqual(
      [high.description, threshold(office), await w.applied('staging')],
      ['Edited in the UI', 250, tag],
      run.log,
    );
    assert.deepEqual(steps(run), [...allPassed(['The commit last applied', 'Plan']), [GATE, 1]], run.log);
    assert.ok(run.log.includes(`\n  description: "Edited in the UI" -> ${JSON.stringify(description)}\n`), run.log);
  }));

test('a change made in the UI, brought into the files by a pull request: its merge applies what waited, the change kept', () =>
  inWorld(async (w) => {
    assert.equal((await mergeAfterUiEdit(w)).run.ok, false);
    const sha = await w.merge(
      await w.pullRequest('take-the-ui-edit', () =>
        w.write(HIGH, { ...w.read(HIGH), description: 'Edited in the UI' }),
      ),
    );
    const run = await w.apply('staging', sha);
    assert.deepEqual(steps(run), allPassed(APPLY_STEPS), run.log);
    const [high, office] = [
      await w.trigger('staging', 'High error rate'),
      await w.trigger('staging', 'Office-hours latency'),
    ];
    assert.deepEqual([high.description, threshold(office), await w.applied('staging')], ['Edited in the UI', 300, sha]);
  }));

test('a change made in the UI is overwritten by a run started by hand with overwrite, which shows it first', () =>
  inWorld(async (w) => {
    const { sha, description } = await mergeAfterUiEdit(w);
    const plain = await w.apply('staging', sha, { overwrite: false });
    assert.deepEqual(plain.steps.at(-1), { name: GATE, code: 1 }, plain.log);
    const run = await w.apply('staging', sha, { overwrite: true });
    assert.deepEqual(steps(run), allPassed(APPLY_STEPS), run.log);
    const shown = [
      `  description: "Edited in the UI" -> ${JSON.stringify(description)}`,
      '7 files compared: 6 in sync, 1 differ, 0 only local, 0 only on the service',
    ];
    assert.ok(
      run.log.includes(
        `\n${[...shown, '::warning::The changes above are overwritten, as this run was asked to.'].join('\n')}\n== Apply\n`,
      ),
      run.log,
    );
    const [high, office] = [
      await w.trigger('staging', 'High error rate'),
      await w.trigger('staging', 'Office-hours latency'),
    ];
    assert.deepEqual([high.description, threshold(office), await w.applied('staging')], [description, 300, sha]);
  }));

test('the same files go to staging, then production, each trigger matched by name: production keeps its own ids', () =>
  inWorld(async (w) => {
    await w.newIds('production');
    const productionId = (await w.trigger('production', 'High error rate')).id;
    const { id: _id, ...high } = w.read(HIGH);
    const pr = await w.pullRequest('both', () => {
      w.write(HIGH, withThreshold(w.read(HIGH), 9));
      w.write('Checkout-errors.trigger.json', { ...high, name: 'Checkout errors' });
    });
    assert.ok(
      (await w.planPullRequest(pr)).log.includes(`  ~ ${GW} "High error rate" (${String(productionId)})`),
      'the production plan names its own trigger',
    );
    const sha = await w.merge(pr);
    for (const environment of ['staging', 'production'] as const) {
      const run = await w.apply(environment, sha);
      assert.deepEqual(steps(run), allPassed(APPLY_STEPS), `${environment}: ${run.log}`);
      const triggers = await w.triggers(environment);
      assert.deepEqual(
        [
          threshold(await w.trigger(environment, 'High error rate')),
          triggers.filter((t) => t.name === 'Checkout errors').length,
          await w.applied(environment),
        ],
        [9, 1, sha],
      );
    }
    const production = await w.triggers('production');
    assert.deepEqual(
      [(await w.trigger('production', 'High error rate')).id, production.some((t) => t.id === 'trig_gw_errors')],
      [productionId, false],
    );
  }));

test('without the tag of the commit applied the job stops, saying how to start; a run by hand with overwrite applies main and sets it', () =>
  inWorld(
    async (w) => {
      const sha = await w.merge(
        await w.pullRequest('raise-threshold', () => w.write(HIGH, withThreshold(w.read(HIGH), 9))),
      );
      const stopped = await w.apply('production', sha);
      assert.deepEqual(steps(stopped), [['The commit last applied', 1]], stopped.log);
      assert.ok(
        stopped.log.includes(
          '::error::No tag obs-applied/production: tag the commit whose files the service holds, or run this workflow with overwrite',
        ),
        stopped.log,
      );
      const started = await w.apply('production', sha, { overwrite: true });
      assert.deepEqual(
        steps(started),
        allPassed(['The commit last applied', 'Plan', 'Apply', 'Record the commit applied']),
        started.log,
      );
      assert.deepEqual(
        [threshold(await w.trigger('production', 'High error rate')), await w.applied('production')],
        [9, sha],
      );
    },
    ['staging'],
  ));
