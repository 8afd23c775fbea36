// A team's repository of trigger files, for the tests of the CI recipes (test/unit/ci-flow.test.ts runs
// docs/ci/triggers.yml, test/unit/ci-environments.test.ts docs/ci/environments.yml): a bare repository stands
// for GitHub (origin), a developers' clone makes pull requests as branches, merges them into main and tags
// releases, two sandboxes stand for the staging and production services, and the committed workflow's jobs run
// in fresh clones of origin, as GitHub's runners check a commit out. Everything lives in one temporary folder,
// removed by close().
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEMO, PRODUCTION_CREDENTIALS, SANDBOX_CREDENTIALS, type SandboxOptions } from '../../src/sandbox';
import {
  ENVIRONMENTS_WORKFLOW_FILE,
  holds,
  loadWorkflow,
  obsOnPath,
  runJob,
  WORKFLOW_FILE,
  type Contexts,
  type JobRun,
  type Workflow,
} from './ci-flow-runner';
import { runObs } from './obs-run';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

const exec = promisify(execFile);
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
export const GW = DEMO.datasets.gateway;
const REPOSITORY = 'team/triggers';

export type Environment = 'staging' | 'production';
type Json = Record<string, unknown>;

/** What a job runs for: a pull request, a push (of main or of a tag), a run by hand on main (overwrite or not). */
type GitHubEvent =
  | { name: 'pull_request' }
  | { name: 'push'; ref: string }
  | { name: 'workflow_dispatch'; overwrite: boolean };

/** A recipe's world: its workflow, the services standing for its environments, and origin's first commit. */
export interface Recipe {
  readonly workflowFile: string;
  readonly sandboxes: Record<Environment, SandboxOptions>;
  /** Each service's keys: `configKey` writes (its GitHub environment's), `readOnlyConfigKey` reads (the PRs'). */
  readonly credentials: Record<Environment, { configKey: string; readOnlyConfigKey: string }>;
  /** Writes the files of origin's first commit, which the services hold, into the developers' clone. */
  seed(dev: string, staging: TestSandbox): Promise<void>;
}

/** docs/ci/triggers.yml: two services with the demo's data; origin holds the gateway's triggers as staging has them. */
export const TRIGGERS_RECIPE: Recipe = {
  workflowFile: WORKFLOW_FILE,
  sandboxes: { staging: { rateLimit: 100_000 }, production: { rateLimit: 100_000 } },
  credentials: { staging: SANDBOX_CREDENTIALS, production: SANDBOX_CREDENTIALS },
  async seed(dev, staging) {
    const env = { OBS_BASE_URL: staging.base, OBS_CONFIG_KEY: staging.handle.info.configKey };
    const pulled = await runObs(['pull', '--dataset', GW, '--out', 'triggers'], { cwd: dev, env });
    if (pulled.code !== 0) throw new Error(pulled.stderr);
  },
};

const DEMO_WORKSPACE = join(import.meta.dirname, '..', '..', 'demo', 'workspace');
export const ENVIRONMENTS_FILE = 'obs.environments.json';

/**
 * docs/ci/environments.yml: staging with the demo's data, production with its own (ids, recipients, a slug, keys);
 * origin holds the demo workspace's triggers/ and obs.environments.json, which plan clean against both, but for
 * its draft triggers/error-burst.trigger.json (on neither service, and with lint errors), and its
 * .vscode/settings.json (metrics-hosts is a metrics dataset: without it the linter refuses that dataset's triggers).
 */
export const ENVIRONMENTS_RECIPE: Recipe = {
  workflowFile: ENVIRONMENTS_WORKFLOW_FILE,
  sandboxes: {
    staging: { rateLimit: 100_000 },
    production: { rateLimit: 100_000, demoEnvironment: 'production' },
  },
  credentials: { staging: SANDBOX_CREDENTIALS, production: PRODUCTION_CREDENTIALS },
  seed(dev) {
    cpSync(join(DEMO_WORKSPACE, 'triggers'), join(dev, 'triggers'), { recursive: true });
    for (const file of [ENVIRONMENTS_FILE, '.vscode/settings.json'])
      cpSync(join(DEMO_WORKSPACE, file), join(dev, file), { recursive: true });
    rmSync(join(dev, 'triggers', 'error-burst.trigger.json'));
    return Promise.resolve();
  },
};

export class World {
  readonly workflow: Workflow;
  private runs = 0;

  private constructor(
    readonly root: string,
    readonly sandboxes: Record<Environment, TestSandbox>,
    private readonly base: Record<string, string>,
    readonly recipe: Recipe,
  ) {
    this.workflow = loadWorkflow(recipe.workflowFile);
  }

