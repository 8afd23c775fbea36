// What the sandbox refuses in a request, decided from the spec (parts 2, 4, 7, 8) and the service-facts
// note, not from the client's checks (docs/SANDBOX.md lists where the two differ). Members the spec does
// not list are ignored, as the service ignores a burn alert's read-only members; only the rules the spec
// or the facts state are checked, nothing invented.
import * as z from 'zod';
import { BURN_ALERT_TYPES, DEFINITION_TYPES, LIMITS, SANDBOX_KEY_TYPES, type DefinitionType } from './spec';

const wholeNumber = (name: string) => z.number(`${name} must be a number`).int(`${name} must be a whole number`);

// --- 4.1, 4.2: API keys ------------------------------------------------------------------------------

/** 4.1 body. `disabled` (default false) and `permissions` may be left out (service facts). */
export const ApiKeyCreateBody = z.looseObject({
  data: z.looseObject({
    type: z.literal('api-keys', 'type must be "api-keys"'),
    attributes: z.looseObject({
      key_type: z.enum(SANDBOX_KEY_TYPES, `key_type must be one of ${SANDBOX_KEY_TYPES.join(', ')}`),
      name: z.string('name must be a string'),
      disabled: z.boolean('disabled must be true or false').optional(),
      permissions: z
        .record(z.string(), z.boolean('a permission must be true or false'), 'permissions must be an object')
        .optional(),
    }),
    relationships: z.looseObject({
      environment: z.looseObject({
        data: z.looseObject({
          id: z.string('the environment id must be a string'),
          type: z.literal('environments', 'type must be "environments"'),
        }),
      }),
    }),
  }),
});

/** 4.2 body: a PATCH changes what it gives (spec part 3: "attributes.disabled given"). */
export const ApiKeyUpdateBody = z.looseObject({
  data: z.looseObject({
    id: z.string('id must be a string'),
    type: z.literal('api-keys', 'type must be "api-keys"'),
    attributes: z
      .looseObject({
        name: z.string('name must be a string').optional(),
        disabled: z.boolean('disabled must be true or false').optional(),
      })
      .optional(),
  }),
});

// --- 4.3, 4.4: burn alerts ---------------------------------------------------------------------------

export const BurnAlertListQuery = z.object({ slo_id: z.string().min(1, 'slo_id is required') });

/** A recipient named by id, or (deprecated, spec 9) by type and target. */
export const RecipientBody = z
  .looseObject(
    {
      id: z.string('a recipient id must be a string').optional(),
      type: z.string('a recipient type must be a string').optional(),
      target: z.string('a recipient target must be a string').optional(),
      // The members seen (spec 2.3); others are kept as given.
      details: z
        .looseObject(
          {
            pagerduty_severity: z.string('pagerduty_severity must be a string').optional(),
            variables: z
              .array(
                z.looseObject({
                  name: z.string('a variable name must be a string'),
                  value: z.string('a variable value must be a string'),
                }),
                'variables must be an array',
              )
              .optional(),
          },
          'details must be an object',
        )
        .optional(),
    },
    'a recipient must be an object',
  )
  .superRefine((r, ctx) => {
    if (r.id !== undefined || (r.type !== undefined && r.target !== undefined)) return;
    ctx.addIssue({
      code: 'custom',
      path: [r.type === undefined ? 'type' : 'target'],
      message: 'a recipient needs an id, or a type and a target',
    });
  });
export type RecipientBody = z.infer<typeof RecipientBody>;

/**
 * 4.4 body, rules 7.1-7.4 and part 8; budget_rate bounds from the service facts. Read-only members (id,
 * slo, triggered, created_at, updated_at) and unknown ones are ignored.
 */
