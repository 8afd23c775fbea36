import * as z from 'zod';
import { DateTime, Recipient, RecipientWrite } from './common';

// Spec 2.2, 4.3, 4.4, rules 7.1-7.4 and part 8; budget_rate bounds from the service-facts note.

export const BURN_ALERT_TYPES = ['exhaustion_time', 'budget_rate'] as const;
export type BurnAlertType = (typeof BURN_ALERT_TYPES)[number];

export const BURN_ALERT_LIMITS = {
  descriptionMax: 1023,
  exhaustionMinutesMin: 0,
  recipientsMin: 1,
  budgetRateWindowMinutesMin: 60,
  budgetRateThresholdMin: 1,
  budgetRateThresholdMax: 1_000_000,
} as const;

/** A burn alert as the service sends it (read tolerantly: unknown members kept, null read as absent). */
export const BurnAlert = z.looseObject({
  id: z.string().min(1),
  alert_type: z.enum(BURN_ALERT_TYPES).default('exhaustion_time'),
  exhaustion_minutes: z.number().int().optional(),
  budget_rate_window_minutes: z.number().int().optional(),
  budget_rate_decrease_threshold_per_million: z.number().int().optional(),
  description: z.string().optional(),
  triggered: z.boolean().optional(),
  created_at: DateTime.optional(),
  updated_at: DateTime.optional(),
  slo: z.looseObject({ id: z.string() }).optional(),
  recipients: z.array(Recipient).optional(),
});
export type BurnAlert = z.infer<typeof BurnAlert>;

export const BurnAlertList = z.array(BurnAlert);

const Description = z
  .string()
  .max(BURN_ALERT_LIMITS.descriptionMax, `description must be at most ${BURN_ALERT_LIMITS.descriptionMax} characters`);

/** 4.4 request body, with the rules of 2.2 and 7.1-7.4 as refinements. */
export const UpdateBurnAlertRequest = z
  .strictObject({
    alert_type: z.enum(BURN_ALERT_TYPES),
    exhaustion_minutes: z
      .number()
      .int('exhaustion_minutes must be a whole number')
      .min(BURN_ALERT_LIMITS.exhaustionMinutesMin, 'exhaustion_minutes must be 0 or more')
      .optional(),
    budget_rate_window_minutes: z
      .number()
      .int('budget_rate_window_minutes must be a whole number')
      .min(BURN_ALERT_LIMITS.budgetRateWindowMinutesMin, 'budget_rate_window_minutes must be at least 60')
      .optional(),
    budget_rate_decrease_threshold_per_million: z
      .number()
      .int('budget_rate_decrease_threshold_per_million must be a whole number')
      .min(BURN_ALERT_LIMITS.budgetRateThresholdMin, 'budget_rate_decrease_threshold_per_million must be at least 1')
      .max(
        BURN_ALERT_LIMITS.budgetRateThresholdMax,
        'budget_rate_decrease_threshold_per_million must be at most 1000000',
      )
      .optional(),
    recipients: z
      .array(RecipientWrite)
      .min(BURN_ALERT_LIMITS.recipientsMin, 'recipients must hold at least 1 recipient'),
    description: Description.optional(),
  })
  .superRefine((body, ctx) => {
    // `params.rule` names the rule, so a form can say it in its own words.
    const required = { rule: 'required' };
    const notAllowed = { rule: 'not-allowed' };
    if (body.alert_type === 'budget_rate') {
      if (body.exhaustion_minutes !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['exhaustion_minutes'],
          params: notAllowed,
          message: 'exhaustion_minutes must not be given when alert_type is budget_rate',
        });
      }
      for (const field of ['budget_rate_window_minutes', 'budget_rate_decrease_threshold_per_million'] as const) {
        if (body[field] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            params: required,
            message: `${field} is required when alert_type is budget_rate`,
          });
        }
      }
    } else {
      if (body.exhaustion_minutes === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['exhaustion_minutes'],
          params: required,
          message: 'exhaustion_minutes is required when alert_type is exhaustion_time',
        });
      }
      for (const field of ['budget_rate_window_minutes', 'budget_rate_decrease_threshold_per_million'] as const) {
        if (body[field] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            params: notAllowed,
            message: `${field} must not be given when alert_type is exhaustion_time`,
          });
        }
      }
    }
  });
export type UpdateBurnAlertRequest = z.infer<typeof UpdateBurnAlertRequest>;

/** Members the service sets and ignores in a PUT body (spec 2.2, service facts): stripped before sending. */
export const BURN_ALERT_READ_ONLY_MEMBERS = ['id', 'slo', 'triggered', 'created_at', 'updated_at'] as const;
/** A PUT body may carry the read-only members of an alert as read; they are never sent. */
export type BurnAlertReadOnlyMembers = Partial<Record<(typeof BURN_ALERT_READ_ONLY_MEMBERS)[number], unknown>>;

/** The body without the read-only members (a value that is not an object is left to the schema to refuse). */
export function withoutReadOnlyMembers(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...body };
  for (const member of BURN_ALERT_READ_ONLY_MEMBERS) delete out[member];
  return out;
}

/** 4.3 query parameters: `slo_id` is required (the sandbox answers 422 without it). */
export const ListBurnAlertsQuery = z.object({ slo_id: z.string().min(1, 'slo_id is required') });
export type ListBurnAlertsQuery = z.infer<typeof ListBurnAlertsQuery>;
