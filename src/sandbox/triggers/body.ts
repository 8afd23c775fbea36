// The body of a trigger create or replace (service facts, "Writing triggers"), checked by the rules of
// spec 2.6 and part 8 and the facts' "Triggers": the members a trigger is written with. Read-only
// members (id, dataset_slug, triggered, created_at, updated_at) and members the spec does not list are
// ignored, as the service ignores a burn alert's; a member sent as null counts as left out. What the
// query holds is checked in query.ts, recipient ids against the recipients in recipients.ts. What the facts
// say the service refuses on a trigger write beyond the spec is refused too (a blank name, a baseline under
// 900 s, a recipient's type, severity and webhook variables).
import * as z from 'zod';
import { RecipientBody } from '../requests';
import {
  BASELINE_OFFSET_MINUTES,
  BASELINE_TYPES,
  DAYS_OF_WEEK,
  EVALUATION_SCHEDULE_TYPES,
  LIMITS,
  PAGERDUTY_SEVERITIES,
  TAG_KEY_PATTERN,
  TAG_VALUE_PATTERN,
  THRESHOLD_OPS,
  TRIGGER_ALERT_TYPES,
  TRIGGER_RECIPIENT_TYPES,
  WEBHOOK_VARIABLE_NAME_PATTERN,
} from '../spec';

const characters = (s: string): number => [...s].length;
const wholeNumber = (name: string) => z.number(`${name} must be a number`).int(`${name} must be a whole number`);
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

const Tag = z.looseObject(
  {
    key: z.string('a tag key must be a string').regex(TAG_KEY_PATTERN, 'a tag key is 1 to 32 lowercase letters'),
    value: z
      .string('a tag value must be a string')
      .regex(
        TAG_VALUE_PATTERN,
        'a tag value starts with a lowercase letter, then lowercase letters, digits, / and -, 2 to 129 characters in all',
      ),
  },
  'a tag must be an object',
);

const Threshold = z.looseObject(
  {
    op: z.enum(THRESHOLD_OPS, `threshold op must be one of ${THRESHOLD_OPS.join(' ')}`),
    value: z.number('threshold value must be a number'),
    exceeded_limit: wholeNumber('exceeded_limit')
      .min(LIMITS.exceededLimitMin, `exceeded_limit must be ${LIMITS.exceededLimitMin} to ${LIMITS.exceededLimitMax}`)
      .max(LIMITS.exceededLimitMax, `exceeded_limit must be ${LIMITS.exceededLimitMin} to ${LIMITS.exceededLimitMax}`)
      .optional(),
  },
  'threshold must be an object',
);

const Window = z.looseObject(
  {
    days_of_week: z
      .array(z.enum(DAYS_OF_WEEK, 'a day is a lowercase English day name'), 'days_of_week must be an array')
      .min(1, 'days_of_week must hold 1 to 7 days')
      .max(7, 'days_of_week must hold 1 to 7 days')
      .refine((days) => new Set(days).size === days.length, 'days_of_week names a day twice'),
    start_time: z.string('start_time must be a string').regex(HH_MM, 'start_time must be HH:mm (UTC)'),
    end_time: z.string('end_time must be a string').regex(HH_MM, 'end_time must be HH:mm (UTC)'),
  },
  'window must be an object',
);

const isOneOf = <T extends string>(list: readonly T[], v: unknown): boolean => (list as readonly unknown[]).includes(v);

/** A recipient of a trigger: a recipient as alerts hold them, with what the facts say a trigger write refuses in it. */
const TriggerRecipient = RecipientBody.superRefine((r, ctx) => {
  if (r.type !== undefined && !isOneOf(TRIGGER_RECIPIENT_TYPES, r.type)) {
    ctx.addIssue({
      code: 'custom',
      path: ['type'],
      message: `a recipient type is one of ${TRIGGER_RECIPIENT_TYPES.join(', ')}`,
    });
  }
  const severity = r.details?.pagerduty_severity;
  if (severity !== undefined && !isOneOf(PAGERDUTY_SEVERITIES, severity)) {
    ctx.addIssue({
      code: 'custom',
      path: ['details', 'pagerduty_severity'],
      message: `pagerduty_severity is one of ${PAGERDUTY_SEVERITIES.join(', ')}`,
    });
  }
  r.details?.variables?.forEach((v, i) => {
    if (!WEBHOOK_VARIABLE_NAME_PATTERN.test(v.name)) {
      ctx.addIssue({
        code: 'custom',
        path: ['details', 'variables', i, 'name'],
        message: 'a variable name is a lowercase letter, then letters and digits',
      });
    }
    if (characters(v.value) > LIMITS.webhookVariableValueMax) {
      ctx.addIssue({
        code: 'custom',
        path: ['details', 'variables', i, 'value'],
        message: `a variable value is at most ${LIMITS.webhookVariableValueMax} characters`,
      });
    }
  });
});

