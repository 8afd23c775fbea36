// The GitHub Actions workflow of docs/ci/environments.yml, run as test/unit/ci-flow.test.ts runs
// docs/ci/triggers.yml (ci-flow-world.ts, ci-flow-runner.ts): one set of trigger files and obs.environments.json
// (the demo workspace's), two sandboxes standing for staging and production, each with its own data and keys.
// A pull request is linted as production sees it and planned for each environment; a merge into main is applied
// to staging alone; a release tag applies production's own triggers; a change made in production's UI stops the
// release until a run by hand overwrites it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO, PRODUCTION, PRODUCTION_CREDENTIALS, SANDBOX_CREDENTIALS } from '../../src/sandbox';
import { ENVIRONMENTS_WORKFLOW_FILE, holds, loadWorkflow, type JobRun } from './ci-flow-runner';
import { ENVIRONMENTS_FILE, ENVIRONMENTS_RECIPE, inWorld, type Environment, type World } from './ci-flow-world';
import { runObs } from './obs-run';

const HIGH = 'High-error-rate.trigger.json';
const HIGH_FILE = `triggers/api-gateway/${HIGH}`;
/** Production's override of "High error rate", one line of the demo's environments file. */
const OVERRIDE = '"High error rate": { "threshold": { "value": 20 } }';
/** The demo's trigger files, but its draft. */
const FILES = 13;
const LINT = 'Lint as production sees it';
const GATE = 'Changes made on the service since the last apply';
/** The one finding of the demo's files as production sees them: a warning its trigger has on purpose. */
const DEMO_WARNING =
  '::warning file=triggers/api-gateway/Legacy-settings-linter-warnings-on-purpose.trigger.json,line=17,col=3,endLine=26,endColumn=4,title=obs lint%3A trigger/evaluation-schedule-unused::evaluation_schedule has no effect: evaluation_schedule_type is absent (frequency, the default), so the trigger runs at every frequency interval, also outside the window; set evaluation_schedule_type to window, or remove evaluation_schedule';

const inEnvironments = (body: (w: World) => Promise<void>) => inWorld(body, undefined, ENVIRONMENTS_RECIPE);

/** Each step run: its name, its exit status and what it printed. */
const printedBy = (run: JobRun) => run.steps.map((s, i) => [s.name, s.code, run.printed[i]]);

/** Production's override of "High error rate" in the developers' clone, its line edited. The file's new text. */
function overrideHigh(w: World, threshold: string): string {
  const file = join(w.dev, ENVIRONMENTS_FILE);
  const text = readFileSync(file, 'utf8');
  assert.equal(text.split(OVERRIDE).length, 2, `${ENVIRONMENTS_FILE} holds ${OVERRIDE} once`);
  const edited = text.replace(OVERRIDE, `"High error rate": { "threshold": ${threshold} }`);
  writeFileSync(file, edited);
  return edited;
}

const counts = (updates: number) =>
  `0 to create, ${updates} to update, 0 to delete, ${FILES - updates} unchanged, 0 blocked\n`;
const highId = (environment: Environment) =>
  environment === 'production' ? PRODUCTION.triggers.gwErrors : DEMO.triggers.gwErrors;

/** What `obs plan --env` prints of the demo's files when "High error rate" alone differs by `changes` (or nothing does). */
function planned(w: World, environment: Environment, changes: readonly string[]): string {
  const head =
    `Plan against ${w.sandboxes[environment].base} for ${environment} as obs.environments.json describes it, ${FILES} files read\n` +
    (environment === 'production'
      ? "Each trigger matched by dataset and name (production is not the environment the files' ids are of): the files' ids are not used, and no created trigger's id is written into its file.\n"
      : '');
  if (changes.length === 0) return `${head}\nNothing to change: the service matches the files.\n\n${counts(0)}`;
  const resolved =
    environment === 'production'
      ? [`(recipient email "oncall@example.com" is ${PRODUCTION.recipients.emailOncall} in this team)`]
      : [];
  const lines = [...resolved, ...changes].map((l) => `      ${l}\n`).join('');
  return `${head}\nUpdate (service value -> file value):\n  ~ api-gateway "High error rate" (${highId(environment)})  ${HIGH_FILE}\n${lines}\n${counts(1)}`;
}

/** The gate's report: the files last applied compared with the service, `differs` the lines of the one that differs. */
function gateReport(environment: Environment, differs: readonly string[]): string {
  const differ = differs.length > 0 ? 1 : 0;
  return (
    `What changed on the service since .obs-applied/${environment}/triggers was applied, other than to what triggers holds:\n` +
    differs.map((l) => `${l}\n`).join('') +
    `${FILES} files compared: ${FILES - differ} in sync, ${differ} differ, 0 only local, 0 only on the service\n`
  );
}

