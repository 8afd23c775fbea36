// The pull request comment of obs review --comment (src/cli/github/): one comment, found by its hidden marker
// and edited in place, against a local fake of GitHub's REST API (github-fake.ts). Each refusal of GitHub is
// said in words that name what to change, and the token is never in a message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commentBody, MARKER, postReviewComment, type ReviewComment } from '../../src/cli/github/comment';
import { FakeGitHub } from './github-fake';

const TOKEN = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';
const REPOSITORY = 'team/triggers';
const PR = 7;
const REPORT = '## obs review\n\n1 trigger updated: `High error rate` threshold 5 -> 9.\n';

type Env = Record<string, string | undefined>;

/** A world for one test: the fake with pull request #7, and a folder holding the event's payload. */
async function withFake(body: (fake: FakeGitHub, env: Env, folder: string) => Promise<void>): Promise<void> {
  const fake = await FakeGitHub.start(TOKEN, REPOSITORY, [PR]);
  const folder = mkdtempSync(join(tmpdir(), 'obs-gh-comment-'));
  const event = join(folder, 'event.json');
  writeFileSync(event, JSON.stringify({ action: 'synchronize', number: PR, pull_request: { number: PR } }));
  const env = {
    GITHUB_TOKEN: TOKEN,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_API_URL: fake.url,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event,
  };
  try {
    await body(fake, env, folder);
  } finally {
    await fake.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

const post = (env: Env, over: Partial<ReviewComment> = {}) =>
  postReviewComment({ markdown: REPORT, nothingChanged: false, env, cwd: tmpdir(), ...over });

const LIST = `GET /repos/${REPOSITORY}/issues/${PR}/comments?per_page=100`;
const CREATE = `POST /repos/${REPOSITORY}/issues/${PR}/comments`;
const update = (id: number) => `PATCH /repos/${REPOSITORY}/issues/comments/${id}`;

/** The reason of a failure, or a failed assertion naming what came instead. */
async function failure(outcome: ReturnType<typeof post>): Promise<{ kind: string; message: string }> {
  const o = await outcome;
  if (o.ok) assert.fail(`expected a failure, got ${o.action}`);
  return o.reason;
}

test('a pull request without our comment gets one: the marker, then the report', () =>
  withFake(async (fake, env) => {
    fake.add(PR, 'Looks good to me');
    const o = await post(env);
    assert.deepEqual(o, {
      ok: true,
      action: 'created',
      url: `https://github.example/${REPOSITORY}/pull/7#issuecomment-1001`,
    });
    assert.deepEqual(fake.sent(), [LIST, CREATE]);
    assert.deepEqual(
      fake.comments(PR).map((c) => c.body),
      ['Looks good to me', `${MARKER}\n${REPORT}`],
    );
  }));

test('a later run edits our comment in place: the same comment, no second one', () =>
  withFake(async (fake, env) => {
    const ours = fake.add(PR, commentBody('## obs review\n\nan older report\n'), 'github-actions[bot]');
    fake.add(PR, 'Why 9?');
    const o = await post(env);
    assert.deepEqual(o, {
      ok: true,
      action: 'updated',
      url: `https://github.example/${REPOSITORY}/pull/7#issuecomment-${ours.id}`,
    });
    assert.deepEqual(fake.sent(), [LIST, update(ours.id)]);
    assert.deepEqual(
      fake.comments(PR).map((c) => [c.id, c.body]),
      [
        [ours.id, `${MARKER}\n${REPORT}`],
        [ours.id + 1, 'Why 9?'],
      ],
    );
  }));

test('reviews of two keys (staging, production) keep a comment each: a run edits only the comment of its key', () =>
  withFake(async (fake, env) => {
    const staging = fake.add(PR, commentBody('older staging report', 'staging'), 'github-actions[bot]');
    const production = fake.add(PR, commentBody('older production report', 'production'), 'github-actions[bot]');
    const o = await post(env, { key: 'production' });
    assert.deepEqual([o.ok && o.action, fake.sent()], ['updated', [LIST, update(production.id)]]);
    assert.deepEqual(
      fake.comments(PR).map((c) => [c.id, c.body]),
      [
        [staging.id, commentBody('older staging report', 'staging')],
        [production.id, `<!-- obs-review production: obs edits this comment in place on each run -->\n${REPORT}`],
      ],
    );
  }));

test('a review without a key takes no keyed comment for its own: it creates its comment', () =>
  withFake(async (fake, env) => {
    fake.add(PR, commentBody('older staging report', 'staging'), 'github-actions[bot]');
    const o = await post(env);
    assert.deepEqual([o.ok && o.action, fake.sent()], ['created', [LIST, CREATE]]);
  }));

test('our comment that already says the report is left alone: no edit is sent', () =>
  withFake(async (fake, env) => {
    const ours = fake.add(PR, commentBody(REPORT), 'github-actions[bot]');
    const o = await post(env);
    assert.deepEqual(o, {
      ok: true,
      action: 'unchanged',
      url: `https://github.example/${REPOSITORY}/pull/7#issuecomment-${ours.id}`,
    });
    assert.deepEqual(fake.sent(), [LIST]);
  }));

test('a report of nothing changed posts nothing when no comment of ours exists', () =>
  withFake(async (fake, env) => {
    fake.add(PR, 'Nothing to see');
    const o = await post(env, { markdown: 'No trigger changes.\n', nothingChanged: true });
    assert.deepEqual(o, { ok: true, action: 'none' });
    assert.deepEqual(fake.sent(), [LIST]);
    assert.deepEqual(
      fake.comments(PR).map((c) => c.body),
      ['Nothing to see'],
    );
  }));

test('a report of nothing changed replaces our earlier report, which is no longer true', () =>
  withFake(async (fake, env) => {
    const ours = fake.add(PR, commentBody(REPORT), 'github-actions[bot]');
    const o = await post(env, { markdown: 'No trigger changes.\n', nothingChanged: true });
    assert.equal(o.ok && o.action, 'updated');
    assert.deepEqual(fake.sent(), [LIST, update(ours.id)]);
    assert.equal(fake.comments(PR)[0]?.body, `${MARKER}\nNo trigger changes.\n`);
  }));

test('our comment on the second page of comments is found through the Link header and edited', () =>
  withFake(async (fake, env) => {
    for (let i = 0; i < 120; i++) fake.add(PR, `comment ${i}`);
    const ours = fake.add(PR, commentBody('older'), 'github-actions[bot]');
    for (let i = 0; i < 30; i++) fake.add(PR, `later ${i}`);
    const o = await post(env);
    assert.equal(o.ok && o.action, 'updated');
    assert.deepEqual(fake.sent(), [
      LIST,
      `GET /repositories/4242/issues/${PR}/comments?per_page=100&page=2`,
      update(ours.id),
    ]);
    assert.equal(fake.comments(PR).length, 151);
  }));

test('a comment that only mentions the marker, not at its start, is not ours: a new one is posted', () =>
  withFake(async (fake, env) => {
    fake.add(PR, `Why does the bot write ${MARKER} in its comments?`);
    const o = await post(env);
    assert.equal(o.ok && o.action, 'created');
    assert.equal(fake.comments(PR).length, 2);
  }));

test('the token is sent to the API as a bearer token, and to no other host a Link header names', () =>
  withFake(async (fake, env) => {
    const other = await FakeGitHub.start(TOKEN, REPOSITORY, [PR]);
    try {
      for (let i = 0; i < 100; i++) fake.add(PR, `comment ${i}`);
      // The first page's Link header points at another host (same address, another port).
      fake.refuse('list', {
        status: 200,
        headers: { link: `<${other.url}/repos/${REPOSITORY}/issues/${PR}/comments?page=2>; rel="next"` },
        body: [],
      });
      const reason = await failure(post(env));
      assert.deepEqual(reason, {
        kind: 'unexpected',
        message: "GitHub's next page of comments is on another host; nothing was posted",
      });
      assert.deepEqual(
        fake.requests.map((r) => r.authorization),
        [`Bearer ${TOKEN}`],
      );
      assert.deepEqual(other.requests, []);
    } finally {
      await other.close();
    }
  }));

test('a token GitHub does not accept is said so, and nothing is posted', () =>
  withFake(async (fake, env) => {
    const reason = await failure(post({ ...env, GITHUB_TOKEN: 'ghs_revoked0000000000000000' }));
    assert.deepEqual(reason, {
      kind: 'unauthorized',
      message:
        'GitHub did not accept GITHUB_TOKEN ("Bad credentials"): it has expired or is not a token of this GitHub; ' +
        'nothing was posted',
    });
    assert.deepEqual(fake.sent(), [LIST]);
  }));

const NOT_ACCESSIBLE = {
  status: 403,
  body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' },
};

test('a token that may not write comments names the permission to give', () =>
  withFake(async (fake, env) => {
    fake.refuse('create', NOT_ACCESSIBLE);
    const reason = await failure(post(env));
    assert.deepEqual(reason, {
      kind: 'forbidden',
      message:
        'GitHub refused to post the comment ("Resource not accessible by integration"): the token lacks the ' +
        "permission pull-requests: write (or issues: write); give it in the job's permissions (a pull request " +
        'from a fork gets a token that only reads)',
    });
    assert.deepEqual(fake.sent(), [LIST, CREATE]);
  }));

test('a token that may not read the comments names the read permission', () =>
  withFake(async (fake, env) => {
    fake.refuse('list', NOT_ACCESSIBLE);
    const reason = await failure(post(env));
    assert.deepEqual(reason, {
      kind: 'forbidden',
      message:
        'GitHub refused to read the pull request\'s comments ("Resource not accessible by integration"): the ' +
        "token lacks the permission pull-requests: read (or issues: read); give it in the job's permissions (a " +
        'pull request from a fork gets a token that only reads)',
    });
  }));

test('a pull request GitHub does not show the token is said with the repository and number', () =>
  withFake(async (fake, env) => {
    const reason = await failure(post({ ...env, GITHUB_REPOSITORY: 'team/elsewhere' }));
    assert.deepEqual(reason, {
      kind: 'not-found',
      message:
        'GitHub has no pull request team/elsewhere#7, or the token cannot see it ("Not Found"); nothing was posted',
    });
    assert.deepEqual(fake.sent(), ['GET /repos/team/elsewhere/issues/7/comments?per_page=100']);
  }));

test("a comment GitHub refuses as invalid is said with GitHub's reason", () =>
  withFake(async (fake, env) => {
    fake.refuse('create', {
      status: 422,
      body: { message: 'Validation Failed', errors: [{ code: 'custom', field: 'body', message: 'body is invalid' }] },
    });
    const reason = await failure(post(env));
    assert.deepEqual(reason, {
      kind: 'invalid',
      message: 'GitHub refused the comment as invalid ("Validation Failed: body is invalid"); nothing was posted',
    });
  }));

test('a rate limit used up says when it resets, and the create is sent once, never retried', () =>
  withFake(async (fake, env) => {
    fake.refuse('create', {
      status: 403,
      headers: { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1796652730' },
      body: { message: 'API rate limit exceeded for installation ID 123.' },
    });
    const reason = await failure(post(env));
    assert.deepEqual(reason, {
      kind: 'rate-limited',
      message: "GitHub's rate limit for this token is used up until 2026-12-07 14:12:10 UTC; nothing was posted",
    });
    assert.deepEqual(fake.sent(), [LIST, CREATE]);
  }));

test('a secondary rate limit says how long GitHub asks to wait, and the edit is sent once', () =>
  withFake(async (fake, env) => {
    const ours = fake.add(PR, commentBody('older'), 'github-actions[bot]');
    fake.refuse('update', {
      status: 429,
      headers: { 'retry-after': '60' },
      body: { message: 'You have exceeded a secondary rate limit.' },
    });
    const reason = await failure(post(env));
    assert.deepEqual(reason, {
      kind: 'rate-limited',
      message:
        "GitHub's rate limit stopped the call: it asks to wait 60 seconds before the next; the comment was left " +
        'as it was',
    });
    assert.deepEqual(fake.sent(), [LIST, update(ours.id)]);
  }));

test('GitHub out of reach is a network failure naming the address', async () => {
  // A port that was free a moment ago and is closed now: the connection is refused.
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as { port: number };
      s.close(() => resolve(p));
    });
  });
  await withFake(async (_fake, env) => {
    const reason = await failure(post({ ...env, GITHUB_API_URL: `http://127.0.0.1:${port}` }));
    assert.deepEqual(reason, {
      kind: 'network',
      message:
        `could not reach GitHub at http://127.0.0.1:${port} to read the pull request's comments ` +
        `(connect ECONNREFUSED 127.0.0.1:${port})`,
    });
  });
});

