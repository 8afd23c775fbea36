// A team's repository of trigger files, for test/unit/ci-flow.test.ts: a bare repository stands for GitHub
// (origin), a developers' clone makes pull requests as branches and merges them into main, two sandboxes stand
// for the staging and production services, and the committed workflow's jobs run in fresh clones of origin, as
// GitHub's runners check a commit out. Everything lives in one temporary folder, removed by close().
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runMain } from '../../src/cli/main';
import { DEMO, SANDBOX_CREDENTIALS } from '../../src/sandbox';
import { holds, loadWorkflow, obsOnPath, runJob, type Contexts, type JobRun, type Workflow } from './ci-flow-runner';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

const exec = promisify(execFile);
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
export const GW = DEMO.datasets.gateway;
const REPOSITORY = 'team/triggers';

export type Environment = 'staging' | 'production';
type Json = Record<string, unknown>;

export class World {
  readonly workflow: Workflow = loadWorkflow();
  private runs = 0;

  private constructor(
    readonly root: string,
    readonly sandboxes: Record<Environment, TestSandbox>,
    private readonly base: Record<string, string>,
  ) {}

  /** Origin holding one commit of the gateway's triggers as pulled from staging, tagged as applied to `tagged`. */
  static async create(tagged: readonly Environment[] = ['staging', 'production']): Promise<World> {
    if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run node esbuild.mjs first');
    const root = mkdtempSync(join(tmpdir(), 'obs-ci-flow-'));
    const [staging, production] = await Promise.all([
      startTestSandbox({ rateLimit: 100_000 }),
      startTestSandbox({ rateLimit: 100_000 }),
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
    const world = new World(root, { staging, production }, base);
    await world.git(root, 'init', '--quiet', '--bare', '--initial-branch=main', 'origin.git');
    await world.git(root, 'clone', '--quiet', 'origin.git', 'dev');
    let err = '';
    const env = { OBS_BASE_URL: staging.base, OBS_CONFIG_KEY: staging.handle.info.configKey };
    const pulled = await runMain(['pull', '--dataset', GW, '--out', 'triggers'], {
      cwd: world.dev,
      env,
      stdout: () => undefined,
      stderr: (t) => (err += t),
    });
    if (pulled !== 0) throw new Error(err);
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

  /** A fresh clone of origin, as actions/checkout makes it: every branch and tag, at `sha` (or main merged with a branch). */
  private async checkout(at: { sha: string } | { pullRequest: string }): Promise<string> {
    const dir = join(this.root, `run-${++this.runs}`);
    await this.git(this.root, 'clone', '--quiet', 'origin.git', dir);
    if ('sha' in at) await this.git(dir, 'checkout', '--quiet', '--detach', at.sha);
    else await this.git(dir, 'merge', '--quiet', '--no-ff', '--no-edit', `origin/${at.pullRequest}`);
    return dir;
  }

  private contexts(event: string, environment?: Environment, overwrite?: boolean): Contexts {
    const { staging, production } = this.sandboxes;
    const service: Contexts =
      environment === undefined
        ? {}
        : {
            'vars.OBS_BASE_URL': this.sandboxes[environment].base,
            'secrets.OBS_CONFIG_KEY': this.sandboxes[environment].handle.info.configKey,
          };
    return {
      'github.event_name': event,
      'github.ref': event === 'pull_request' ? 'refs/pull/7/merge' : 'refs/heads/main',
      'github.repository': REPOSITORY,
      'github.event.pull_request.head.repo.full_name': REPOSITORY,
      // The pull requests' plans read with keys that cannot write.
      'vars.OBS_STAGING_URL': staging.base,
      'secrets.OBS_STAGING_READ_KEY': SANDBOX_CREDENTIALS.readOnlyConfigKey,
      'vars.OBS_PRODUCTION_URL': production.base,
      'secrets.OBS_PRODUCTION_READ_KEY': SANDBOX_CREDENTIALS.readOnlyConfigKey,
      ...service,
      ...(overwrite === undefined ? {} : { 'inputs.overwrite': String(overwrite) }),
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
    return this.job('plan', cwd, await this.git(cwd, 'rev-parse', 'HEAD'), this.contexts('pull_request'));
  }

  /** An environment's apply job on a commit of main: pushed, or run by hand (workflow_dispatch) with or without overwrite. */
  async apply(environment: Environment, sha: string, byHand?: { overwrite: boolean }): Promise<JobRun> {
    const cwd = await this.checkout({ sha });
    const contexts =
      byHand === undefined
        ? this.contexts('push', environment)
        : this.contexts('workflow_dispatch', environment, byHand.overwrite);
    return this.job(`apply-${environment}`, cwd, sha, contexts);
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
