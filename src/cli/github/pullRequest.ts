// Which pull request a GitHub Actions job runs for, and how to reach GitHub's API from it: read from the
// variables the runner sets (GITHUB_TOKEN as the workflow passes it, GITHUB_REPOSITORY, GITHUB_API_URL) and the
// event's payload (GITHUB_EVENT_PATH). Nothing here talks to GitHub.
import * as z from 'zod';
import type { Outcome } from '../../result';
import { decodeStrict } from '../read';
import { ReadProblem, readRegularFile } from '../../triggerFiles/regularFile';

/** The public GitHub's API; GitHub Enterprise Server's runners set GITHUB_API_URL to their own. */
const DEFAULT_API_URL = 'https://api.github.com';

/** Event payloads are small; a larger file is not an event GitHub wrote. */
const MAX_EVENT_BYTES = 16 * 1024 * 1024;

export interface PullRequestTarget {
  token: string;
  /** The API's root, without a trailing slash (it holds a path on GitHub Enterprise: https://ghe.example/api/v3). */
  apiUrl: string;
  owner: string;
  repo: string;
  number: number;
}

export type SetupFailure = { kind: 'setup' | 'not-in-pull-request'; message: string };

type Env = Readonly<Record<string, string | undefined>>;

const WhereTo = z.object({
  // pull_request and pull_request_target
  pull_request: z.object({ number: z.number().int().positive() }).optional(),
  // issue_comment on a pull request: the issue is the pull request
  issue: z.object({ number: z.number().int().positive(), pull_request: z.object({}).optional() }).optional(),
});

const setup = (message: string): { ok: false; reason: SetupFailure } => ({
  ok: false,
  reason: { kind: 'setup', message },
});

const notInPullRequest = (message: string): { ok: false; reason: SetupFailure } => ({
  ok: false,
  reason: { kind: 'not-in-pull-request', message },
});

/** The API's root URL, or why GITHUB_API_URL is not one. */
function apiUrlOf(env: Env): Outcome<{ apiUrl: string }, SetupFailure> {
  const text = env.GITHUB_API_URL === undefined || env.GITHUB_API_URL === '' ? DEFAULT_API_URL : env.GITHUB_API_URL;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '')
    return setup(`GITHUB_API_URL is not the address of GitHub's API, such as ${DEFAULT_API_URL}`);
  if (url.username !== '' || url.password !== '')
    return setup('GITHUB_API_URL holds credentials: the token goes in GITHUB_TOKEN only');
  return { ok: true, apiUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/** The pull request's number from the event's payload, or why there is none. */
async function numberOf(env: Env, cwd: string): Promise<Outcome<{ number: number }, SetupFailure>> {
  const eventName = env.GITHUB_EVENT_NAME ?? 'unknown';
  const path = env.GITHUB_EVENT_PATH;
  if (path === undefined || path === '')
    return notInPullRequest(
      'GITHUB_EVENT_PATH is not set: a pull request comment is posted from a GitHub Actions job of a pull request',
    );
  let text: string | undefined;
  try {
    text = decodeStrict(await readRegularFile(path, cwd, MAX_EVENT_BYTES, 'the most read of an event'));
  } catch (e) {
    if (e instanceof ReadProblem) return setup(`cannot read the event GITHUB_EVENT_PATH names (${path}): ${e.message}`);
    throw e;
  }
  let payload: unknown;
  try {
    payload = text === undefined ? undefined : JSON.parse(text);
  } catch {
    payload = undefined;
  }
  const read = WhereTo.safeParse(payload);
  if (text === undefined || payload === undefined || !read.success)
    return setup(`the event GITHUB_EVENT_PATH names (${path}) is not an event GitHub wrote`);
  const number = read.data.pull_request?.number ?? (read.data.issue?.pull_request ? read.data.issue.number : undefined);
  if (number === undefined)
    return notInPullRequest(
      `this run's event (${eventName}) is not a pull request's: the comment is posted on pull_request or ` +
        'pull_request_target events',
    );
  return { ok: true, number };
}

/** Where the comment goes, from the job's environment; `cwd` resolves a relative GITHUB_EVENT_PATH. */
export async function pullRequestFromEnv(env: Env, cwd: string): Promise<Outcome<PullRequestTarget, SetupFailure>> {
  const token = env.GITHUB_TOKEN ?? '';
  if (token === '')
    return setup(
      'GITHUB_TOKEN is not set: give the step `env: GITHUB_TOKEN: ${{ github.token }}` and the job ' +
        '`permissions: pull-requests: write`',
    );
  const repository = /^([\w.-]+)\/([\w.-]+)$/.exec(env.GITHUB_REPOSITORY ?? '');
  if (repository === null) return setup('GITHUB_REPOSITORY is not set to owner/name, as GitHub Actions sets it');
  const api = apiUrlOf(env);
  if (!api.ok) return api;
  const pr = await numberOf(env, cwd);
  if (!pr.ok) return pr;
  return {
    ok: true,
    token,
    apiUrl: api.apiUrl,
    owner: repository[1] ?? '',
    repo: repository[2] ?? '',
    number: pr.number,
  };
}