test("a body over GitHub's 65,536 characters is refused before anything is sent", () =>
  withFake(async (fake, env) => {
    const markdown = 'x'.repeat(65_536 - MARKER.length);
    const reason = await failure(post(env, { markdown }));
    assert.deepEqual(reason, {
      kind: 'too-long',
      message:
        'the report is 65,537 characters with its marker, more than the 65,536 GitHub takes in a comment; ' +
        'nothing was posted',
    });
    assert.deepEqual(fake.requests, []);
  }));

test('a body of exactly 65,536 characters is posted', () =>
  withFake(async (fake, env) => {
    const o = await post(env, { markdown: 'x'.repeat(65_536 - MARKER.length - 1) });
    assert.equal(o.ok && o.action, 'created');
    assert.equal(fake.comments(PR)[0]?.body.length, 65_536);
  }));

test('outside a pull request (no event file, or an event of a push) nothing is sent and the reason is said', () =>
  withFake(async (fake, env, folder) => {
    const without = await failure(post({ ...env, GITHUB_EVENT_PATH: undefined }));
    assert.deepEqual(without, {
      kind: 'not-in-pull-request',
      message:
        'GITHUB_EVENT_PATH is not set: a pull request comment is posted from a GitHub Actions job of a pull request',
    });
    const push = join(folder, 'push.json');
    writeFileSync(push, JSON.stringify({ ref: 'refs/heads/main', after: 'abc' }));
    const pushed = await failure(post({ ...env, GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: push }));
    assert.deepEqual(pushed, {
      kind: 'not-in-pull-request',
      message:
        "this run's event (push) is not a pull request's: the comment is posted on pull_request or " +
        'pull_request_target events',
    });
    assert.deepEqual(fake.requests, []);
  }));

