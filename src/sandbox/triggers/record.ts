// A trigger as stored and listed, made from a checked write body: every member the body leaves out takes
// its default (spec 2.6, service facts); what the service sets itself comes from the caller.
import type { TriggerWrite } from './body';
import { setsBaseline } from './body';
import { DEFAULT_REWRITES, inServiceOrder, type TriggerRewrites } from './rewrites';
import { EVALUATION_SCHEDULE_TYPES, LIMITS, TRIGGER_ALERT_TYPES } from '../spec';
import type { StoredRecipient, TriggerRecord } from '../state';

/** The query of a stored trigger: the inline query with the id of the saved query made of it, or a query_id alone. */
export type QueryRef = { query: Record<string, unknown>; query_id: string } | { query_id: string };

/** What the service decides, not the body. */
export interface TriggerFacts {
  id: string;
  dataset_slug: string;
  recipients: StoredRecipient[];
  query: QueryRef;
  disabled: boolean;
  triggered: boolean;
  created_at: string;
  updated_at: string;
}

/**
 * With the rewrite `defaultsFilled`, a description, tags and exceeded_limit left out are stored at their
 * defaults, else they stay out (the other members always take theirs); with `reorderLists`, the tags are
 * stored in the service's order.
 */
export function recordOf(
  body: TriggerWrite,
  facts: TriggerFacts,
  r: Readonly<TriggerRewrites> = DEFAULT_REWRITES,
): TriggerRecord {
  const { op, value } = body.threshold;
  const exceeded_limit = body.threshold.exceeded_limit ?? (r.defaultsFilled ? LIMITS.exceededLimitMin : undefined);
  const description = body.description ?? (r.defaultsFilled ? '' : undefined);
  const given = body.tags ?? (r.defaultsFilled ? [] : undefined);
  const tags = given?.map((t) => ({ key: t.key, value: t.value }));
  return {
    id: facts.id,
    dataset_slug: facts.dataset_slug,
    name: body.name,
    ...(description !== undefined ? { description } : {}),
    ...(tags !== undefined ? { tags: r.reorderLists ? inServiceOrder(tags) : tags } : {}),
    threshold: { op, value, ...(exceeded_limit !== undefined ? { exceeded_limit } : {}) },
    frequency: body.frequency ?? LIMITS.triggerFrequencyDefault,
    alert_type: body.alert_type ?? TRIGGER_ALERT_TYPES[0],
    disabled: facts.disabled,
    triggered: facts.triggered,
    recipients: facts.recipients,
    evaluation_schedule_type: body.evaluation_schedule_type ?? EVALUATION_SCHEDULE_TYPES[0],
    ...(body.evaluation_schedule !== undefined
      ? { evaluation_schedule: { window: windowOf(body.evaluation_schedule.window) } }
      : {}),
    ...(setsBaseline(body.baseline_details)
      ? {
          baseline_details: {
            type: body.baseline_details?.type,
            offset_minutes: body.baseline_details?.offset_minutes,
          },
        }
      : {}),
    ...facts.query,
    created_at: facts.created_at,
    updated_at: facts.updated_at,
  };
}

function windowOf(w: { days_of_week: string[]; start_time: string; end_time: string }): Record<string, unknown> {
  return { days_of_week: [...w.days_of_week], start_time: w.start_time, end_time: w.end_time };
}
