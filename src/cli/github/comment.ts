// One comment per pull request, updated in place: the report is posted behind a hidden marker, and every later
// run finds that comment by it and edits it (or leaves it when its text is the same), so a pull request pushed
// twenty times still has one comment. A report that says nothing changes creates no comment, but replaces one
// that exists (its older report would be wrong now). Refused before sending: a body over GitHub's limit.
import type { Outcome } from '../../result';
import { GitHubApi, type ApiFailure } from './githubApi';
import { pullRequestFromEnv, type SetupFailure } from './pullRequest';

/** The first line of every comment obs posts (of one without a key); a comment is ours when its body starts with it. */
export const MARKER = markerOf(undefined);

/** The marker of a comment of a key (reviews of staging and production in one pull request keep a comment each). */
function markerOf(key: string | undefined): string {
  return `<!-- obs-review${key === undefined ? '' : ` ${key}`}: obs edits this comment in place on each run -->`;
}

/** What a comment of the key starts with: the marker up to its colon, so that no key's comment is another's. */
const markerStart = (key: string | undefined) => markerOf(key).slice(0, markerOf(key).indexOf(':') + 1);

/** The most characters GitHub takes in a comment's body. */
const MAX_COMMENT_CHARS = 65_536;

/** How many pages of 100 comments are read before giving up: a pull request with more is no review. */
const MAX_PAGES = 100;

export interface ReviewComment {
  /** The report, as Markdown; the marker goes before it. */
  markdown: string;
  /** Which of several reviews of the pull request this is (letters, digits, `.`, `_`, `-`); none for the one review. */
  key?: string;
  /** The report says nothing would change: no comment is created (one that exists is still brought up to date). */
  nothingChanged: boolean;
  /** The job's environment (GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_EVENT_PATH). */
  env: Readonly<Record<string, string | undefined>>;
  /** Where a relative GITHUB_EVENT_PATH is read from. */
  cwd: string;
}

/** created: a new comment; updated: ours edited; unchanged: ours already said it; none: nothing to say, none there. */
type CommentAction = 'created' | 'updated' | 'unchanged' | 'none';

export interface CommentPosted {
  action: CommentAction;
  /** The comment's page, when there is a comment. */
  url?: string;
}

export type CommentFailure = SetupFailure | ApiFailure | { kind: 'too-long'; message: string };

/** The comment's whole body: the marker, then the report. */
export function commentBody(markdown: string, key?: string): string {
  return `${markerOf(key)}\n${markdown}`;
}

/** Line ends as GitHub may store them: the same text with \r\n is the same comment. */
const sameText = (a: string, b: string): boolean => a.replace(/\r\n/g, '\n') === b.replace(/\r\n/g, '\n');

/**
 * Posts the report to the pull request the job runs for, or brings our earlier comment up to date. Never throws
 * for what GitHub or the environment answer: each is a failure whose message says what to change (the caller
 * prints it and exits 2). The token is never in a message.
 */
export async function postReviewComment(c: ReviewComment): Promise<Outcome<CommentPosted, CommentFailure>> {
  const body = commentBody(c.markdown, c.key);
  if (body.length > MAX_COMMENT_CHARS)
    return {
      ok: false,
      reason: {
        kind: 'too-long',
        message:
          `the report is ${body.length.toLocaleString('en-US')} characters with its marker, more than the ` +
          `${MAX_COMMENT_CHARS.toLocaleString('en-US')} GitHub takes in a comment; nothing was posted`,
      },
    };
  const target = await pullRequestFromEnv(c.env, c.cwd);
  if (!target.ok) return target;
  const api = new GitHubApi(target);
  try {
    const listed = await api.comments(MAX_PAGES);
    if (!listed.ok) return listed;
    const start = markerStart(c.key);
    const ours = listed.comments.find((comment) => comment.body.startsWith(start));
    if (ours === undefined) {
      if (c.nothingChanged) return { ok: true, action: 'none' };
      const created = await api.create(body);
      return created.ok ? { ok: true, action: 'created', url: created.comment.url } : created;
    }
    if (sameText(ours.body, body)) return { ok: true, action: 'unchanged', url: ours.url };
    const updated = await api.update(ours.id, body);
    return updated.ok ? { ok: true, action: 'updated', url: updated.comment.url } : updated;
  } finally {
    await api.close();
  }
}
