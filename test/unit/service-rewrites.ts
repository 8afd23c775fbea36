// How the service rewrites a trigger between what was written and what it lists, as public trackers
// and the service-facts note describe it, written independently of src/triggerFiles: a fast-check
// arbitrary of valid triggers, and of the rewrites the service may apply to one.
import fc from 'fast-check';

export type Json = Record<string, unknown>;

const word = fc.stringMatching(/^[a-z][a-z0-9_.]{0,11}$/);
const column = fc.constantFrom('duration_ms', 'status_code', 'http.route', 'error', 'service.name');
const filter = fc.record(
  {
    column,
    op: fc.constantFrom('=', '!=', '>', 'exists', 'in'),
    value: fc.oneof(fc.integer({ min: 0, max: 999 }), word, fc.boolean(), fc.array(word, { maxLength: 2 })),
  },
  { requiredKeys: ['column', 'op'] },
);
const calculation = fc.oneof(
  fc.constant({ op: 'COUNT' }),
  fc.record({ op: fc.constantFrom('AVG', 'P99', 'MAX', 'SUM'), column }),
);
const recipient = fc.oneof(
  fc.record({ id: fc.constantFrom('rcp_a', 'rcp_b', 'rcp_c') }),
  fc.record({ type: fc.constant('email'), target: fc.constantFrom('a@example.com', 'b@example.com') }),
  fc.record({
    id: fc.constant('rcp_pd'),
    details: fc.record(
      {
        pagerduty_severity: fc.constantFrom('warning', 'error'),
        variables: fc.array(fc.record({ name: word, value: word }), { minLength: 1, maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
  }),
);

/** A trigger as someone writes it in a file: only members a write may carry, defaults given or not. */
export const writtenTrigger: fc.Arbitrary<Json> = fc
  .record(
    {
      dataset_slug: fc.constantFrom('api', 'metrics', 'all', '__all__'),
      name: fc.string({ minLength: 1, maxLength: 20 }),
      description: fc.string({ minLength: 1, maxLength: 20 }),
      tags: fc.array(
        fc.record({ key: fc.stringMatching(/^[a-z]{1,6}$/), value: fc.stringMatching(/^[a-z][a-z0-9-]{1,8}$/) }),
        { maxLength: 3 },
      ),
      threshold: fc.record(
        {
          op: fc.constantFrom('>', '>=', '<', '<='),
          value: fc.integer({ min: -10, max: 1000 }),
          exceeded_limit: fc.integer({ min: 1, max: 5 }),
        },
        { requiredKeys: ['op', 'value'] },
      ),
      frequency: fc.constantFrom(60, 300, 900, 3600),
      alert_type: fc.constantFrom('on_change', 'on_true'),
      disabled: fc.boolean(),
      recipients: fc.uniqueArray(recipient, { maxLength: 3, selector: (r) => JSON.stringify(r) }),
      evaluation_schedule_type: fc.constantFrom('frequency', 'window'),
      baseline_details: fc.record({
        type: fc.constantFrom('percentage', 'value'),
        offset_minutes: fc.constantFrom(60, 1440),
      }),
      source: fc.oneof(
        fc
          .record(
            {
              calculations: fc.array(calculation, { minLength: 1, maxLength: 2 }),
              filters: fc.array(filter, { maxLength: 2 }),
              filter_combination: fc.constantFrom('AND', 'OR'),
              breakdowns: fc.array(column, { maxLength: 2 }),
              havings: fc.array(
                fc.record({
                  calculate_op: fc.constantFrom('COUNT', 'P99'),
                  op: fc.constantFrom('>', '<'),
                  value: fc.integer({ min: 0, max: 99 }),
                }),
                { maxLength: 2 },
              ),
              calculated_fields: fc.uniqueArray(
                fc.record({ name: word, expression: fc.constantFrom('$a', 'GT($duration_ms, 1)') }),
                { maxLength: 3, selector: (f) => f.name },
              ),
              granularity: fc.constantFrom(60, 120),
              time_range: fc.constantFrom(600, 1800),
            },
            // time_range is required in a file, but the service stores a query without one (see timeRangeFromFrequency).
            { requiredKeys: [] },
          )
          .map((query) => ({ query })),
        fc.constantFrom('q_saved_1', 'q_saved_2').map((query_id) => ({ query_id })),
      ),
    },
    { requiredKeys: ['name', 'threshold', 'source'] },
  )
  .map(({ source, evaluation_schedule_type, ...rest }) => ({
    ...rest,
    ...source,
    ...(evaluation_schedule_type === 'window'
      ? {
          evaluation_schedule_type,
          evaluation_schedule: { window: { days_of_week: ['monday'], start_time: '09:00', end_time: '17:00' } },
        }
      : evaluation_schedule_type !== undefined
        ? { evaluation_schedule_type }
        : {}),
  }));

/** The rewrites the service may make; each is chosen on or off by the generator. */
export interface Rewrites {
  readOnly: boolean;
  addedMembers: boolean;
  queryIdBesideInlineQuery: boolean;
  shuffleRecipients: boolean;
  fillRecipientFromId: boolean;
  defaultPagerSeverity: boolean;
  description: 'as-is' | 'null' | 'empty';
  environmentWideAsAll: boolean;
  implicitCount: boolean;
  fillDefaults: boolean;
  nullsForAbsent: boolean;
  fillGranularity: number | undefined;
  emptyLists: boolean;
  reorderMembers: boolean;
  /** Recipients, tags, the query's filters and havings, calculated fields: in the service's order, not as sent. */
  reorderLists: boolean;
  /** A recipient sent by type and target comes back with the id the service gave it. */
  idForAddress: boolean;
  /** A paging recipient filled in from its id has `target: ""`. */
  blankPagingTarget: boolean;
  /** A trigger written with query_id is answered with the saved query inline beside it. */
  savedQueryInline: boolean;
}

export const rewrites: fc.Arbitrary<Rewrites> = fc.record({
  readOnly: fc.boolean(),
  addedMembers: fc.boolean(),
  queryIdBesideInlineQuery: fc.boolean(),
  shuffleRecipients: fc.boolean(),
  fillRecipientFromId: fc.boolean(),
  defaultPagerSeverity: fc.boolean(),
  description: fc.constantFrom('as-is', 'null', 'empty'),
  environmentWideAsAll: fc.boolean(),
  implicitCount: fc.boolean(),
  fillDefaults: fc.boolean(),
  nullsForAbsent: fc.boolean(),
  fillGranularity: fc.option(fc.constantFrom(30, 60, 300), { nil: undefined }),
  emptyLists: fc.boolean(),
  reorderMembers: fc.boolean(),
  reorderLists: fc.boolean(),
  idForAddress: fc.boolean(),
  blankPagingTarget: fc.boolean(),
  savedQueryInline: fc.boolean(),
});

const RECIPIENTS: Record<string, { type: string; target: string }> = {
  rcp_a: { type: 'email', target: 'a@example.com' },
  rcp_b: { type: 'email', target: 'b@example.com' },
  rcp_c: { type: 'slack', target: '#alerts' },
  rcp_pd: { type: 'pagerduty', target: 'Primary on-call' },
};

/** What a saved query named by a trigger holds. */
const SAVED_QUERIES: Record<string, Json> = {
  q_saved_1: { calculations: [{ op: 'COUNT' }], time_range: 900 },
  q_saved_2: {
    calculations: [{ op: 'P99', column: 'duration_ms' }],
    filters: [{ column: 'error', op: 'exists' }],
    time_range: 1800,
  },
};

const clone = <T>(v: T): T => structuredClone(v);

/** An order of the service's own: the reverse of what was sent, so never the order sent (two or more elements). */
const serviceOrder = (list: unknown): unknown => (Array.isArray(list) ? [...(list as unknown[])].reverse() : list);

function recipientAsStored(rc: Json, r: Rewrites): Json {
  const out = { ...rc };
  const known = typeof out.id === 'string' ? RECIPIENTS[out.id] : undefined;
  if (r.fillRecipientFromId && known !== undefined)
    Object.assign(out, known, r.blankPagingTarget && known.type === 'pagerduty' ? { target: '' } : {});
  if (r.idForAddress && out.id === undefined) out.id = `rcp_for_${String(out.target)}`;
  if (r.defaultPagerSeverity && out.id === 'rcp_pd') {
    const details = { ...((out.details as Json | undefined) ?? {}) };
    details.pagerduty_severity ??= 'critical';
    out.details = details;
  }
  return out;
}

function queryAsStored(t: Json, query: Json, r: Rewrites): void {
  if (r.queryIdBesideInlineQuery && t.query_id === undefined) t.query_id = 'q_made_for_the_trigger';
  const calcs = query.calculations as Json[] | undefined;
  if (r.implicitCount && calcs?.length === 1 && calcs[0]?.op === 'COUNT' && Object.keys(calcs[0]).length === 1)
    delete query.calculations;
  else if (!r.implicitCount && calcs === undefined) query.calculations = [{ op: 'COUNT' }];
  if (r.fillDefaults && query.filter_combination === undefined) query.filter_combination = 'AND';
  if (r.fillGranularity !== undefined && query.granularity === undefined && t.dataset_slug === 'metrics')
    query.granularity = r.fillGranularity;
  if (r.emptyLists) for (const m of ['filters', 'breakdowns', 'havings']) query[m] ??= [];
  if (r.reorderLists) for (const m of ['filters', 'havings', 'calculated_fields']) query[m] = serviceOrder(query[m]);
  // Always: a query written without time_range is stored with the frequency as its time_range.
  if (query.time_range === undefined) query.time_range = t.frequency ?? 900;
}

/** The trigger as the service would list it after `r`. Never changes what the trigger means. */
export function asServiceLists(written: Json, r: Rewrites, id = 'trig_generated'): Json {
  const t: Json = clone(written);
  if (t.id === undefined) t.id = id;
  if (r.readOnly)
    Object.assign(t, { triggered: false, created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-02T00:00:00Z' });
  if (r.addedMembers) t.auto_investigate = false;
  const saved = typeof t.query_id === 'string' ? SAVED_QUERIES[t.query_id] : undefined;
  if (t.query === undefined && r.savedQueryInline && saved !== undefined) t.query = clone(saved);
  const query = t.query as Json | undefined;
  if (query !== undefined) queryAsStored(t, query, r);
  if (Array.isArray(t.recipients)) {
    let recipients = (t.recipients as Json[]).map((rc) => recipientAsStored(rc, r));
    if (r.shuffleRecipients) recipients = recipients.reverse();
    t.recipients = recipients;
  }
  if (r.reorderLists) t.tags = serviceOrder(t.tags);
  if (r.description === 'null' && t.description === undefined) t.description = null;
  if (r.description === 'empty' && t.description === undefined) t.description = '';
  if (t.dataset_slug === '__all__' && r.environmentWideAsAll) t.dataset_slug = 'all';
  if (r.fillDefaults) {
    t.frequency ??= 900;
    t.alert_type ??= 'on_change';
    t.disabled ??= false;
    t.evaluation_schedule_type ??= 'frequency';
    const threshold = t.threshold as Json;
    threshold.exceeded_limit ??= 1;
  }
  if (r.nullsForAbsent) {
    t.evaluation_schedule ??= null;
    t.baseline_details ??= null;
    if (t.query_id === undefined) t.query_id = null;
    if (t.query === undefined) t.query = null;
  }
  if (r.emptyLists) {
    t.tags ??= [];
    t.recipients ??= [];
  }
  return r.reorderMembers ? Object.fromEntries(Object.entries(t).reverse()) : t;
}
