// What the account holds, beyond the spec's eight calls (service facts, "Reading what the account holds"):
// datasets, SLOs, recipients and named saved queries, in the bodies the facts list.
import { json, problem, type Reply } from './responses';
import { param, type HandlerContext, type Route } from './router';
import { ENVIRONMENT_WIDE } from './spec';
import {
  findDataset,
  type DatasetRecord,
  type QueryAnnotationRecord,
  type RecipientRecord,
  type SandboxData,
  type SloRecord,
} from './state';

/** The path's dataset slug, or `__all__`; a 404 reply for an unknown dataset. */
function scopeKey(ctx: HandlerContext): string | Reply {
  const key = param(ctx, 'dataset');
  if (key === ENVIRONMENT_WIDE || findDataset(ctx.state, key)) return key;
  return problem(ctx.baseUrl, 404, `dataset "${key}" not found`);
}

/**
 * When the dataset last received data (null until it has) and how many columns it has (null until it has
 * any): from its columns, a generated column having received data when the dataset was made.
 */
function columnFacts(
  state: SandboxData,
  d: DatasetRecord,
): { last_written_at: string | null; regular_columns_count: number | null } {
  const stored = state.columns[d.slug] ?? [];
  const written = stored.flatMap((c) => (c.last_written === undefined ? [] : [Date.parse(c.last_written)]));
  if (d.generated_columns > 0) written.push(Date.parse(d.created_at));
  const count = stored.length + d.generated_columns;
  return {
    last_written_at: written.length > 0 ? new Date(Math.max(...written)).toISOString() : null,
    regular_columns_count: count > 0 ? count : null,
  };
}

function datasetOut(state: SandboxData, d: DatasetRecord): Record<string, unknown> {
  return {
    name: d.name,
    slug: d.slug,
    description: d.description,
    expand_json_depth: d.expand_json_depth,
    created_at: d.created_at,
    ...columnFacts(state, d),
    settings: { delete_protected: d.delete_protected },
  };
}

function sloOut(s: SloRecord): Record<string, unknown> {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    sli: { alias: s.sli_alias },
    time_period_days: s.time_period_days,
    target_per_million: s.target_per_million,
    tags: s.tags,
    reset_at: s.reset_at,
    created_at: s.created_at,
    updated_at: s.updated_at,
    dataset_slugs: s.dataset === ENVIRONMENT_WIDE ? s.dataset_slugs : [s.dataset],
  };
}

/** As the service lists a recipient: its details by type, credentials included (the client must drop them). */
function recipientOut(r: RecipientRecord): Record<string, unknown> {
  return { id: r.id, type: r.type, details: r.settings, created_at: r.created_at, updated_at: r.updated_at };
}

function annotationOut(a: QueryAnnotationRecord): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    query_id: a.query_id,
    created_at: a.created_at,
    updated_at: a.updated_at,
    source: a.source,
  };
}

function listDatasets(ctx: HandlerContext): Reply {
  return json(
    200,
    ctx.state.datasets.map((d) => datasetOut(ctx.state, d)),
  );
}

/** A dataset's own SLOs; for `__all__`, the environment-wide ones (those may span several datasets). */
function listSlos(ctx: HandlerContext): Reply {
  const key = scopeKey(ctx);
  if (typeof key !== 'string') return key;
  return json(200, ctx.state.slos.filter((s) => s.dataset === key).map(sloOut));
}

function listRecipients(ctx: HandlerContext): Reply {
  return json(200, ctx.state.recipients.map(recipientOut));
}

function listQueryAnnotations(ctx: HandlerContext): Reply {
  const key = scopeKey(ctx);
  if (typeof key !== 'string') return key;
  return json(200, ctx.state.queryAnnotations.filter((a) => a.dataset === key).map(annotationOut));
}

export const ACCOUNT_ROUTES: Route[] = [
  { method: 'GET', pattern: ['1', 'datasets'], api: 'v1', body: false, handler: listDatasets },
  { method: 'GET', pattern: ['1', 'slos', ':dataset'], api: 'v1', body: false, handler: listSlos },
  { method: 'GET', pattern: ['1', 'recipients'], api: 'v1', body: false, handler: listRecipients },
  {
    method: 'GET',
    pattern: ['1', 'query_annotations', ':dataset'],
    api: 'v1',
    body: false,
    handler: listQueryAnnotations,
  },
];