/** An apply job that wrote "High error rate" as `changes` say, the gate having printed `gate`, over `last` applied. */
function appliedHigh(w: World, environment: Environment, last: string, changes: readonly string[], gate: string) {
  return [
    ['The commit last applied', 0, `Last applied to ${environment}: ${last}.\n`],
    ['Plan', 0, planned(w, environment, changes)],
    [GATE, 0, gate],
    [
      'Apply',
      0,
      `Applying trigger-plan.json (${counts(1).trimEnd()}) to ${w.sandboxes[environment].base}\n` +
        `applied  ~ api-gateway "High error rate" (${highId(environment)})\n\n1 applied, 0 skipped, 0 refused, 0 failed\n`,
    ],
    ['Record the commit applied', 0, `Updated tag 'obs-applied/${environment}' (was ${last.slice(0, 7)})\n`],
  ];
}

/** `obs plan --env` of main in the developers' clone, with the keys that only read. */
const planMain = (w: World, environment: Environment) =>
  runObs(['plan', '--env', environment, 'triggers'], {
    cwd: w.dev,
    env: {
      OBS_STAGING_BASE_URL: w.sandboxes.staging.base,
      OBS_STAGING_CONFIG_KEY: SANDBOX_CREDENTIALS.readOnlyConfigKey,
      OBS_PRODUCTION_BASE_URL: w.sandboxes.production.base,
      OBS_PRODUCTION_CONFIG_KEY: PRODUCTION_CREDENTIALS.readOnlyConfigKey,
    },
  });

const threshold = (t: Record<string, unknown>) => (t.threshold as { value: number }).value;

test('the jobs GitHub starts: a pull request plan, a merge into main apply-staging, a v* tag apply-production, a run by hand the apply job of the environment it names', () => {
  const { jobs } = loadWorkflow(ENVIRONMENTS_WORKFLOW_FILE);
  const started = (event: string, ref: string, inputs: Record<string, string> = {}) =>
    Object.entries(jobs)
      .filter(
        ([, job]) =>
          job.if === undefined ||
          holds(job.if, {
            'github.event_name': event,
            'github.ref': ref,
            'github.repository': 'team/triggers',
            'github.event.pull_request.head.repo.full_name': 'team/triggers',
            ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`inputs.${k}`, v])),
          }),
      )
      .map(([name]) => name);
  assert.deepEqual(
    [
      started('pull_request', 'refs/pull/7/merge'),
      started('push', 'refs/heads/main'),
      started('push', 'refs/tags/v1'),
      started('workflow_dispatch', 'refs/heads/main', { environment: 'staging', overwrite: 'true' }),
      started('workflow_dispatch', 'refs/heads/main', { environment: 'production', overwrite: 'true' }),
    ],
    [['plan'], ['apply-staging'], ['apply-production'], ['apply-staging'], ['apply-production']],
  );
});

test("a pull request that edits production's override alone: staging plans nothing, production plans the new threshold, nothing is written", () =>
  inEnvironments(async (w) => {
    const pr = await w.pullRequest('production-threshold', () => overrideHigh(w, '{ "value": 30 }'));
    const run = await w.planPullRequest(pr);
    assert.deepEqual(printedBy(run), [
      [LINT, 0, `${DEMO_WARNING}\n13 files checked: 0 errors, 1 warning, 0 infos\n`],
      ['Plan for staging', 0, planned(w, 'staging', [])],
      ['Plan for production', 0, planned(w, 'production', ['threshold.value: 20 -> 30'])],
    ]);
    assert.deepEqual([w.writes('staging'), w.writes('production')], [[], []]);
  }));

test('a pull request whose production override the linter refuses fails at the lint, annotated at the override in obs.environments.json', () =>
  inEnvironments(async (w) => {
    let text = '';
    const pr = await w.pullRequest('production-op', () => (text = overrideHigh(w, '{ "value": 20, "op": "=>" }')));
    const member = '"op": "=>"';
    const before = text.slice(0, text.indexOf(member)).split('\n');
    const [line, col] = [before.length, (before.at(-1)?.length ?? 0) + 1];
    const run = await w.planPullRequest(pr);
    assert.deepEqual(printedBy(run), [
      [
        LINT,
        1,
        `::error file=obs.environments.json,line=${line},col=${col},endLine=${line},endColumn=${col + member.length},title=obs lint%3A trigger/threshold-op::threshold op "=>" is not allowed; expected one of >, >=, <, <=\n` +
          `${DEMO_WARNING}\n14 files checked: 1 error, 1 warning, 0 infos\n`,
      ],
    ]);
    assert.deepEqual([w.writes('staging'), w.writes('production')], [[], []]);
  }));

