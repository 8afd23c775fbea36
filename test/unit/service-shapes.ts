// What the service sends, per call, written from the spec (parts 2, 4, 7, 8) and the service-facts note,
// independently of the client (src/api) and of the sandbox (src/sandbox). The fixture corpus in
// test/fixtures/service/ must match these shapes (they describe the service's own bodies), and so must
// every answer of the sandox (it may only answer what the service could). Unknown members are allowed
// everywhere; `null` only where the service sends it; limits of part 8 where the service holds data.
import * as z from 'zod';

const chars = (s: string) => [...s].length;
const text = (max: number) => z.string().refine((s) => chars(s) <= max, `at most ${max} characters`);
const dateTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO 8601 date-time');

// --- Version 2: API keys (spec 2.1, 4.1, 4.2; service facts) -------------------------------------------

/** A relationship to a user; a key made by a system actor has none (service facts). */
const userRelationship = z
  .looseObject({ data: z.looseObject({ id: z.string(), type: z.literal('users') }).nullable() })
  .nullable();

const keyAttributes = {
  key_type: z.string().min(1),
  name: z.string(),
  disabled: z.boolean(),
  // ingest keys: create_datasets; configuration keys: other permissions (service facts).
  permissions: z.record(z.string(), z.boolean()),
  timestamps: z.looseObject({ created: dateTime, updated: dateTime }),
};

export const CreatedKeyShape = z.looseObject({
  data: z.looseObject({
    id: z.string().min(1),
    type: z.literal('api-keys'),
    attributes: z.looseObject({ ...keyAttributes, secret: z.string().min(1) }),
    relationships: z.looseObject({
      environment: z.looseObject({ data: z.looseObject({ id: z.string(), type: z.literal('environments') }) }),
      creator: userRelationship,
      editor: userRelationship,
    }),
    links: z.looseObject({ self: z.string().startsWith('/2/teams/') }),
  }),
});

/** 4.2: no secret, no relationships. */
export const UpdatedKeyShape = z.looseObject({
  data: z
    .looseObject({
      id: z.string().min(1),
      type: z.literal('api-keys'),
      attributes: z.looseObject(keyAttributes).refine((a) => !('secret' in a), 'no secret in an update response'),
      links: z.looseObject({ self: z.string().startsWith('/2/teams/') }),
    })
    .refine((d) => !('relationships' in d), 'no relationships in an update response'),
});

// --- Recipients (spec 2.3) -----------------------------------------------------------------------------

const recipient = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  target: z.string().optional(),
  details: z
    .looseObject({
      pagerduty_severity: z.string().optional(),
      variables: z.array(z.looseObject({ name: z.string(), value: z.string() })).optional(),
    })
    .optional(),
});

// --- Burn alerts (spec 2.2, 4.3, 4.4; service facts) ----------------------------------------------------

const burnAlertBase = z
  .looseObject({
    id: z.string().min(1),
    alert_type: z.enum(['exhaustion_time', 'budget_rate']),
    exhaustion_minutes: z.number().int().min(0).optional(),
    budget_rate_window_minutes: z.number().int().min(60).optional(),
    budget_rate_decrease_threshold_per_million: z.number().int().min(1).max(1_000_000).optional(),
    description: text(1023).optional(),
    triggered: z.boolean(),
    slo: z.looseObject({ id: z.string() }),
    created_at: dateTime,
    updated_at: dateTime,
    recipients: z.array(recipient).min(1).optional(),
  })
  .superRefine((a, ctx) => {
    // The list carries only the type's own fields (spec 2.2).
    const budget =
      a.budget_rate_window_minutes !== undefined || a.budget_rate_decrease_threshold_per_million !== undefined;
    if (a.alert_type === 'exhaustion_time' && budget)
      ctx.addIssue({ code: 'custom', message: 'an exhaustion_time alert carries no budget_rate fields' });
    if (a.alert_type === 'budget_rate' && a.exhaustion_minutes !== undefined)
      ctx.addIssue({ code: 'custom', message: 'a budget_rate alert carries no exhaustion_minutes' });
  });

export const BurnAlertListShape = z.array(burnAlertBase);
/** GET of one alert and the PUT response carry the recipients (spec 4.4; service facts). */
export const BurnAlertShape = burnAlertBase.refine((a) => a.recipients !== undefined, 'recipients are included');

// --- Query results (spec 2.4, 4.5; service facts) --------------------------------------------------------

export const QueryResultShape = z.looseObject({
  id: z.string().min(1),
  complete: z.boolean(),
  query: z.looseObject({}),
  links: z.looseObject({ query_url: z.string().url(), graph_image_url: z.string().url() }),
  data: z
    .looseObject({
      series: z
        .array(
          z.looseObject({ time: dateTime, data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])) }),
        )
        .optional(),
      results: z
        .array(z.looseObject({ data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])) }))
        .optional(),
    })
    .optional(),
  // A failed query: complete with an error instead of data (service facts).
  error: z.unknown().optional(),
});

// --- Columns (spec 2.5, 4.6) ----------------------------------------------------------------------------

export const ColumnShape = z.looseObject({
  id: z.string(),
  key_name: z
    .string()
    .min(1)
    .refine((s) => chars(s) <= 255, 'at most 255 characters'),
  type: z.enum(['string', 'float', 'integer', 'boolean', 'histogram']),
  description: text(255).optional(),
  hidden: z.boolean(),
  // An optional string: a column never written has none (never null).
  last_written: dateTime.optional(),
  created_at: dateTime,
  updated_at: dateTime,
});
export const ColumnListShape = z.array(ColumnShape);