  /** Origin holding one commit of the recipe's files, as the services hold them, tagged as applied to `tagged`. */
  static async create(
    tagged: readonly Environment[] = ['staging', 'production'],
    recipe: Recipe = TRIGGERS_RECIPE,
  ): Promise<World> {
    if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run node esbuild.mjs first');
    const root = mkdtempSync(join(tmpdir(), 'obs-ci-flow-'));
    const [staging, production] = await Promise.all([
      startTestSandbox(recipe.sandboxes.staging),
      startTestSandbox(recipe.sandboxes.production),
    ]);
    const identity = {
      GIT_AUTHOR_NAME: 'Dev',
      GIT_AUTHOR_EMAIL: 'dev@example.com',
      GIT_COMMITTER_NAME: 'Dev',
      GIT_COMMITTER_EMAIL: 'dev@example.com',
    };
    const base = {
      PATH: `${obsOnPath(root, CLI)}:${process.env.PATH ?? ''}`,
      HOME: root,
      LANG: 'C',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      ...identity,
    };
    const world = new World(root, { staging, production }, base, recipe);
    await world.git(root, 'init', '--quiet', '--bare', '--initial-branch=main', 'origin.git');
    await world.git(root, 'clone', '--quiet', 'origin.git', 'dev');
    await recipe.seed(world.dev, staging);
    await world.git(world.dev, 'add', '-A');
    await world.git(world.dev, 'commit', '--quiet', '-m', 'The triggers as the services hold them');
    await world.git(world.dev, 'push', '--quiet', 'origin', 'main');
    // The documented start: the tag of each environment on the commit whose files its service holds.
    for (const e of tagged) await world.git(world.dev, 'tag', `obs-applied/${e}`);
    if (tagged.length > 0) await world.git(world.dev, 'push', '--quiet', 'origin', '--tags');
    return world;
  }

  async close(): Promise<void> {
    await Promise.all([this.sandboxes.staging.handle.close(), this.sandboxes.production.handle.close()]);
    rmSync(this.root, { recursive: true, force: true });
  }

  get dev(): string {
    return join(this.root, 'dev');
  }

  async git(cwd: string, ...args: string[]): Promise<string> {
    return (await exec('git', args, { cwd, env: this.base })).stdout.trim();
  }

  /** A trigger file of the developers' clone (a name of the gateway's folder), read or written as JSON. */
  read(name: string): Json {
    return JSON.parse(readFileSync(join(this.dev, 'triggers', GW, name), 'utf8')) as Json;
  }

  write(name: string, value: Json): void {
    writeFileSync(join(this.dev, 'triggers', GW, name), `${JSON.stringify(value, null, 2)}\n`);
  }

  /** A branch of main with the edit committed, pushed to origin. */
  async pullRequest(branch: string, edit: () => void): Promise<string> {
    await this.git(this.dev, 'checkout', '--quiet', '-b', branch, 'main');
    edit();
    await this.git(this.dev, 'add', '-A');
    await this.git(this.dev, 'commit', '--quiet', '-m', branch);
    await this.git(this.dev, 'push', '--quiet', 'origin', branch);
    await this.git(this.dev, 'checkout', '--quiet', 'main');
    return branch;
  }

  /** The pull request merged into main (a merge commit, pushed): the commit a push to main runs the workflow on. */
  async merge(branch: string): Promise<string> {
    await this.git(this.dev, 'merge', '--quiet', '--no-ff', '--no-edit', branch);
    await this.git(this.dev, 'push', '--quiet', 'origin', 'main');
    return this.git(this.dev, 'rev-parse', 'HEAD');
  }

  /** A release: main tagged `tag`, the tag pushed to origin. The commit tagged. */
  async release(tag: string): Promise<string> {
    await this.git(this.dev, 'tag', tag, 'main');
    await this.git(this.dev, 'push', '--quiet', 'origin', `refs/tags/${tag}`);
    return this.git(this.dev, 'rev-parse', `${tag}^{commit}`);
  }

  /** A fresh clone of origin, as actions/checkout makes it: every branch and tag, at `sha` (or main merged with a branch). */
  private async checkout(at: { sha: string } | { pullRequest: string }): Promise<string> {
    const dir = join(this.root, `run-${++this.runs}`);
    await this.git(this.root, 'clone', '--quiet', 'origin.git', dir);
    if ('sha' in at) await this.git(dir, 'checkout', '--quiet', '--detach', at.sha);
    else await this.git(dir, 'merge', '--quiet', '--no-ff', '--no-edit', `origin/${at.pullRequest}`);
    return dir;
  }

  /** The contexts of a run for `event`, with the GitHub environment's variable and secret when a job names one. */
  private contexts(event: GitHubEvent, environment?: Environment): Contexts {
    const { staging, production } = this.sandboxes;
    const { credentials } = this.recipe;
    const service: Contexts =
      environment === undefined
        ? {}
        : {
            'vars.OBS_BASE_URL': this.sandboxes[environment].base,
            'secrets.OBS_CONFIG_KEY': credentials[environment].configKey,
          };
    return {
      'github.event_name': event.name,
      'github.ref':
        event.name === 'push' ? event.ref : event.name === 'pull_request' ? 'refs/pull/7/merge' : 'refs/heads/main',
      'github.repository': REPOSITORY,
      'github.event.pull_request.head.repo.full_name': REPOSITORY,
      // The pull requests' plans read with keys that cannot write.
      'vars.OBS_STAGING_URL': staging.base,
      'secrets.OBS_STAGING_READ_KEY': credentials.staging.readOnlyConfigKey,
      'vars.OBS_PRODUCTION_URL': production.base,
      'secrets.OBS_PRODUCTION_READ_KEY': credentials.production.readOnlyConfigKey,
      ...service,
      ...(event.name === 'workflow_dispatch'
        ? {
            'inputs.overwrite': String(event.overwrite),
            ...(environment === undefined ? {} : { 'inputs.environment': environment }),
          }
        : {}),
    };
  }

