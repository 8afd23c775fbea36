// The members of a burn alert file (docs/SLO-FILES.md), in the order it holds them: what the update writes,
// the alert's id, its dataset and its SLO. The file's writer (src/triggerFiles) and its linter (src/lint) read
// this one list; no zod here, so the writer loads no schema.
export const BURN_ALERT_FILE_MEMBERS = [
  'id',
  'dataset_slug',
  'slo',
  'alert_type',
  'exhaustion_minutes',
  'budget_rate_window_minutes',
  'budget_rate_decrease_threshold_per_million',
  'description',
  'recipients',
] as const;
