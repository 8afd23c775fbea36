// Saved queries and query results: POST /1/queries/<dataset> and GET /1/queries/<dataset>/<id> (beyond
// the spec, service facts), POST /1/query_results/<dataset> (spec 4.5) and GET
// /1/query_results/<dataset>/<id> (beyond the spec). Results are computed from the query itself over
// synthetic events; one that takes the service time completes only after it, so clients must poll.
import { json, problem, v1ValidationFailure, type Reply } from '../responses';
import { QueryResultBody } from '../requests';
import { param, type HandlerContext, type Route } from '../router';
import { ENVIRONMENT_WIDE } from '../spec';
import {
  columnsOf,
  findDataset,
  takeId,
  type DatasetRecord,
  type QueryResultRecord,
  type SavedQueryRecord,
} from '../state';
import { runQuery, type QuerySource, type RunOutcome } from './engine';
import type { QueryRuntime } from './runtime';
import { readSpec, RETENTION_SECONDS } from './spec';

/** What the query routes get: the router's context and the query-result rate limit and recent results. */
export interface QueryContext extends HandlerContext {
  queries: QueryRuntime;
}

/** Results that cost less than this are complete in the create response. */
const IMMEDIATE_MS = 100;
/** The demo's "slow" saved query takes the service this long. */
const SLOW_MS = 4_000;
const FORCED_FAILURE = 'query failed: a calculation names a column that does not exist';

type Scope = { key: string; datasets: DatasetRecord[] };

function scopeOf(ctx: QueryContext): Scope | Reply {
  const slug = param(ctx, 'dataset');
  if (slug === ENVIRONMENT_WIDE) return { key: ENVIRONMENT_WIDE, datasets: ctx.state.datasets };
  const dataset = findDataset(ctx.state, slug);
  if (!dataset) return problem(ctx.baseUrl, 404, `dataset "${slug}" not found`);
  return { key: dataset.slug, datasets: [dataset] };
}

const isReply = (v: Scope | Reply): v is Reply => 'status' in v;
const nowSeconds = (ctx: QueryContext): number => Math.floor(ctx.now().getTime() / 1000);

function sourceOf(ctx: QueryContext, scope: Scope): QuerySource {
  const columns = new Set<string>();
  for (const d of scope.datasets) {
    for (const c of columnsOf(ctx.state, d)) columns.add(c.key_name);
    for (const c of d.derived_columns) columns.add(c);
  }
  return {
    datasets: scope.datasets.map((d) => ({ slug: d.events?.source ?? d.slug, scale: d.events?.scale ?? 1 })),
    columns,
    label: scope.key === ENVIRONMENT_WIDE ? 'the environment' : `dataset "${scope.key}"`,
  };
}

function savedOut(q: SavedQueryRecord): Record<string, unknown> {
  return { ...q.query, id: q.id };
}

function createQuery(ctx: QueryContext): Reply {
  const scope = scopeOf(ctx);
  if (isReply(scope)) return scope;
  const read = readSpec(ctx.body, nowSeconds(ctx));
  if (!read.ok)
    return problem(ctx.baseUrl, 422, read.reason.map((p) => `${p.field}: ${p.description}`).join('; '), read.reason);
  const { id: _ignored, ...query } = ctx.body as Record<string, unknown>;
  const saved: SavedQueryRecord = {
    id: takeId(ctx.state, 'q_'),
    dataset: scope.key,
    name: '',
    query,
    behaviour: 'normal',
  };
  ctx.state.savedQueries.push(saved);
  return json(200, savedOut(saved));
}

function getQuery(ctx: QueryContext): Reply {
  const scope = scopeOf(ctx);
  if (isReply(scope)) return scope;
  const id = param(ctx, 'id');
  const saved = ctx.state.savedQueries.find((q) => q.id === id && q.dataset === scope.key);
  if (!saved) return problem(ctx.baseUrl, 404, `saved query "${id}" not found in "${param(ctx, 'dataset')}"`);
  return json(200, savedOut(saved));
}

/** Runs (or recalls) the query of a result, as of the result's creation. */
function outcomeOf(ctx: QueryContext, scope: Scope, record: QueryResultRecord, saved: SavedQueryRecord): RunOutcome {
  const known = ctx.queries.recall(record.id);
  if (known) return known;
  let outcome: RunOutcome;
  if (saved.behaviour === 'fails') outcome = { error: FORCED_FAILURE, costMs: 50 };
  else {
    const ranAt = Math.floor(Date.parse(record.created_at) / 1000);
    const read = readSpec(saved.query, ranAt);
    outcome = read.ok
      ? runQuery(read.spec, sourceOf(ctx, scope), ranAt, {
          disableSeries: record.disable_series,
          disableTotalByAggregate: record.disable_total_by_aggregate ?? true,
          disableOtherByAggregate: record.disable_other_by_aggregate ?? true,
          limit: record.limit,
        })
      : { error: `query failed: ${read.reason.map((p) => `${p.field}: ${p.description}`).join('; ')}`, costMs: 5 };
  }
  if (saved.behaviour === 'slow') outcome = { ...outcome, costMs: Math.max(outcome.costMs, SLOW_MS) };
  ctx.queries.remember(record.id, outcome);
  return outcome;
}

