import { resolveRecipients } from './recipients';
import { BurnAlertListQuery, BurnAlertPutBody, ColumnsQuery, DefinitionsBody } from './requests';
import { param, type HandlerContext, type Route } from './router';
import { json, legacy, problem, v1ValidationFailure, type Reply, type TypeDetail } from './responses';
import {
  columnsOf,
  emptyDefinitions,
  findDataset,
  hasColumn,
  type BurnAlertRecord,
  type DatasetRecord,
  type SloRecord,
} from './state';
import { DEFINITION_TYPES, ENVIRONMENT_WIDE } from './spec';

// Version 1 (configuration key) endpoints of spec part 4: 4.3 to 4.8.

type DatasetScope = { kind: 'all' } | { kind: 'dataset'; dataset: DatasetRecord };

/** The dataset of the path, `__all__` where the endpoint allows it, or a 404 reply. */
function scopeOf(ctx: HandlerContext, allowAll: boolean): DatasetScope | Reply {
  const slug = param(ctx, 'dataset');
  if (slug === ENVIRONMENT_WIDE && allowAll) return { kind: 'all' };
  const dataset = findDataset(ctx.state, slug);
  if (!dataset) return problem(ctx.baseUrl, 404, `dataset "${slug}" not found`);
  return { kind: 'dataset', dataset };
}

function isReply(v: DatasetScope | Reply): v is Reply {
  return 'status' in v;
}

/** The `dataset` member of SLOs and saved queries that belong to this scope. */
function scopeKey(scope: DatasetScope): string {
  return scope.kind === 'all' ? ENVIRONMENT_WIDE : scope.dataset.slug;
}

function queryObject(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of query) out[k] = v;
  return out;
}

// --- 4.3 and 4.4: burn alerts --------------------------------------------------------------------

function burnAlertOut(alert: BurnAlertRecord, withRecipients: boolean): Record<string, unknown> {
  const typeSpecific =
    alert.alert_type === 'exhaustion_time'
      ? { exhaustion_minutes: alert.exhaustion_minutes }
      : {
          budget_rate_window_minutes: alert.budget_rate_window_minutes,
          budget_rate_decrease_threshold_per_million: alert.budget_rate_decrease_threshold_per_million,
        };
  return {
    id: alert.id,
    alert_type: alert.alert_type,
    ...typeSpecific,
    description: alert.description,
    triggered: alert.triggered,
    slo: { id: alert.slo_id },
    ...(alert.auto_investigate !== undefined ? { auto_investigate: alert.auto_investigate } : {}),
    created_at: alert.created_at,
    updated_at: alert.updated_at,
    ...(withRecipients ? { recipients: alert.recipients } : {}),
  };
}

function listBurnAlerts(ctx: HandlerContext): Reply {
  const scope = scopeOf(ctx, true);
  if (isReply(scope)) return scope;
  const raw = queryObject(ctx.query);
  const parsed = BurnAlertListQuery.safeParse(raw);
  if (!parsed.success) return v1ValidationFailure(ctx.baseUrl, parsed.error.issues, raw);
  const sloId = parsed.data.slo_id;
  const slo = ctx.state.slos.find((s) => s.id === sloId && s.dataset === scopeKey(scope));
  if (!slo) return problem(ctx.baseUrl, 404, `SLO "${sloId}" not found in "${param(ctx, 'dataset')}"`);
  return json(
    200,
    ctx.state.burnAlerts.filter((a) => a.slo_id === slo.id).map((a) => burnAlertOut(a, false)),
  );
}

/** The alert of the path and its SLO, when the alert belongs to the path's dataset (or `__all__`). */
function alertOf(ctx: HandlerContext): { alert: BurnAlertRecord; slo: SloRecord } | Reply {
  const scope = scopeOf(ctx, true);
  if (isReply(scope)) return scope;
  const id = param(ctx, 'id');
  const alert = ctx.state.burnAlerts.find((a) => a.id === id);
  const slo = alert ? ctx.state.slos.find((s) => s.id === alert.slo_id) : undefined;
  if (!alert || !slo || slo.dataset !== scopeKey(scope)) {
    return problem(ctx.baseUrl, 404, `burn alert "${id}" not found in "${param(ctx, 'dataset')}"`);
  }
  return { alert, slo };
}

/** GET of one alert (service facts: beyond the spec): everything the list leaves out, recipients included. */
function getBurnAlert(ctx: HandlerContext): Reply {
  const found = alertOf(ctx);
  if ('status' in found) return found;
  return json(200, burnAlertOut(found.alert, true));
}

