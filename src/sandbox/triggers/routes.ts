// Triggers: the list of spec 4.7, and reading, creating, replacing and deleting one (beyond the spec,
// service facts "Writing triggers"). `__all__` addresses the environment-wide triggers (listed with
// dataset_slug "all"); its list holds every trigger of the environment. A trigger written with an inline
// query is saved with a saved query of that query, whose id it lists beside it (service facts). What the
// service does to a trigger it stores is done by the rewrites switched on (rewrites.ts).
import { recordOf, type QueryRef } from './record';
import {
  answeredTrigger,
  DEFAULT_REWRITES,
  floatJson,
  storedQuery,
  withTimeRange,
  type TriggerRewrites,
} from './rewrites';
import { heldRecipients, storedRecipients } from './storedRecipients';
import { givesBothQueries, TriggerWriteBody, type TriggerWrite } from './body';
import { triggerQueryProblems } from './query';
import { resolveRecipients } from '../recipients';
import {
  BAD_REQUEST_PROBLEM,
  json,
  problem,
  v1ValidationFailure,
  validationFailed,
  type Reply,
  type TypeDetail,
} from '../responses';
import { param, type HandlerContext, type Route } from '../router';
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG, LIMITS } from '../spec';
import { findDataset, takeId, type StoredRecipient, type TriggerRecord } from '../state';

/** What the trigger routes get: the router's context and the trigger rewrites switched on (absent: their defaults). */
export interface TriggerContext extends HandlerContext {
  rewrites?: Readonly<TriggerRewrites>;
}

interface Scope {
  /** The path segment: a dataset slug or `__all__` (also the `dataset` of the scope's saved queries). */
  key: string;
  /** The `dataset_slug` of the scope's triggers: the slug, or "all". */
  slug: string;
  metrics: boolean;
}

function scopeOf(ctx: TriggerContext): Scope | Reply {
  const key = param(ctx, 'dataset');
  if (key === ENVIRONMENT_WIDE) return { key, slug: ENVIRONMENT_WIDE_TRIGGER_SLUG, metrics: false };
  const dataset = findDataset(ctx.state, key);
  if (!dataset) return problem(ctx.baseUrl, 404, `dataset "${key}" not found`);
  return { key, slug: dataset.slug, metrics: dataset.kind === 'metrics' };
}

const isReply = (v: object): v is Reply => 'status' in v && 'body' in v;

const rewritesOf = (ctx: TriggerContext): Readonly<TriggerRewrites> => ctx.rewrites ?? DEFAULT_REWRITES;

/** A stored trigger as the service answers it: the answer-time rewrites made. */
function answered(ctx: TriggerContext): (t: TriggerRecord) => Record<string, unknown> {
  const saved = (id: string) => ctx.state.savedQueries.find((q) => q.id === id)?.query;
  return (t) => answeredTrigger(t, rewritesOf(ctx), saved);
}

/** The answer: its triggers written with floats for whole numbers where that rewrite is on. */
function answer(ctx: TriggerContext, status: number, value: unknown, headers?: Record<string, string>): Reply {
  const reply = json(status, value, undefined, headers);
  return rewritesOf(ctx).floats ? { ...reply, body: floatJson(value) } : reply;
}

/** The trigger of the path, when it belongs to the path's dataset (or is environment-wide for `__all__`). */
function triggerOf(ctx: TriggerContext, scope: Scope): TriggerRecord | Reply {
  const id = param(ctx, 'id');
  const trigger = ctx.state.triggers.find((t) => t.id === id && t.dataset_slug === scope.slug);
  return trigger ?? problem(ctx.baseUrl, 404, `trigger "${id}" not found in "${scope.key}"`);
}

/**
 * The list is kept serialised (listCache.ts). What it is made of: the triggers, and how many of them the
 * scope holds, so a trigger added to or removed from another dataset keeps this dataset's list while a
 * change to this one's made through `handle.state` is still noticed.
 */