function resultOut(
  ctx: QueryContext,
  record: QueryResultRecord,
  saved: SavedQueryRecord,
  outcome: RunOutcome | undefined,
): Record<string, unknown> {
  const dataset = encodeURIComponent(record.dataset);
  const queryUrl = `${ctx.uiUrl}/${encodeURIComponent(ctx.state.team)}/datasets/${dataset}/result/${record.id}`;
  const out: Record<string, unknown> = {
    id: record.id,
    complete: outcome !== undefined,
    query: saved.query,
    links: { query_url: queryUrl, graph_image_url: `${queryUrl}/snapshot` },
  };
  if (outcome?.error !== undefined) out.error = outcome.error;
  else if (outcome?.data !== undefined) out.data = outcome.data;
  return out;
}

function createQueryResult(ctx: QueryContext): Reply {
  const scope = scopeOf(ctx);
  if (isReply(scope)) return scope;
  const rate = ctx.queries.limiter.take(ctx.state.team, 'write');
  if (!rate.allowed) {
    const limit = ctx.queries.limiter.limit;
    const reply = problem(
      ctx.baseUrl,
      429,
      `creating query results is limited to ${limit} a minute: retry after the time in Retry-After`,
    );
    return { ...reply, headers: { ...rate.headers, 'Retry-After': rate.resetAt.toUTCString() } };
  }
  const parsed = QueryResultBody.safeParse(ctx.body);
  if (!parsed.success) return v1ValidationFailure(ctx.baseUrl, parsed.error.issues, ctx.body);
  const body = parsed.data;
  const saved = ctx.state.savedQueries.find((q) => q.id === body.query_id && q.dataset === scope.key);
  if (!saved) {
    const description = `query_id "${body.query_id}" names no saved query of "${param(ctx, 'dataset')}"`;
    return problem(ctx.baseUrl, 422, `query_id: ${description}`, [{ field: 'query_id', code: 'invalid', description }]);
  }
  const now = ctx.now();
  const record: QueryResultRecord = {
    id: takeId(ctx.state, 'qr_'),
    dataset: scope.key,
    query_id: saved.id,
    disable_series: body.disable_series ?? false,
    ...(body.limit !== undefined ? { limit: body.limit } : {}),
    ...(body.disable_total_by_aggregate !== undefined
      ? { disable_total_by_aggregate: body.disable_total_by_aggregate }
      : {}),
    ...(body.disable_other_by_aggregate !== undefined
      ? { disable_other_by_aggregate: body.disable_other_by_aggregate }
      : {}),
    created_at: now.toISOString(),
  };
  const outcome = outcomeOf(ctx, scope, record, saved);
  if (outcome.costMs >= IMMEDIATE_MS) record.ready_at = new Date(now.getTime() + outcome.costMs).toISOString();
  ctx.state.queryResults.push(record);
  const location = `${ctx.baseUrl}/1/query_results/${encodeURIComponent(param(ctx, 'dataset'))}/${record.id}`;
  return json(201, resultOut(ctx, record, saved, record.ready_at === undefined ? outcome : undefined), undefined, {
    Location: location,
  });
}

function getQueryResult(ctx: QueryContext): Reply {
  const scope = scopeOf(ctx);
  if (isReply(scope)) return scope;
  const id = param(ctx, 'id');
  const record = ctx.state.queryResults.find((r) => r.id === id && r.dataset === scope.key);
  const saved = record && ctx.state.savedQueries.find((q) => q.id === record.query_id && q.dataset === scope.key);
  const now = ctx.now().getTime();
  if (!record || !saved || Date.parse(record.created_at) < now - RETENTION_SECONDS * 1000) {
    return problem(
      ctx.baseUrl,
      404,
      `query result "${id}" not found in "${param(ctx, 'dataset')}" (results exist for 7 days)`,
    );
  }
  const ready = record.ready_at === undefined || Date.parse(record.ready_at) <= now;
  return json(200, resultOut(ctx, record, saved, ready ? outcomeOf(ctx, scope, record, saved) : undefined));
}

export const QUERY_ROUTES: Route<QueryContext>[] = [
  { method: 'POST', pattern: ['1', 'queries', ':dataset'], api: 'v1', body: true, handler: createQuery, changes: [] },
  { method: 'GET', pattern: ['1', 'queries', ':dataset', ':id'], api: 'v1', body: false, handler: getQuery },
  {
    method: 'POST',
    pattern: ['1', 'query_results', ':dataset'],
    api: 'v1',
    body: true,
    handler: createQueryResult,
    changes: [],
  },
  {
    method: 'GET',
    pattern: ['1', 'query_results', ':dataset', ':id'],
    api: 'v1',
    body: false,
    handler: getQueryResult,
  },
];