function updateBurnAlert(ctx: HandlerContext): Reply {
  const found = alertOf(ctx);
  if ('status' in found) return found;
  const { alert, slo } = found;
  // Read-only and unknown members are ignored (service facts); only the members of 4.4 are read.
  const parsed = BurnAlertPutBody.safeParse(ctx.body);
  if (!parsed.success) return v1ValidationFailure(ctx.baseUrl, parsed.error.issues, ctx.body);
  const body = parsed.data;

  const problems: TypeDetail[] = [];
  const periodMinutes = slo.time_period_days * 24 * 60;
  if (body.budget_rate_window_minutes !== undefined && body.budget_rate_window_minutes > periodMinutes) {
    problems.push({
      field: 'budget_rate_window_minutes',
      code: 'invalid',
      description: `budget_rate_window_minutes must be at most the SLO period (${periodMinutes} minutes)`,
    });
  }
  const recipients = resolveRecipients(ctx.state, body.recipients);
  if (!recipients.ok) problems.push(...recipients.reason);
  if (problems.length > 0 || !recipients.ok) {
    return problem(ctx.baseUrl, 422, problems.map((p) => `${p.field}: ${p.description}`).join('; '), problems);
  }

  alert.alert_type = body.alert_type;
  if (body.alert_type === 'exhaustion_time') {
    alert.exhaustion_minutes = body.exhaustion_minutes;
    delete alert.budget_rate_window_minutes;
    delete alert.budget_rate_decrease_threshold_per_million;
  } else {
    delete alert.exhaustion_minutes;
    alert.budget_rate_window_minutes = body.budget_rate_window_minutes;
    alert.budget_rate_decrease_threshold_per_million = body.budget_rate_decrease_threshold_per_million;
  }
  // description is optional in the request: absent leaves it as it was.
  if (body.description !== undefined) alert.description = body.description;
  alert.recipients = recipients.recipients;
  alert.updated_at = ctx.now().toISOString();
  return json(200, burnAlertOut(alert, true));
}

// 4.5 (query results) and the saved queries live in queries/routes.ts.

// --- 4.6: columns (4.7, the triggers, lives in triggers/routes.ts) -----------------------------------

function listColumns(ctx: HandlerContext): Reply {
  const scope = scopeOf(ctx, true);
  if (isReply(scope)) return scope;
  const raw = queryObject(ctx.query);
  const parsed = ColumnsQuery.safeParse(raw);
  if (!parsed.success) return v1ValidationFailure(ctx.baseUrl, parsed.error.issues, raw);
  const datasets = scope.kind === 'all' ? ctx.state.datasets : [scope.dataset];
  const keyName = parsed.data.key_name;
  if (keyName === undefined) {
    const list = () =>
      json(
        200,
        datasets.flatMap((d) => columnsOf(ctx.state, d)),
      );
    // What the list is made of: each dataset's stored columns and generated count.
    const sources = [
      ctx.state.datasets,
      ctx.state.datasets.length,
      ...datasets.flatMap((d) => [
        d,
        d.generated_columns,
        ctx.state.columns[d.slug],
        ctx.state.columns[d.slug]?.length,
      ]),
    ];
    return ctx.lists?.reply('columns', scopeKey(scope), sources, list) ?? list();
  }
  for (const d of datasets) {
    const column = columnsOf(ctx.state, d).find((c) => c.key_name === keyName);
    if (column) return json(200, column);
  }
  return problem(ctx.baseUrl, 404, `column "${keyName}" not found in "${param(ctx, 'dataset')}"`);
}

// --- 4.8: dataset definitions --------------------------------------------------------------------

function updateDefinitions(ctx: HandlerContext): Reply {
  if (param(ctx, 'dataset') === ENVIRONMENT_WIDE) {
    return problem(
      ctx.baseUrl,
      404,
      'dataset definitions need a dataset slug: "__all__" (environment-wide) is not accepted',
    );
  }
  const scope = scopeOf(ctx, false);
  if (isReply(scope)) return scope;
  if (scope.kind !== 'dataset') return problem(ctx.baseUrl, 404, 'dataset definitions need a dataset slug');
  const dataset = scope.dataset;
  const parsed = DefinitionsBody.safeParse(ctx.body);
  if (!parsed.success) return v1ValidationFailure(ctx.baseUrl, parsed.error.issues, ctx.body);

  const changes = DEFINITION_TYPES.flatMap((type) => {
    const ref = parsed.data[type];
    return ref === undefined ? [] : [{ type, name: ref.name }];
  });
  const unknown = changes.filter(
    (c) => c.name !== '' && !hasColumn(ctx.state, dataset, c.name) && !dataset.derived_columns.includes(c.name),
  );
  if (unknown.length > 0) {
    // The service answers this one in the legacy shape (service-facts note).
    return legacy(
      422,
      `unknown column(s) for dataset ${dataset.slug}: ${unknown.map((u) => `${u.type} -> "${u.name}"`).join(', ')}`,
    );
  }
  const map = ctx.state.definitions[dataset.slug] ?? emptyDefinitions();
  for (const c of changes) {
    // column_type in the request is ignored, whatever it holds: the sandbox decides it from what the name points at.
    map[c.type] =
      c.name === ''
        ? null
        : { name: c.name, column_type: dataset.derived_columns.includes(c.name) ? 'derived_column' : 'column' };
  }
  ctx.state.definitions[dataset.slug] = map;
  return json(200, Object.fromEntries(DEFINITION_TYPES.map((t) => [t, map[t]])));
}

export const V1_ROUTES: Route[] = [
  { method: 'GET', pattern: ['1', 'burn_alerts', ':dataset'], api: 'v1', body: false, handler: listBurnAlerts },
  { method: 'GET', pattern: ['1', 'burn_alerts', ':dataset', ':id'], api: 'v1', body: false, handler: getBurnAlert },
  {
    method: 'PUT',
    pattern: ['1', 'burn_alerts', ':dataset', ':id'],
    api: 'v1',
    body: true,
    handler: updateBurnAlert,
    changes: [],
  },
  { method: 'GET', pattern: ['1', 'columns', ':dataset'], api: 'v1', body: false, handler: listColumns },
  {
    method: 'PATCH',
    pattern: ['1', 'dataset_definitions', ':dataset'],
    api: 'v1',
    body: true,
    handler: updateDefinitions,
    changes: [],
  },
];