/** `{}` clears a baseline (service facts); otherwise both members are given. */
const Baseline = z
  .looseObject(
    {
      type: z.enum(BASELINE_TYPES, `baseline type must be one of ${BASELINE_TYPES.join(', ')}`).optional(),
      offset_minutes: wholeNumber('offset_minutes')
        .refine(
          (m) => (BASELINE_OFFSET_MINUTES as readonly number[]).includes(m),
          `offset_minutes must be one of ${BASELINE_OFFSET_MINUTES.join(', ')}`,
        )
        .optional(),
    },
    'baseline_details must be an object',
  )
  .superRefine((b, ctx) => {
    if (b.type === undefined && b.offset_minutes === undefined) return;
    if (b.type === undefined) ctx.addIssue({ code: 'custom', path: ['type'], message: 'a baseline needs a type' });
    if (b.offset_minutes === undefined)
      ctx.addIssue({ code: 'custom', path: ['offset_minutes'], message: 'a baseline needs offset_minutes' });
  });

/** True for a baseline that sets one (not `{}`, which clears it). */
export const setsBaseline = (b: { type?: string; offset_minutes?: number } | undefined): boolean =>
  b?.type !== undefined;

const TriggerWriteShape = z
  .looseObject(
    {
      name: z
        .string('name must be a string')
        .refine(
          (s) => characters(s) >= 1 && characters(s) <= LIMITS.triggerNameMax,
          `name must be 1 to ${LIMITS.triggerNameMax} characters`,
        )
        .refine((s) => s === '' || s.trim() !== '', 'name cannot be blank'),
      description: z
        .string('description must be a string')
        .refine(
          (s) => characters(s) <= LIMITS.triggerDescriptionMax,
          `description must be at most ${LIMITS.triggerDescriptionMax} characters`,
        )
        .optional(),
      tags: z
        .array(Tag, 'tags must be an array')
        .max(LIMITS.triggerTagsMax, `at most ${LIMITS.triggerTagsMax} tags`)
        .optional(),
      threshold: Threshold,
      frequency: wholeNumber('frequency')
        .refine(
          (n) =>
            n >= LIMITS.triggerFrequencyMin && n <= LIMITS.triggerFrequencyMax && n % LIMITS.triggerFrequencyStep === 0,
          `frequency must be ${LIMITS.triggerFrequencyMin} to ${LIMITS.triggerFrequencyMax} seconds, a multiple of ${LIMITS.triggerFrequencyStep}`,
        )
        .optional(),
      alert_type: z.enum(TRIGGER_ALERT_TYPES, `alert_type must be one of ${TRIGGER_ALERT_TYPES.join(', ')}`).optional(),
      disabled: z.boolean('disabled must be true or false').optional(),
      recipients: z.array(TriggerRecipient, 'recipients must be an array').optional(),
      evaluation_schedule_type: z
        .enum(
          EVALUATION_SCHEDULE_TYPES,
          `evaluation_schedule_type must be one of ${EVALUATION_SCHEDULE_TYPES.join(', ')}`,
        )
        .optional(),
      evaluation_schedule: z.looseObject({ window: Window }, 'evaluation_schedule must be an object').optional(),
      baseline_details: Baseline.optional(),
      query: z.record(z.string(), z.unknown(), 'query must be an object').optional(),
      query_id: z.string('query_id must be a string').min(1, 'query_id must not be empty').optional(),
    },
    'the body must be an object',
  )
  .superRefine((t, ctx) => {
    if (t.query === undefined && t.query_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['query'], message: 'a trigger needs a query or a query_id' });
    }
    if (t.evaluation_schedule_type === 'window' && t.evaluation_schedule === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['evaluation_schedule'],
        message: 'a window schedule needs evaluation_schedule.window',
      });
    }
    if (setsBaseline(t.baseline_details)) {
      const { op, value } = t.threshold;
      const fits = (op === '>=' && value >= 0) || (op === '<=' && value <= 0);
      if (!fits)
        ctx.addIssue({
          code: 'custom',
          path: ['threshold', 'op'],
          message: 'with a baseline, the threshold is >= a value of 0 or more, or <= a value of 0 or less',
        });
      if ((t.frequency ?? LIMITS.triggerFrequencyDefault) < LIMITS.baselineFrequencyMin) {
        ctx.addIssue({
          code: 'custom',
          path: ['frequency'],
          message: `a trigger with a baseline runs every ${LIMITS.baselineFrequencyMin} seconds or less often`,
        });
      }
    }
  });

export type TriggerWrite = z.infer<typeof TriggerWriteShape>;

/** The body without its null members: null counts as left out. */
function withoutNulls(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
}

/** True when the body gives both an inline query and a query_id, which the service refuses with a 400. */
export function givesBothQueries(body: unknown): boolean {
  const b = withoutNulls(body);
  return typeof b === 'object' && b !== null && 'query' in b && 'query_id' in b;
}

export const TriggerWriteBody = z.preprocess(withoutNulls, TriggerWriteShape);