  private async job(name: string, cwd: string, sha: string, contexts: Contexts): Promise<JobRun> {
    const condition = this.workflow.jobs[name]?.if;
    if (condition !== undefined && !holds(condition, contexts))
      throw new Error(`job ${name} does not run on ${contexts['github.event_name'] ?? ''}`);
    const github = {
      GITHUB_SHA: sha,
      GITHUB_REF: contexts['github.ref'] ?? '',
      GITHUB_EVENT_NAME: contexts['github.event_name'] ?? '',
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_WORKSPACE: cwd,
    };
    return runJob(this.workflow, name, { cwd, contexts, github, base: this.base });
  }

  /** The plan job of a pull request, on main merged with its branch. */
  async planPullRequest(branch: string): Promise<JobRun> {
    const cwd = await this.checkout({ pullRequest: branch });
    return this.job('plan', cwd, await this.git(cwd, 'rev-parse', 'HEAD'), this.contexts({ name: 'pull_request' }));
  }

  /**
   * An environment's apply job on a commit: pushed to main; pushed as the tag `tag` (a release); or run by hand
   * (workflow_dispatch) on main, with or without overwrite.
   */
  async apply(
    environment: Environment,
    sha: string,
    started?: { overwrite: boolean } | { tag: string },
  ): Promise<JobRun> {
    const cwd = await this.checkout({ sha });
    const event: GitHubEvent =
      started === undefined
        ? { name: 'push', ref: 'refs/heads/main' }
        : 'tag' in started
          ? { name: 'push', ref: `refs/tags/${started.tag}` }
          : { name: 'workflow_dispatch', overwrite: started.overwrite };
    return this.job(`apply-${environment}`, cwd, sha, this.contexts(event, environment));
  }

  /** The commit the tag of an environment names on origin, or '' when there is none. */
  async applied(environment: Environment): Promise<string> {
    const line = await this.git(
      this.root,
      '--git-dir',
      'origin.git',
      'rev-parse',
      '--verify',
      '--quiet',
      `refs/tags/obs-applied/${environment}`,
    ).catch(() => '');
    return line;
  }

  /** What a service was asked to write since it started, in order: each request but reads, as `METHOD path`. */
  writes(environment: Environment): string[] {
    return this.sandboxes[environment].handle.requests
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`);
  }

  /** The gateway's triggers on a service, as listed. */
  async triggers(environment: Environment): Promise<Json[]> {
    const r = await this.sandboxes[environment].v1('GET', `/1/triggers/${GW}`);
    if (r.status !== 200) throw new Error(r.text);
    return r.json() as Json[];
  }

  async trigger(environment: Environment, name: string): Promise<Json> {
    const found = (await this.triggers(environment)).filter((t) => t.name === name);
    if (found.length !== 1 || found[0] === undefined)
      throw new Error(`${found.length} triggers named ${name} on ${environment}`);
    return found[0];
  }

  /** A change made to a trigger on the service, as someone in the UI would make it. */
  async editInTheUi(environment: Environment, name: string, change: Json): Promise<void> {
    const { query_id: savedQuery, ...current } = await this.trigger(environment, name);
    const body = current.query === undefined ? { ...current, query_id: savedQuery } : current;
    const r = await this.sandboxes[environment].v1('PUT', `/1/triggers/${GW}/${String(current.id)}`, {
      ...body,
      ...change,
    });
    if (r.status !== 200) throw new Error(r.text);
  }

  /** Every trigger of the gateway deleted and made again on a service: the same triggers under ids of its own, as another environment has them. */
  async newIds(environment: Environment): Promise<void> {
    const sandbox = this.sandboxes[environment];
    for (const t of await this.triggers(environment)) {
      const { id, query_id: savedQuery, ...rest } = t;
      const deleted = await sandbox.v1('DELETE', `/1/triggers/${GW}/${String(id)}`);
      const created = await sandbox.v1(
        'POST',
        `/1/triggers/${GW}`,
        rest.query === undefined ? { ...rest, query_id: savedQuery } : rest,
      );
      if (deleted.status !== 204 || created.status !== 201) throw new Error(`${deleted.text} ${created.text}`);
    }
  }
}

/** A world of `recipe` for one test, closed after it whatever happens. */
export async function inWorld(
  body: (w: World) => Promise<void>,
  tagged?: readonly Environment[],
  recipe?: Recipe,
): Promise<void> {
  const w = await World.create(tagged, recipe);
  try {
    await body(w);
  } finally {
    await w.close();
  }
}