function listTriggers(ctx: TriggerContext): Reply {
  const scope = scopeOf(ctx);
  if (isReply(scope)) return scope;
  const { triggers } = ctx.state;
  const all = scope.key === ENVIRONMENT_WIDE;
  const held = all ? triggers.length : triggers.reduce((n, t) => (t.dataset_slug === scope.slug ? n + 1 : n), 0);
  const list = () =>
    answer(ctx, 200, (all ? triggers : triggers.filter((t) => t.dataset_slug === scope.slug)).map(answered(ctx)));
  return ctx.lists?.reply('triggers', scope.key, [triggers, held], list) ?? list();
}

function getTrigger(ctx: TriggerContext): Reply {
  const scope = scopeOf(ctx);
  if (isReply(scope)) return scope;
  const trigger = triggerOf(ctx, scope);
  return isReply(trigger) ? trigger : answer(ctx, 200, answered(ctx)(trigger));
}

interface CheckedWrite {
  body: TriggerWrite;
  recipients: StoredRecipient[];
}

/** The body, checked: 400 for both queries, 422 for anything the rules refuse. */
function checkedWrite(ctx: TriggerContext, scope: Scope): CheckedWrite | Reply {
  if (givesBothQueries(ctx.body)) {
    const description = 'give either query or query_id, not both';
    return problem(
      ctx.baseUrl,
      400,
      `query_id: ${description}`,
      [{ field: 'query_id', code: 'invalid', description }],
      BAD_REQUEST_PROBLEM,
    );
  }
  const parsed = TriggerWriteBody.safeParse(ctx.body);
  if (!parsed.success) return v1ValidationFailure(ctx.baseUrl, parsed.error.issues, ctx.body);
  const body = parsed.data;
  if (body.query !== undefined)
    body.query = withTimeRange(body.query, body.frequency ?? LIMITS.triggerFrequencyDefault, rewritesOf(ctx));
  const problems: TypeDetail[] = [];
  const recipients = resolveRecipients(ctx.state, body.recipients ?? [], heldRecipients(ctx.state));
  if (!recipients.ok) problems.push(...recipients.reason);
  problems.push(...queryProblems(ctx, scope, body));
  if (problems.length > 0 || !recipients.ok) return validationFailed(ctx.baseUrl, problems);
  return { body, recipients: recipients.recipients };
}

/** The inline query's problems (fields under `query`), or those of the saved query named (all on `query_id`). */
function queryProblems(ctx: TriggerContext, scope: Scope, body: TriggerWrite): TypeDetail[] {
  const rules = {
    frequency: body.frequency ?? LIMITS.triggerFrequencyDefault,
    metrics: scope.metrics,
    nowSeconds: Math.floor(ctx.now().getTime() / 1000),
  };
  if (body.query !== undefined) {
    return triggerQueryProblems(body.query, rules).map((p) => ({
      ...p,
      field: p.field === '(body)' ? 'query' : `query.${p.field}`,
    }));
  }
  const id = body.query_id ?? '';
  const saved = ctx.state.savedQueries.find((q) => q.id === id && q.dataset === scope.key);
  if (!saved)
    return [
      { field: 'query_id', code: 'invalid', description: `query_id "${id}" names no saved query of "${scope.key}"` },
    ];
  return triggerQueryProblems(saved.query, rules).map((p) => ({
    field: 'query_id',
    code: 'invalid',
    description: `the saved query "${id}" does not meet a trigger's requirements: ${p.field}: ${p.description}`,
  }));
}

/** The saved query a write's trigger names: the inline query's (the one it holds when unchanged, else a new one), or the one given. */
function queryRefOf(
  ctx: TriggerContext,
  scope: Scope,
  body: TriggerWrite,
  before: TriggerRecord | undefined,
): QueryRef {
  if (body.query === undefined) return { query_id: body.query_id ?? '' };
  const { id: _ignored, ...sent } = body.query;
  const query = storedQuery(sent, rewritesOf(ctx));
  const text = JSON.stringify(query);
  const kept =
    before?.query_id !== undefined && before.query !== undefined && JSON.stringify(before.query) === text
      ? before.query_id
      : undefined;
  if (kept !== undefined) return { query, query_id: kept };
  const id = takeId(ctx.state, 'q_');
  ctx.state.savedQueries.push({ id, dataset: scope.key, name: '', query: structuredClone(query), behaviour: 'normal' });
  return { query, query_id: id };
}

