// The registry of linter rules: stable ids, default severities, one-line summaries. The checks
// themselves live in src/lint/schema/ (zod) for triggers, burnAlertRules.ts and definitionsRules.ts for the
// other files; docs/rules.md has one section per rule.

export type Severity = 'error' | 'warning' | 'info';

export interface RuleInfo {
  readonly id: string;
  readonly severity: Severity;
  readonly summary: string;
  /** Whether diagnostics of this rule may carry a fix (not every one does: a string frequency has none). */
  readonly fixable: boolean;
  /**
   * Whether "fix all" (and so fix-on-save) applies the fix. Off where the fix may delete valid data because
   * the linter lacks context the user has: the user picks such a fix by hand.
   */
  readonly inFixAll: boolean;
}

const rule = <const Id extends string>(
  id: Id,
  severity: Severity,
  summary: string,
  fixable = false,
  inFixAll = fixable,
) => ({ id, severity, summary, fixable, inFixAll }) as const;

export const RULES = [
  rule('json/syntax', 'error', 'The file is valid JSON.'),
  rule('json/root-type', 'error', 'The file holds one trigger object or an array of trigger objects.'),
  rule(
    'json/too-deep',
    'error',
    'Arrays and objects nest at most 512 levels: what lies deeper is not read, and a trigger holding it is not checked.',
  ),
  // Not in fix-all: which of the repeated members the writer meant is a guess.
  rule(
    'json/duplicate-member',
    'warning',
    'An object names each member once: of repeated members only the last counts.',
    true,
    false,
  ),
  rule('file/encoding', 'error', 'The file is UTF-8: bytes that cannot be decoded would reach the service as U+FFFD.'),
  rule(
    'file/too-many-problems',
    'info',
    'Past the first 1,000 problems of a file, one diagnostic counts the rest; it is as severe as the worst of them.',
  ),

  rule('trigger/name', 'error', 'name is required, a string of 1 to 120 characters, not blank.'),
  rule('trigger/description', 'error', 'description is a string of at most 1023 characters.'),
  rule('trigger/dataset-slug', 'error', 'dataset_slug is a non-empty string.'),
  // Only with the service's datasets known (an active connection that lists them). Not in fix-all: the nearest slug is a guess.
  rule(
    'trigger/unknown-dataset',
    'warning',
    'dataset_slug names a dataset the service has (or all, for an environment-wide trigger).',
    true,
    false,
  ),
  rule('trigger/tags', 'error', 'tags is an array of at most 10 objects with string key and value.'),
  rule('trigger/tag-key', 'error', 'A tag key is 1 to 32 lowercase letters.'),
  rule(
    'trigger/tag-value',
    'error',
    'A tag value is a lowercase letter, then 1 to 128 lowercase letters, digits, / and -.',
  ),
  rule('trigger/threshold', 'error', 'threshold is required, an object with op and value.'),
  rule('trigger/threshold-op', 'error', 'threshold.op is one of >, >=, <, <=.'),
  rule('trigger/threshold-value', 'error', 'threshold.value is a number.'),
  rule('trigger/exceeded-limit', 'error', 'threshold.exceeded_limit is a whole number from 1 to 5.'),
  rule(
    'trigger/frequency',
    'error',
    'frequency is a whole number of seconds from 60 to 86400, a multiple of 60.',
    true,
  ),
  rule('trigger/alert-type', 'error', 'alert_type is on_change or on_true.'),
  rule('trigger/disabled', 'error', 'disabled is true or false.'),
  rule('trigger/recipient', 'error', 'A recipient is named by id (or by type and target).'),
  rule(
    'trigger/recipient-type',
    'error',
    'A recipient type is email, slack, pagerduty, webhook, msteams, msteams_workflow or marker.',
  ),
  rule(
    'trigger/pagerduty-severity',
    'error',
    "A recipient's details.pagerduty_severity is critical, error, warning or info.",
  ),
  rule(
    'trigger/webhook-variable',
    'error',
    "A webhook variable's name is a lowercase letter, then letters and digits; its value is at most 256 characters.",
  ),
  // The fix only with the account's recipients known, and one of them with that type and target. Not in fix-all:
  // it rewrites which recipient is named, against a list that may be stale; the user picks it.
  rule(
    'trigger/recipient-deprecated',
    'warning',
    'Naming a recipient by type and target is deprecated: use its id.',
    true,
    false,
  ),
  // Only with the account's recipients known (an active connection in the editor). Not in fix-all: the nearest id is a guess.
  rule('trigger/unknown-recipient', 'warning', 'Every recipient id names a recipient the service lists.', true, false),
  rule('trigger/evaluation-schedule-type', 'error', 'evaluation_schedule_type is frequency or window.'),
  rule('trigger/evaluation-schedule', 'error', 'A window schedule needs evaluation_schedule with a window.'),
  rule(
    'trigger/evaluation-schedule-unused',
    'warning',
    'evaluation_schedule has no effect unless evaluation_schedule_type is window.',
  ),
  rule('trigger/window-days', 'error', 'days_of_week holds 1 to 7 different lowercase day names.'),
  rule('trigger/window-time', 'error', 'start_time and end_time are HH:mm.'),
  rule(
    'trigger/baseline-details',
    'error',
    'baseline_details has type percentage or value and offset_minutes 60, 1440, 10080 or 40320, or is {} (no baseline).',
  ),
  rule(
    'trigger/baseline-threshold',
    'error',
    'With a baseline the threshold is >= with value >= 0, or <= with value <= 0.',
  ),
  rule('trigger/baseline-frequency', 'error', 'With a baseline the frequency is at least 900 seconds.'),
  rule('trigger/query-source', 'error', 'A trigger has exactly one of query and query_id.'),
  rule(
    'trigger/unknown-member',
    'warning',
    'The trigger, and its threshold, tags, recipients, schedule and baseline, hold only known members.',
  ),
  rule(
    'trigger/read-only-member',
    'info',
    'triggered, created_at and updated_at are read-only: the service ignores them on write.',
    true,
  ),
  rule(
    'trigger/id',
    'error',
    'id, when given, is the id of the trigger on the service (a non-empty string): it links the file to that trigger.',
  ),
  rule(
    'trigger/body-size',
    'error',
    'A trigger as a write sends it (its written members as compact JSON) is at most 100,000 bytes.',
  ),

  rule('query/calculations', 'error', 'calculations is required with at least one aggregate calculation.'),
  rule('query/calculation-op-refused', 'error', 'HEATMAP and CONCURRENCY are not allowed in a trigger.'),
  rule('query/calculation-op-unknown', 'error', 'A calculation op is one the service knows.'),
  rule('query/calculation-op-metrics-only', 'error', 'COUNT_DATAPOINTS and HISTOGRAM_COUNT need a metrics dataset.'),
  rule(
    'query/calculation-column',
    'error',
    'COUNT and CONCURRENCY take no column, COUNT_DATAPOINTS an optional one, every other op a column.',
  ),
  rule(
    'query/calculation-needs-formula',
    'error',
    'Without formulas, calculations carry no name and no filters of their own.',
  ),
  rule('query/calculation-name-duplicate', 'error', 'No two calculations have the same name.'),
  rule(
    'query/filters',
    'error',
    'Filters are objects with column, a known op and a value; filter_combination is AND or OR.',
  ),
  rule('query/breakdowns', 'error', 'breakdowns is an array of column names.'),
  rule(
    'query/having',
    'error',
    'A having has calculate_op and its column (or a column naming a calculation or formula), op and a numeric value.',
  ),
  rule('query/havings-max', 'error', 'At most 1 HAVING clause.'),
  rule(
    'query/having-calculation',
    'error',
    'A having corresponds to a calculation with the same op and column, or names a calculation or formula.',
  ),
  rule('query/formula', 'error', 'A formula has a name and an expression.'),
  rule('query/formula-name', 'error', 'No formula is named like a calculation.'),
  rule('query/formulas-max', 'error', 'At most 1 formula.'),
  rule('query/formula-aggregates-max', 'error', 'With a formula, at most 100 aggregates.'),
  rule('query/non-having-aggregates', 'error', 'Without formulas, at most 1 aggregate that no having uses.'),
  rule('query/calculated-fields', 'error', 'A calculated field has a name and an expression.'),
  rule('query/named-aggregate-filters', 'error', 'Named aggregates cannot be combined with global filters.'),
  rule('query/time-range', 'error', 'time_range is required, a whole number of seconds.'),
  rule('query/time-range-min', 'error', 'time_range is at least the frequency.', true),
  rule('query/time-range-max', 'error', 'time_range is at most min(4 x frequency, 86400).', true),
  rule(
    'query/refused-member',
    'error',
    'orders, limit, start_time, end_time and usage_mode are not allowed in a trigger query.',
    true,
  ),
  // Not in fix-all: the dataset may be a metrics dataset nobody told the linter about.
  rule('query/granularity-standard', 'error', 'granularity is not supported on standard datasets.', true, false),
  rule(
    'query/granularity-range',
    'error',
    'On metrics datasets granularity lies within time_range/1000 to time_range.',
  ),
  rule(
    'query/granularity-coarse',
    'info',
    'On metrics datasets granularity above time_range/10 is accepted, but gives fewer than 10 points per evaluation.',
  ),
  rule(
    'query/unknown-member',
    'warning',
    'The query and its calculations, filters, havings and formulas hold only known members.',
  ),
  // Only with the dataset's columns known (an active connection, --columns-from-service). Not in fix-all: the nearest name is a guess.
  rule(
    'query/unknown-column',
    'warning',
    "Every column the query names is a column of the trigger's dataset, or a calculated field of the query.",
    true,
    false,
  ),
  rule(
    'query/hidden-column',
    'info',
    'A column the query names is hidden in the dataset: it still works, but autocomplete and field lists leave it out.',
  ),

  // Burn alert files (docs/SLO-FILES.md): spec 2.2, 4.4 and errors 1 to 4 of part 7; budget_rate bounds from the service facts.
  rule('burn-alert/file', 'error', 'A burn alert file holds one burn alert object.'),
  rule('burn-alert/id', 'error', 'id is the id of the burn alert on the service: a file updates an alert that exists.'),
  rule('burn-alert/dataset-slug', 'error', "dataset_slug is the dataset of the alert's SLO, or __all__."),
  rule('burn-alert/slo', 'error', "slo is an object with the SLO's id (and its name, for people)."),
  rule('burn-alert/alert-type', 'error', 'alert_type is exhaustion_time or budget_rate.'),
  rule(
    'burn-alert/exhaustion-minutes',
    'error',
    'exhaustion_minutes is a whole number, 0 or more, given for exhaustion_time alerts only, and always for them.',
    true,
  ),
  rule(
    'burn-alert/budget-rate-window',
    'error',
    'budget_rate_window_minutes is a whole number, at least 60, given for budget_rate alerts only, and always for them.',
    true,
  ),
  rule(
    'burn-alert/budget-rate-threshold',
    'error',
    'budget_rate_decrease_threshold_per_million is a whole number from 1 to 1000000, given for budget_rate alerts only, and always for them.',
    true,
  ),
  rule('burn-alert/description', 'error', 'description is a string of at most 1023 characters.'),
  rule('burn-alert/recipients', 'error', 'recipients holds at least one recipient.'),
  rule('burn-alert/recipient', 'error', 'A recipient is named by id (or by type and target).'),
  rule(
    'burn-alert/read-only-member',
    'info',
    'triggered, created_at and updated_at are set by the service; the file leaves them out.',
    true,
  ),
  rule('burn-alert/unknown-member', 'warning', 'A burn alert file holds only the members it writes.'),

  // Dataset definitions files (docs/SLO-FILES.md): spec 2.7 and 4.8.
  rule('definitions/file', 'error', 'A definitions file holds one object: dataset_slug and definitions.'),
  rule('definitions/dataset-slug', 'error', 'dataset_slug is the slug of one dataset (not environment-wide).'),
  rule('definitions/unknown-type', 'error', 'Every definition type is one of the types of the service.'),
  rule('definitions/column', 'error', 'A definition is null (unset) or a column: {"name": "..."}.'),
  rule('definitions/clear-with-null', 'info', 'A cleared definition is written null, not with an empty name.', true),
  rule(
    'definitions/column-type',
    'info',
    'column_type is left to the service, which decides it from the column and ignores it in a write.',
    true,
  ),
  // Only with the dataset's columns known (an active connection, --columns-from-service).
  rule('definitions/unknown-column', 'warning', 'A definition names a column the dataset has.'),

  // The environments file (docs/ENVIRONMENTS.md), checked by src/triggerFiles/environmentsLint.ts.
  rule('environments/file', 'error', 'The environments file names its environments and what differs in each.'),
] as const;

export type RuleId = (typeof RULES)[number]['id'];

const byId = new Map<string, RuleInfo>(RULES.map((r) => [r.id, r]));

export function isRuleId(id: unknown): id is RuleId {
  return typeof id === 'string' && byId.has(id);
}

export function ruleInfo(id: RuleId): RuleInfo {
  const info = byId.get(id);
  if (info === undefined) throw new RangeError(`unknown rule ${id}`);
  return info;
}

/** Anchor of the rule's section in docs/rules.md: `query/time-range-max` -> `query-time-range-max`. */
export function ruleDocsAnchor(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** Path of the rules documentation inside the repository. */
export const RULES_DOC_PATH = 'docs/rules.md';