// --- Triggers (spec 2.6, 2.6.1, part 8; service facts) --------------------------------------------------

const triggerShape = z
  .looseObject({
    id: z.string().min(1),
    dataset_slug: z.string().min(1),
    name: z
      .string()
      .min(1)
      .refine((s) => chars(s) <= 120, 'at most 120 characters'),
    description: text(1023).optional(),
    tags: z
      .array(
        z.strictObject({ key: z.string().regex(/^[a-z]{1,32}$/), value: z.string().regex(/^[a-z][a-z0-9/-]{1,128}$/) }),
      )
      .max(10)
      .optional(),
    threshold: z.looseObject({
      op: z.enum(['>', '>=', '<', '<=']),
      value: z.number(),
      exceeded_limit: z.number().int().min(1).max(5).optional(),
    }),
    frequency: z.number().int().min(60).max(86_400).multipleOf(60),
    alert_type: z.enum(['on_change', 'on_true']),
    disabled: z.boolean(),
    triggered: z.boolean(),
    recipients: z.array(recipient).optional(),
    evaluation_schedule_type: z.enum(['frequency', 'window']),
    evaluation_schedule: z
      .looseObject({
        window: z.looseObject({
          days_of_week: z
            .array(z.enum(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']))
            .min(1)
            .max(7),
          start_time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
          end_time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
        }),
      })
      .nullable()
      .optional(),
    baseline_details: z
      .looseObject({ type: z.enum(['percentage', 'value']), offset_minutes: z.number().int() })
      .nullable()
      .optional(),
    query: z.looseObject({}).nullable().optional(),
    query_id: z.string().nullable().optional(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .refine(
    (t) => (t.query ?? undefined) !== undefined || (t.query_id ?? undefined) !== undefined,
    'a trigger has an inline query or a query_id',
  );
export const TriggerListShape = z.array(triggerShape);

// --- Dataset definitions (spec 2.7, 4.8) ----------------------------------------------------------------

const DEFINITION_TYPES = [
  'span_id',
  'trace_id',
  'parent_id',
  'name',
  'service_name',
  'duration_ms',
  'span_kind',
  'annotation_type',
  'link_trace_id',
  'link_span_id',
  'error',
  'status',
  'route',
  'user',
  'log_severity',
  'log_message',
] as const;
const columnRef = z.looseObject({ name: z.string().min(1), column_type: z.string() }).nullable();
/** Every type a column reference or null; the service may leave types out (service facts: then unset). */
export const DefinitionsShape = z.looseObject(
  Object.fromEntries(DEFINITION_TYPES.map((t) => [t, columnRef.optional()])),
);
export const DEFINITION_TYPE_COUNT = DEFINITION_TYPES.length;

// --- Error bodies (service facts: three shapes, told apart by Content-Type) -------------------------------

export const LegacyErrorShape = z.strictObject({ error: z.string().min(1) });
export const ProblemShape = z.looseObject({
  status: z.number().int().min(400).max(599),
  type: z.string().includes('/problems/'),
  title: z.string().min(1),
  error: z.string().optional(),
  detail: z.string(),
  type_detail: z
    .array(
      z.strictObject({
        field: z.string().min(1),
        code: z.enum(['invalid', 'missing', 'incorrect_type', 'already_exists']),
        description: z.string().min(1),
      }),
    )
    .optional(),
});
export const JsonApiErrorShape = z.looseObject({
  errors: z
    .array(
      z.looseObject({
        id: z.string(),
        status: z.string().regex(/^[45]\d\d$/),
        code: z.string().min(1),
        title: z.string().min(1),
        detail: z.string().optional(),
        source: z
          .union([
            z.strictObject({ pointer: z.string().startsWith('/') }),
            z.strictObject({ header: z.string() }),
            z.strictObject({ parameter: z.string() }),
          ])
          .optional(),
      }),
    )
    .min(1),
});

/** The error shape for a Content-Type (its media type). */
export function errorShapeFor(contentType: string): z.ZodType | undefined {
  const media = contentType.split(';')[0]?.trim().toLowerCase();
  if (media === 'application/json') return LegacyErrorShape;
  if (media === 'application/problem+json') return ProblemShape;
  if (media === 'application/vnd.api+json') return JsonApiErrorShape;
  return undefined;
}

export const CALLS = [
  'createApiKey',
  'updateApiKey',
  'listBurnAlerts',
  'getBurnAlert',
  'updateBurnAlert',
  'createQueryResult',
  'listColumns',
  'getColumn',
  'listTriggers',
  'updateDatasetDefinitions',
] as const;
export type CallName = (typeof CALLS)[number];

/** The shape of a successful answer of each call. */
export const SUCCESS_SHAPES: Record<CallName, z.ZodType> = {
  createApiKey: CreatedKeyShape,
  updateApiKey: UpdatedKeyShape,
  listBurnAlerts: BurnAlertListShape,
  getBurnAlert: BurnAlertShape,
  updateBurnAlert: BurnAlertShape,
  createQueryResult: QueryResultShape,
  listColumns: ColumnListShape,
  getColumn: ColumnShape,
  listTriggers: TriggerListShape,
  updateDatasetDefinitions: DefinitionsShape,
};
