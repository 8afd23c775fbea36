// The three calls of GitHub's REST API a pull request comment needs (list the issue's comments page by page,
// create one, update one), on the service client's transport (undici; HTTPS_PROXY and NO_PROXY honoured), and
// GitHub's refusals in words that say what to change. No call is retried: a create sent twice would post
// twice, and a rate limit is said with when it ends. The token is sent to the API's origin only and never
// appears in a message (GitHub's own words are redacted before they are shown).
import * as z from 'zod';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { version } from '../../../package.json';
import { errorText } from '../../api/errors';
import { Redactor } from '../../api/redact';
import { createDispatcher, sendOnce, TIMEOUT_DEFAULTS, type Method } from '../../api/transport';
import type { Outcome } from '../../result';
import type { PullRequestTarget } from './pullRequest';

/** What a call was for, as the messages name it. */
export type Call = 'list' | 'create' | 'update';

export type ApiFailureKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'invalid'
  | 'rate-limited'
  | 'network'
  | 'unexpected';

export type ApiFailure = { kind: ApiFailureKind; message: string };

export interface IssueComment {
  id: number;
  body: string;
  url: string;
}

// A page of 100 comments of at most 65,536 characters each, 4 bytes a character at worst.
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** GitHub's messages are a line; a longer one is cut. */
const MAX_MESSAGE = 300;

const Comment = z.object({ id: z.number().int(), body: z.string().nullish(), html_url: z.string() });
const ErrorBody = z.object({
  message: z.string().optional(),
  errors: z.array(z.union([z.object({ message: z.string().optional() }), z.string()])).optional(),
});

const WHAT: Record<Call, string> = {
  list: "read the pull request's comments",
  create: 'post the comment',
  update: 'update the comment',
};

const NOT_DONE: Record<Call, string> = {
  list: 'nothing was posted',
  create: 'nothing was posted',
  update: 'the comment was left as it was',
};

