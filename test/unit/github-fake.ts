// A local fake of the part of GitHub's REST API a pull request comment uses (node:http, no internet): an
// issue's comments listed 100 a page at most with GitHub's Link header (whose next page is under
// /repositories/{id}/, as GitHub writes it), a comment created and updated, a token checked as GitHub checks
// it, the body length GitHub refuses, and refusals a test asks for (403, 404, 422, rate limits). It records
// every request, so a test can say what was sent and what was not.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  pull: number;
  body: string;
  user: string;
}

export interface FakeRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  authorization: string | undefined;
  body: string;
}

export interface Refusal {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

type Call = 'list' | 'create' | 'update';

const REPOSITORY_ID = 4242;
const MAX_BODY = 65_536;
const PAGE_MAX = 100;

export class FakeGitHub {
  readonly requests: FakeRequest[] = [];
  private readonly issues = new Map<number, FakeComment[]>();
  private readonly refusals = new Map<Call, Refusal>();
  private nextId = 1000;

  private constructor(
    private readonly server: Server,
    readonly token: string,
    readonly repository: string,
  ) {}

  /** A fake holding `repository` with the pull requests `pulls` (no comments yet), which accepts `token` only. */
  static async start(token: string, repository: string, pulls: readonly number[]): Promise<FakeGitHub> {
    const server = createServer();
    const fake = new FakeGitHub(server, token, repository);
    for (const n of pulls) fake.issues.set(n, []);
    server.on('request', (req, res) => fake.receive(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** The API's root, as GITHUB_API_URL gives it. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The comments of a pull request, oldest first. */
  comments(pull: number): FakeComment[] {
    return this.issues.get(pull) ?? [];
  }

  /** A comment someone (or an earlier run) posted. */
  add(pull: number, body: string, user = 'someone'): FakeComment {
    const comment = { id: this.nextId++, pull, body, user };
    this.comments(pull).push(comment);
    return comment;
  }

  /** Every later call of this kind answers `refusal`. */
  refuse(call: Call, refusal: Refusal): void {
    this.refusals.set(call, refusal);
  }

  /** The requests sent, as `METHOD path` lines. */
  sent(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path}`);
  }

  private receive(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      this.requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
      this.answer(req.method ?? '', new URL(path, this.url), body, res);
    });
  }

  private answer(method: string, url: URL, body: string, res: ServerResponse): void {
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(value));
    };
    if (this.requests[this.requests.length - 1]?.authorization !== `Bearer ${this.token}`)
      return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    const repo = `/repos/${this.repository}`;
    const list = new RegExp(`^(?:${repo}|/repositories/${REPOSITORY_ID})/issues/(\\d+)/comments$`).exec(url.pathname);
    const one = new RegExp(`^${repo}/issues/comments/(\\d+)$`).exec(url.pathname);
    const call: Call | undefined =
      list !== null && method === 'GET'
        ? 'list'
        : list !== null && method === 'POST'
          ? 'create'
          : one !== null && method === 'PATCH'
            ? 'update'
            : undefined;
    if (call === undefined) return send(404, { message: 'Not Found' });
    const refusal = this.refusals.get(call);
    if (refusal !== undefined) return send(refusal.status, refusal.body, refusal.headers);
    if (call === 'update') return this.update(Number(one?.[1]), body, send);
    const comments = this.issues.get(Number(list?.[1]));
    if (comments === undefined) return send(404, { message: 'Not Found' });
    if (call === 'create') {
      const text = bodyOf(body);
      if (text === undefined || text.length > MAX_BODY) return send(422, tooLong());
      const comment = { id: this.nextId++, pull: Number(list?.[1]), body: text, user: 'github-actions[bot]' };
      comments.push(comment);
      return send(201, this.shown(comment));
    }
    this.page(Number(list?.[1]), comments, url, send);
  }

  private page(pull: number, comments: FakeComment[], url: URL, send: Send): void {
    const size = Math.min(PAGE_MAX, Number(url.searchParams.get('per_page') ?? 30));
    const page = Number(url.searchParams.get('page') ?? 1);
    const last = Math.max(1, Math.ceil(comments.length / size));
    const link = (p: number, rel: string) =>
      `<${this.url}/repositories/${REPOSITORY_ID}/issues/${pull}/comments?per_page=${size}&page=${p}>; rel="${rel}"`;
    const links = [
      ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
      ...(page > 1 ? [link(1, 'first')] : []),
    ];
    send(
      200,
      comments.slice((page - 1) * size, page * size).map((c) => this.shown(c)),
      links.length > 0 ? { link: links.join(', ') } : {},
    );
  }

  private update(id: number, body: string, send: Send): void {
    const comment = [...this.issues.values()].flat().find((c) => c.id === id);
    if (comment === undefined) return send(404, { message: 'Not Found' });
    const text = bodyOf(body);
    if (text === undefined || text.length > MAX_BODY) return send(422, tooLong());
    comment.body = text;
    send(200, this.shown(comment));
  }

  private shown(c: FakeComment) {
    const [owner = '', name = ''] = this.repository.split('/');
    return {
      id: c.id,
      body: c.body,
      user: { login: c.user },
      html_url: `https://github.example/${owner}/${name}/pull/${c.pull}#issuecomment-${c.id}`,
    };
  }
}

type Send = (status: number, value: unknown, headers?: Record<string, string>) => void;

function bodyOf(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    const body = typeof value === 'object' && value !== null ? (value as { body?: unknown }).body : undefined;
    return typeof body === 'string' ? body : undefined;
  } catch {
    return undefined;
  }
}

/** GitHub's answer to a body past its limit. */
const tooLong = () => ({
  message: 'Validation Failed',
  errors: [
    {
      resource: 'IssueComment',
      code: 'custom',
      field: 'body',
      message: 'body is too long (maximum is 65536 characters)',
    },
  ],
  documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
});