test("a comment on a pull request's conversation (issue_comment) finds the pull request as its issue", () =>
  withFake(async (fake, env, folder) => {
    const event = join(folder, 'issue-comment.json');
    writeFileSync(event, JSON.stringify({ issue: { number: PR, pull_request: { url: 'x' } }, comment: { id: 1 } }));
    const o = await post({ ...env, GITHUB_EVENT_NAME: 'issue_comment', GITHUB_EVENT_PATH: event });
    assert.equal(o.ok && o.action, 'created');
    assert.equal(fake.comments(PR).length, 1);
  }));

test('the environment GitHub Actions sets is checked first, each missing piece named', () =>
  withFake(async (fake, env) => {
    const reasons = await Promise.all([
      failure(post({ ...env, GITHUB_TOKEN: undefined })),
      failure(post({ ...env, GITHUB_REPOSITORY: 'triggers' })),
      failure(post({ ...env, GITHUB_API_URL: 'ftp://github.example' })),
      failure(post({ ...env, GITHUB_EVENT_PATH: '/nonexistent/event.json' })),
    ]);
    assert.deepEqual(
      reasons.map((r) => r.message),
      [
        'GITHUB_TOKEN is not set: give the step `env: GITHUB_TOKEN: ${{ github.token }}` and the job ' +
          '`permissions: pull-requests: write`',
        'GITHUB_REPOSITORY is not set to owner/name, as GitHub Actions sets it',
        "GITHUB_API_URL is not the address of GitHub's API, such as https://api.github.com",
        'cannot read the event GITHUB_EVENT_PATH names (/nonexistent/event.json): no such file',
      ],
    );
    assert.deepEqual(fake.requests, []);
  }));

test('the token is in no message, even when GitHub (or a proxy) echoes it back', () =>
  withFake(async (fake, env) => {
    fake.refuse('list', {
      status: 403,
      body: { message: `token ${TOKEN} may not read ${encodeURIComponent(TOKEN)}`, errors: [`Bearer ${TOKEN}`] },
    });
    const reason = await failure(post(env));
    assert.deepEqual(reason, {
      kind: 'forbidden',
      message:
        'GitHub refused to read the pull request\'s comments ("token [redacted] may not read [redacted]: Bearer ' +
        '[redacted]"): the token lacks the permission pull-requests: read (or issues: read); give it in the ' +
        "job's permissions (a pull request from a fork gets a token that only reads)",
    });
    assert.ok(!JSON.stringify(reason).includes(TOKEN.slice(4)));
  }));