function createTrigger(ctx: TriggerContext): Reply {
  const scope = scopeOf(ctx);
  if (isReply(scope)) return scope;
  const write = checkedWrite(ctx, scope);
  if (isReply(write)) return write;
  const now = ctx.now().toISOString();
  const id = takeId(ctx.state, 'trig_');
  const r = rewritesOf(ctx);
  const trigger = recordOf(
    write.body,
    {
      id,
      dataset_slug: scope.slug,
      recipients: storedRecipients(ctx.state, write.recipients, r, now),
      query: queryRefOf(ctx, scope, write.body, undefined),
      disabled: write.body.disabled ?? false,
      triggered: false,
      created_at: now,
      updated_at: now,
    },
    r,
  );
  ctx.state.triggers.push(trigger);
  const location = `${ctx.baseUrl}/1/triggers/${encodeURIComponent(scope.key)}/${encodeURIComponent(id)}`;
  return answer(ctx, 201, answered(ctx)(trigger), { Location: location });
}

/** A time strictly after `before`: now, or a millisecond after `before` when the clock has not moved past it. */
function laterThan(before: string, now: Date): string {
  const previous = Date.parse(before);
  return Number.isNaN(previous) || now.getTime() > previous ? now.toISOString() : new Date(previous + 1).toISOString();
}

/** PUT: a replacement. Every member left out takes its default, except `disabled`, which keeps its value. */
function replaceTrigger(ctx: TriggerContext): Reply {
  const scope = scopeOf(ctx);
  if (isReply(scope)) return scope;
  const before = triggerOf(ctx, scope);
  if (isReply(before)) return before;
  const write = checkedWrite(ctx, scope);
  if (isReply(write)) return write;
  const updated = laterThan(before.updated_at, ctx.now());
  const r = rewritesOf(ctx);
  const trigger = recordOf(
    write.body,
    {
      id: before.id,
      dataset_slug: before.dataset_slug,
      recipients: storedRecipients(ctx.state, write.recipients, r, updated),
      query: queryRefOf(ctx, scope, write.body, before),
      disabled: write.body.disabled ?? before.disabled,
      triggered: before.triggered,
      created_at: before.created_at,
      updated_at: updated,
    },
    r,
  );
  const triggers = ctx.state.triggers;
  triggers[triggers.indexOf(before)] = trigger;
  return answer(ctx, 200, answered(ctx)(trigger));
}

function deleteTrigger(ctx: TriggerContext): Reply {
  const scope = scopeOf(ctx);
  if (isReply(scope)) return scope;
  const trigger = triggerOf(ctx, scope);
  if (isReply(trigger)) return trigger;
  ctx.state.triggers.splice(ctx.state.triggers.indexOf(trigger), 1);
  return { status: 204, body: '' };
}

const path = ['1', 'triggers', ':dataset'];
const onePath = [...path, ':id'];

export const TRIGGER_ROUTES: Route<TriggerContext>[] = [
  { method: 'GET', pattern: path, api: 'v1', body: false, handler: listTriggers },
  { method: 'POST', pattern: path, api: 'v1', body: true, handler: createTrigger, changes: ['triggers'] },
  { method: 'GET', pattern: onePath, api: 'v1', body: false, handler: getTrigger },
  { method: 'PUT', pattern: onePath, api: 'v1', body: true, handler: replaceTrigger, changes: ['triggers'] },
  { method: 'DELETE', pattern: onePath, api: 'v1', body: false, handler: deleteTrigger, changes: ['triggers'] },
];