test("a merge is applied to staging alone; its release tag applies production its own trigger, the override's threshold; then both plan nothing", () =>
  inEnvironments(async (w) => {
    const initial = await w.applied('production');
    const description = w.read(HIGH).description;
    const edited = 'Edited once for both environments.';
    const sha = await w.merge(
      await w.pullRequest('both', () => {
        w.write(HIGH, { ...w.read(HIGH), description: edited });
        overrideHigh(w, '{ "value": 24 }');
      }),
    );
    const describe = `description: ${JSON.stringify(description)} -> ${JSON.stringify(edited)}`;

    const staging = await w.apply('staging', sha);
    assert.deepEqual(printedBy(staging), appliedHigh(w, 'staging', initial, [describe], gateReport('staging', [])));
    assert.deepEqual(
      [await w.applied('staging'), await w.applied('production'), w.writes('production')],
      [sha, initial, []],
    );

    const production = await w.apply('production', await w.release('v1'), { tag: 'v1' });
    assert.deepEqual(
      printedBy(production),
      appliedHigh(w, 'production', initial, [describe, 'threshold.value: 20 -> 24'], gateReport('production', [])),
    );
    const [high, highInProduction] = [
      await w.trigger('staging', 'High error rate'),
      await w.trigger('production', 'High error rate'),
    ];
    assert.deepEqual([high.id, high.description, threshold(high)], [DEMO.triggers.gwErrors, edited, 5]);
    assert.deepEqual(
      [highInProduction.id, highInProduction.description, threshold(highInProduction), highInProduction.recipients],
      [
        PRODUCTION.triggers.gwErrors,
        edited,
        24,
        [{ id: PRODUCTION.recipients.emailOncall, type: 'email', target: 'oncall@example.com' }],
      ],
    );
    assert.deepEqual(
      [await w.applied('staging'), await w.applied('production'), w.writes('staging'), w.writes('production')],
      [
        sha,
        sha,
        [`PUT /1/triggers/api-gateway/${DEMO.triggers.gwErrors}`],
        [`PUT /1/triggers/api-gateway/${PRODUCTION.triggers.gwErrors}`],
      ],
    );
    for (const environment of ['staging', 'production'] as const)
      assert.deepEqual(await planMain(w, environment), { code: 0, stdout: planned(w, environment, []), stderr: '' });
  }));

test("a change made in production's UI stops its release at the gate, nothing written; a run by hand with overwrite applies over it", () =>
  inEnvironments(async (w) => {
    const initial = await w.applied('production');
    const original = w.read(HIGH).description;
    const description = JSON.stringify(original);
    await w.editInTheUi('production', 'High error rate', { description: 'Edited in the UI' });
    const uiEdit = [`PUT /1/triggers/api-gateway/${PRODUCTION.triggers.gwErrors}`];
    assert.deepEqual(w.writes('production'), uiEdit);
    const sha = await w.merge(await w.pullRequest('production-threshold', () => overrideHigh(w, '{ "value": 24 }')));
    const changes = [`description: "Edited in the UI" -> ${description}`, 'threshold.value: 20 -> 24'];
    const drifted = gateReport('production', [
      `.obs-applied/production/${HIGH_FILE}: differs from the service: "High error rate" (${PRODUCTION.triggers.gwErrors})`,
      `  description: "Edited in the UI" -> ${description}`,
    ]);

    const stopped = await w.apply('production', await w.release('v1'), { tag: 'v1' });
    assert.deepEqual(printedBy(stopped), [
      ['The commit last applied', 0, `Last applied to production: ${initial}.\n`],
      ['Plan', 0, planned(w, 'production', changes)],
      [
        GATE,
        1,
        `${drifted}::error::Nothing was written: production changed since the last apply (above). Bring the changes into the files with a pull request, or run this workflow with overwrite.\n`,
      ],
    ]);
    const held = await w.trigger('production', 'High error rate');
    assert.deepEqual(
      [held.description, threshold(held), w.writes('production'), await w.applied('production')],
      ['Edited in the UI', 20, uiEdit, initial],
    );

    const overwritten = await w.apply('production', sha, { overwrite: true });
    assert.deepEqual(
      printedBy(overwritten),
      appliedHigh(
        w,
        'production',
        initial,
        changes,
        `${drifted}::warning::The changes above are overwritten, as this run was asked to.\n`,
      ),
    );
    const high = await w.trigger('production', 'High error rate');
    assert.deepEqual(
      [high.description, threshold(high), w.writes('production'), await w.applied('production')],
      [original, 24, [...uiEdit, ...uiEdit], sha],
    );
  }));