// A create whose answer was lost may have posted: the next run finds that comment by its marker and updates it.
const MAY_HAVE_POSTED = '; the comment may have been posted, and the next run updates it rather than adding one';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** `2026-12-07 14:32:10 UTC` for a Unix time in seconds. */
const utc = (seconds: number): string => `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

export class GitHubApi {
  private readonly dispatcher: Dispatcher = createDispatcher({ timeouts: TIMEOUT_DEFAULTS });
  private readonly redactor: Redactor;
  private readonly origin: string;

  constructor(private readonly target: PullRequestTarget) {
    this.redactor = new Redactor([target.token]);
    this.origin = new URL(target.apiUrl).origin;
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  /** Every comment of the pull request, oldest first, following GitHub's Link header from page to page. */
  async comments(maxPages: number): Promise<Outcome<{ comments: IssueComment[] }, ApiFailure>> {
    const { owner, repo, number } = this.target;
    let url: string | undefined = `${this.repoUrl(owner, repo)}/issues/${number}/comments?per_page=100`;
    const comments: IssueComment[] = [];
    for (let page = 0; url !== undefined; page++) {
      if (page === maxPages)
        return this.failure(
          'unexpected',
          `the pull request has more than ${maxPages * 100} comments; ${NOT_DONE.list}`,
        );
      const answer = await this.send('list', 'GET', url);
      if (!answer.ok) return answer;
      const read = z.array(Comment).safeParse(parse(answer.text));
      if (answer.status !== 200 || !read.success) return this.refusal('list', answer);
      comments.push(...read.data.map((c) => ({ id: c.id, body: c.body ?? '', url: c.html_url })));
      url = nextPage(header(answer.headers, 'link'));
      if (url !== undefined && new URL(url).origin !== this.origin)
        return this.failure('unexpected', `GitHub's next page of comments is on another host; ${NOT_DONE.list}`);
    }
    return { ok: true, comments };
  }

  async create(body: string): Promise<Outcome<{ comment: IssueComment }, ApiFailure>> {
    const { owner, repo, number } = this.target;
    return this.write('create', 'POST', `${this.repoUrl(owner, repo)}/issues/${number}/comments`, body, 201);
  }

  async update(id: number, body: string): Promise<Outcome<{ comment: IssueComment }, ApiFailure>> {
    const { owner, repo } = this.target;
    return this.write('update', 'PATCH', `${this.repoUrl(owner, repo)}/issues/comments/${id}`, body, 200);
  }

  private repoUrl(owner: string, repo: string): string {
    return `${this.target.apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  }

  private async write(
    call: Call,
    method: Method,
    url: string,
    body: string,
    expected: number,
  ): Promise<Outcome<{ comment: IssueComment }, ApiFailure>> {
    const answer = await this.send(call, method, url, JSON.stringify({ body }));
    if (!answer.ok) return answer;
    const read = Comment.safeParse(parse(answer.text));
    if (answer.status !== expected || !read.success) return this.refusal(call, answer);
    return { ok: true, comment: { id: read.data.id, body: read.data.body ?? '', url: read.data.html_url } };
  }

  private async send(call: Call, method: Method, url: string, body?: string): Promise<Outcome<Answer, ApiFailure>> {
    const u = new URL(url);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.target.token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': `obs/${version}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    try {
      const raw = await sendOnce(
        this.dispatcher,
        { origin: u.origin, path: `${u.pathname}${u.search}`, method, headers, body },
        MAX_RESPONSE_BYTES,
        TIMEOUT_DEFAULTS.bodyTotalMs,
      );
      return { ok: true, status: raw.status, headers: raw.headers, text: raw.text ?? '' };
    } catch (e) {
      const posted = call === 'create' ? MAY_HAVE_POSTED : '';
      return this.failure(
        'network',
        `could not reach GitHub at ${this.origin} to ${WHAT[call]} (${errorText(e)})${posted}`,
      );
    }
  }

  /** GitHub's answer to a call that did not do what was asked, in words that say what to change. */
  private refusal(call: Call, a: Answer): { ok: false; reason: ApiFailure } {
    const limited = this.rateLimit(a);
    if (limited !== undefined) return this.failure('rate-limited', `${limited}; ${NOT_DONE[call]}`);
    if (a.status >= 200 && a.status < 300)
      return this.failure(
        'unexpected',
        `GitHub's answer when asked to ${WHAT[call]} is not what its API documents` +
          (call === 'create' ? MAY_HAVE_POSTED : ''),
      );
    const [kind, words] = refusalWords(call, a.status, this.said(a.text), this.target);
    return this.failure(kind, words);
  }

  /** When GitHub's rate limit stopped the call, what it says of the wait; undefined for any other answer. */
  private rateLimit(a: Answer): string | undefined {
    if (a.status !== 403 && a.status !== 429) return undefined;
    const retryAfter = header(a.headers, 'retry-after');
    if (retryAfter !== undefined && /^\d+$/.test(retryAfter.trim()))
      return `GitHub's rate limit stopped the call: it asks to wait ${Number(retryAfter)} seconds before the next`;
    if (header(a.headers, 'x-ratelimit-remaining') !== '0') return undefined;
    const reset = Number(header(a.headers, 'x-ratelimit-reset'));
    return Number.isInteger(reset) && reset > 0
      ? `GitHub's rate limit for this token is used up until ${utc(reset)}`
      : "GitHub's rate limit for this token is used up";
  }

  /** ` ("Validation Failed: body is too long")`: GitHub's words, cut, with the token redacted; '' when none. */
  private said(text: string): string {
    const read = ErrorBody.safeParse(parse(text));
    if (!read.success || read.data.message === undefined) return '';
    const details = (read.data.errors ?? [])
      .map((e) => (typeof e === 'string' ? e : (e.message ?? '')))
      .filter(Boolean);
    const words = [read.data.message, ...details].join(': ');
    const cut = words.length > MAX_MESSAGE ? `${words.slice(0, MAX_MESSAGE)}...` : words;
    return ` ("${this.redactor.redact(cut)}")`;
  }

  private failure(kind: ApiFailureKind, message: string): { ok: false; reason: ApiFailure } {
    return { ok: false, reason: { kind, message: this.redactor.redact(message) } };
  }
}

/** What a refusal of GitHub means for the user, by its status. */
function refusalWords(call: Call, status: number, said: string, t: PullRequestTarget): [ApiFailureKind, string] {
  const notDone = NOT_DONE[call];
  const access = call === 'list' ? 'read' : 'write';
  switch (status) {
    case 401:
      return [
        'unauthorized',
        `GitHub did not accept GITHUB_TOKEN${said}: it has expired or is not a token of this GitHub; ${notDone}`,
      ];
    case 403:
      return [
        'forbidden',
        `GitHub refused to ${WHAT[call]}${said}: the token lacks the permission pull-requests: ${access} (or ` +
          `issues: ${access}); give it in the job's permissions (a pull request from a fork gets a token that ` +
          'only reads)',
      ];
    case 404:
      return [
        'not-found',
        `GitHub has no pull request ${t.owner}/${t.repo}#${t.number}, or the token cannot see it${said}; ${notDone}`,
      ];
    case 422:
      return ['invalid', `GitHub refused the comment as invalid${said}; ${notDone}`];
    default:
      return ['unexpected', `GitHub did not ${WHAT[call]}: it answered with status ${status}${said}; ${notDone}`];
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The `rel="next"` URL of a Link header, as GitHub pages its lists. */
function nextPage(link: string | undefined): string | undefined {
  for (const part of (link ?? '').split(',')) {
    const m = /^\s*<([^>]+)>\s*;\s*rel="?next"?\s*$/.exec(part);
    if (m?.[1] !== undefined && URL.canParse(m[1])) return m[1];
  }
  return undefined;
}
