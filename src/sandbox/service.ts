import type { IncomingMessage } from 'node:http';
import { ACCOUNT_ROUTES } from './account';
import { authenticate } from './access';
import { MAX_BODY_BYTES, mediaType, parseJson, type ReceivedBody } from './body';
import type { ListCache } from './listCache';
import { QUERY_ROUTES, type QueryContext } from './queries/routes';
import type { QueryRuntime } from './queries/runtime';
import type { RateDecision, RateLimiter } from './rateLimiter';
import { errorFor, jsonApi, jsonApiError, MEDIA, problem, type Api, type Reply } from './responses';
import { matchRoute, operationKind, type Route } from './router';
import { V1_ROUTES } from './serviceV1';
import { V2_ROUTES } from './serviceV2';
import type { SandboxState } from './state';
import { TRIGGER_ROUTES, type TriggerContext } from './triggers/routes';
import { UI_PREFIX } from './ui';
import type { WriteQueue } from './writes';
import type { RewriteSwitches } from './triggers/rewrites';

// The service proper, checks in the order docs/SANDBOX.md gives: route, credentials, rate limit,
// permission, body, then the route's handler (writes one at a time, with their save).

/** What a handler of the service gets: every group's context. */
type ServiceHandlerContext = QueryContext & TriggerContext;

const ROUTES: Route<ServiceHandlerContext>[] = [
  ...V1_ROUTES,
  ...TRIGGER_ROUTES,
  ...QUERY_ROUTES,
  ...ACCOUNT_ROUTES,
  ...V2_ROUTES,
];

export interface ServiceContext {
  state: SandboxState;
  now: () => Date;
  limiter: RateLimiter;
  queries: QueryRuntime;
  lists: ListCache;
  writes: WriteQueue;
  baseUrl: string;
  rewrites: RewriteSwitches;
}

export interface ServiceRequest {
  req: IncomingMessage;
  url: URL;
  api: Api;
  body: ReceivedBody;
}

const withHeaders = (reply: Reply, headers: Record<string, string>): Reply => ({
  ...reply,
  headers: { ...headers, ...reply.headers },
});

function tooManyRequests(api: Api, baseUrl: string, rate: RateDecision): Reply {
  const detail = 'rate limit exceeded: retry after the time in Retry-After';
  const reply = api === 'v2' ? jsonApi(429, [jsonApiError(429, detail)]) : problem(baseUrl, 429, detail);
  return withHeaders(reply, { ...rate.headers, 'Retry-After': rate.resetAt.toUTCString() });
}

/** The parsed JSON body of a route that takes one, or the reply refusing it (413, 415, 400). */
function bodyOf(
  route: Route<ServiceHandlerContext>,
  api: Api,
  baseUrl: string,
  req: IncomingMessage,
  body: ReceivedBody,
): { value: unknown } | Reply {
  if (body.tooLarge)
    return errorFor(api, baseUrl, 413, `request body is ${body.size} bytes; the limit is ${MAX_BODY_BYTES}`);
  const media = mediaType(req.headers['content-type']);
  if (route.api === 'v2') {
    // JSON:API: its media type, with no parameters other than ext and profile.
    const badParams = media.params.some((p) => !/^(ext|profile)=/.test(p));
    if (media.type !== MEDIA.jsonApi || badParams) {
      return jsonApi(415, [jsonApiError(415, `Content-Type must be ${MEDIA.jsonApi}`, { header: 'Content-Type' })]);
    }
  } else if (media.type !== MEDIA.json) {
    return problem(baseUrl, 415, `Content-Type must be ${MEDIA.json}`);
  }
  const parsed = parseJson(body.bytes);
  return parsed.ok ? { value: parsed.value } : errorFor(api, baseUrl, 400, `request body ${parsed.reason}`);
}

/** The answer of the service to one request. */
export async function serviceReply(ctx: ServiceContext, { req, url, api, body }: ServiceRequest): Promise<Reply> {
  const method = req.method ?? 'GET';
  const kind = operationKind(method);
  const peekHeaders = () => ctx.limiter.peek(ctx.state.team, kind).headers;

  const match = matchRoute(ROUTES, method, url.pathname);
  if (match.kind === 'none')
    return withHeaders(errorFor(api, ctx.baseUrl, 404, `no endpoint at ${url.pathname}`), peekHeaders());
  if (match.kind === 'wrong-method') {
    const reply = errorFor(api, ctx.baseUrl, 405, `${method} is not allowed on ${url.pathname}`);
    return withHeaders(reply, { ...peekHeaders(), Allow: match.allow.join(', ') });
  }
  const { route, params } = match;

  const auth = authenticate(req, route.api, ctx.state.credentials);
  if (!auth.ok) return withHeaders(auth.reason, peekHeaders());
  const rate = ctx.limiter.take(ctx.state.team, kind);
  if (!rate.allowed) return tooManyRequests(route.api, ctx.baseUrl, rate);
  const respond = (reply: Reply) => withHeaders(reply, rate.headers);
  if (auth.configKey && !auth.configKey.canWrite && kind === 'write') {
    return respond(
      problem(ctx.baseUrl, 403, `the key "${auth.configKey.name}" does not have permission to change this resource`),
    );
  }

  let parsedBody: unknown = undefined;
  if (route.body) {
    const read = bodyOf(route, api, ctx.baseUrl, req, body);
    if ('status' in read) return respond(read);
    parsedBody = read.value;
  }
  const { state, baseUrl, now, queries, lists } = ctx;
  const rewrites = ctx.rewrites.current;
  const handle = () =>
    route.handler({
      state,
      baseUrl,
      uiUrl: `${baseUrl}${UI_PREFIX}`,
      now,
      params,
      query: url.searchParams,
      body: parsedBody,
      queries,
      lists,
      rewrites,
    });
  if (kind === 'read') return respond(handle());
  return respond(await ctx.writes.write(route, params, api, baseUrl, handle));
}