export const BurnAlertPutBody = z
  .looseObject({
    alert_type: z.enum(BURN_ALERT_TYPES, `alert_type must be one of ${BURN_ALERT_TYPES.join(', ')}`),
    exhaustion_minutes: wholeNumber('exhaustion_minutes').min(0, 'exhaustion_minutes must be 0 or more').optional(),
    budget_rate_window_minutes: wholeNumber('budget_rate_window_minutes')
      .min(
        LIMITS.budgetRateWindowMinutesMin,
        `budget_rate_window_minutes must be at least ${LIMITS.budgetRateWindowMinutesMin}`,
      )
      .optional(),
    budget_rate_decrease_threshold_per_million: wholeNumber('budget_rate_decrease_threshold_per_million')
      .min(
        LIMITS.budgetRateThresholdMin,
        `budget_rate_decrease_threshold_per_million must be at least ${LIMITS.budgetRateThresholdMin}`,
      )
      .max(
        LIMITS.budgetRateThresholdMax,
        `budget_rate_decrease_threshold_per_million must be at most ${LIMITS.budgetRateThresholdMax}`,
      )
      .optional(),
    description: z
      .string('description must be a string')
      .max(LIMITS.burnAlertDescriptionMax, `description must be at most ${LIMITS.burnAlertDescriptionMax} characters`)
      .optional(),
    recipients: z
      .array(RecipientBody, 'recipients must be an array')
      .min(1, 'recipients must hold at least 1 recipient'),
  })
  .superRefine((body, ctx) => {
    const budget = ['budget_rate_window_minutes', 'budget_rate_decrease_threshold_per_million'] as const;
    if (body.alert_type === 'budget_rate') {
      if (body.exhaustion_minutes !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['exhaustion_minutes'],
          message: 'exhaustion_minutes must not be given for a budget_rate alert',
        });
      }
      for (const f of budget)
        if (body[f] === undefined)
          ctx.addIssue({ code: 'custom', path: [f], message: `${f} is required for a budget_rate alert` });
    } else {
      if (body.exhaustion_minutes === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['exhaustion_minutes'],
          message: 'exhaustion_minutes is required for an exhaustion_time alert',
        });
      }
      for (const f of budget)
        if (body[f] !== undefined)
          ctx.addIssue({ code: 'custom', path: [f], message: `${f} must not be given for an exhaustion_time alert` });
    }
  });
export type BurnAlertPutBody = z.infer<typeof BurnAlertPutBody>;

// --- 4.5: query results ------------------------------------------------------------------------------

/** 4.5 body: `limit` at most 10,000 (rule 7.6); no lower bound is stated, and without disable_series it is ignored. */
export const QueryResultBody = z.looseObject({
  query_id: z.string('query_id must be a string'),
  disable_series: z.boolean('disable_series must be true or false').optional(),
  disable_total_by_aggregate: z.boolean('disable_total_by_aggregate must be true or false').optional(),
  disable_other_by_aggregate: z.boolean('disable_other_by_aggregate must be true or false').optional(),
  limit: wholeNumber('limit')
    .max(LIMITS.queryResultLimitMax, `limit must be at most ${LIMITS.queryResultLimitMax}`)
    .optional(),
});

// --- 4.6: columns ------------------------------------------------------------------------------------

/** A key_name outside the 1 to 255 characters of part 8 names no column that can exist. */
export const ColumnsQuery = z.object({
  key_name: z
    .string()
    .min(1, 'key_name must not be empty')
    .max(LIMITS.columnKeyNameMax, `key_name must be at most ${LIMITS.columnKeyNameMax} characters`)
    .optional(),
});

// --- 4.8: dataset definitions ------------------------------------------------------------------------

/** A column reference in a PATCH: `name` ("" clears); `column_type` is ignored, whatever it holds (service facts). */
const ColumnRefBody = z.looseObject(
  { name: z.string('name must be a string') },
  'a definition must be an object with a name',
);

/**
 * 4.8 body: a map from the definition types of 2.7 to column references. A type outside 2.7 is refused:
 * the spec does not say what the service does with one, and silently dropping it would hide a typo.
 */
export const DefinitionsBody = z.strictObject(
  Object.fromEntries(DEFINITION_TYPES.map((t) => [t, ColumnRefBody.optional()])) as Record<
    DefinitionType,
    z.ZodOptional<typeof ColumnRefBody>
  >,
  'the body must be an object',
);
