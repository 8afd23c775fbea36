import * as z from 'zod';
import {
  BURN_ALERT_TYPES,
  COLUMN_TYPES,
  DEFINITION_TYPES,
  ENVIRONMENT_WIDE,
  LIMITS,
  type DefinitionType,
} from './spec';

// The sandbox's data. The schemas double as the validator of a `--data` file, so a corrupt or hand-edited file
// is refused with the path of the first bad member instead of failing later inside a request.

const DATASET_KINDS = ['standard', 'metrics'] as const;
const SAVED_QUERY_BEHAVIOURS = ['normal', 'slow', 'fails'] as const;

export const DatasetRecord = z.strictObject({
  slug: z
    .string()
    .min(1)
    .refine((s) => s !== ENVIRONMENT_WIDE && !/[/?#\s]/.test(s), 'not a dataset slug'),
  name: z.string(),
  kind: z.enum(DATASET_KINDS),
  /** Columns made on demand (`gen.col_00001` ...) after the stored ones, so a 2,000-column dataset costs nothing at rest. */
  generated_columns: z.number().int().min(0).default(0),
  /** Names of derived columns a definition may point at (reported with column_type `derived_column`). */
  derived_columns: z.array(z.string()).default([]),
  /** As `GET /1/datasets` lists them (service facts); data files from before these load with the defaults. */
  description: z.string().default(''),
  expand_json_depth: z.number().int().min(0).default(0),
  delete_protected: z.boolean().default(false),
  created_at: z.string(),
  /**
   * The synthetic events its queries read: those the demo makes for the dataset `source`, at `scale` times
   * its traffic. Absent: the dataset's own slug at its usual traffic. Never listed by `GET /1/datasets`.
   */
  events: z.strictObject({ source: z.string().min(1), scale: z.number().positive().max(10) }).optional(),
});
export type DatasetRecord = z.infer<typeof DatasetRecord>;

export const ColumnRecord = z.strictObject({
  id: z.string().min(1),
  key_name: z.string().min(1),
  type: z.enum(COLUMN_TYPES),
  description: z.string(),
  hidden: z.boolean(),
  /**
   * Absent for a column that never received data: the service omits this optional string rather than send
   * null. A data file written before this rule may hold null; it loads as absent.
   */
  last_written: z.preprocess((v) => (v === null ? undefined : v), z.string().optional()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ColumnRecord = z.infer<typeof ColumnRecord>;

const RecipientDetailsRecord = z.looseObject({
  pagerduty_severity: z.string().optional(),
  variables: z.array(z.strictObject({ name: z.string(), value: z.string() })).optional(),
});

/** A recipient as stored on an alert: by id (completed from the recipients list), or by type and target. */
export const StoredRecipient = z.strictObject({
  id: z.string().optional(),
  type: z.string().optional(),
  target: z.string().optional(),
  details: RecipientDetailsRecord.optional(),
});
export type StoredRecipient = z.infer<typeof StoredRecipient>;

/** A trigger is stored exactly as `GET /1/triggers` returns it (spec 2.6); members beyond these are kept. */
export const TriggerRecord = z.looseObject({
  id: z.string().min(1),
  dataset_slug: z.string().min(1),
  name: z.string(),
  description: z.string().optional(),
  tags: z.array(z.strictObject({ key: z.string(), value: z.string() })).optional(),
  threshold: z.looseObject({ op: z.string(), value: z.number(), exceeded_limit: z.number().int().optional() }),
  frequency: z.number().int(),
  alert_type: z.string(),
  disabled: z.boolean(),
  triggered: z.boolean(),
  recipients: z.array(StoredRecipient).optional(),
  evaluation_schedule_type: z.string(),
  evaluation_schedule: z.looseObject({}).optional(),
  baseline_details: z.looseObject({}).optional(),
  query: z.record(z.string(), z.unknown()).optional(),
  query_id: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TriggerRecord = z.infer<typeof TriggerRecord>;

/** `dataset` is a slug, or `__all__` for an environment-wide query. */
export const SavedQueryRecord = z.strictObject({
  id: z.string().min(1),
  dataset: z.string().min(1),
  name: z.string(),
  query: z.record(z.string(), z.unknown()),
  /** `slow`: results complete only after 4 s; `fails`: complete with an `error` instead of data. */
  behaviour: z.enum(SAVED_QUERY_BEHAVIOURS),
});
export type SavedQueryRecord = z.infer<typeof SavedQueryRecord>;

/** The time given to records of a data file written before they carried one. */
const UNDATED = '2024-03-01T10:00:00.000Z';

export const SloRecord = z.strictObject({
  id: z.string().min(1),
  /** A slug, or `__all__` for an environment-wide SLO. */
  dataset: z.string().min(1),
  name: z.string(),
  description: z.string(),
  time_period_days: z.number().int().min(1),
  target_per_million: z.number().int().min(0).max(999_999),
  /** The SLI: the alias of a calculated field. The members below load with defaults from older data files. */
  sli_alias: z.string().min(1).default('sli'),
  tags: z.array(z.strictObject({ key: z.string(), value: z.string() })).default([]),
  reset_at: z.string().nullable().default(null),
  /** The datasets an environment-wide SLO spans (a dataset's own SLO spans that dataset). */
  dataset_slugs: z.array(z.string().min(1)).default([]),
  created_at: z.string().default(UNDATED),
  updated_at: z.string().default(UNDATED),
});
export type SloRecord = z.infer<typeof SloRecord>;

export const BurnAlertRecord = z.strictObject({
  id: z.string().min(1),
  slo_id: z.string().min(1),
  alert_type: z.enum(BURN_ALERT_TYPES),
  exhaustion_minutes: z.number().int().min(0).optional(),
  budget_rate_window_minutes: z.number().int().optional(),
  budget_rate_decrease_threshold_per_million: z.number().int().optional(),
  description: z.string(),
  triggered: z.boolean(),
  recipients: z.array(StoredRecipient),
  /** A member the service sends beyond the spec (service facts); a PUT cannot change it. */
  auto_investigate: z.boolean().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BurnAlertRecord = z.infer<typeof BurnAlertRecord>;

/** The recipients created "through the separate recipients interface": what a recipient id may name. */
export const RecipientRecord = z.strictObject({
  id: z.string().min(1),
  type: z.string().min(1),
  /** What an alert naming it by id shows as its target: an address, a channel or a name, never a credential. */
  target: z.string().min(1),
  details: RecipientDetailsRecord.optional(),
  /**
   * The recipient's `details` as `GET /1/recipients` lists them, by type (service facts): integration keys,
   * webhook URLs, secrets and headers included, as the service sends them.
   */
  settings: z.record(z.string(), z.unknown()).default({}),
  created_at: z.string().default(UNDATED),
  updated_at: z.string().default(UNDATED),
});
export type RecipientRecord = z.infer<typeof RecipientRecord>;

/** No secret: the secret of a created key exists only in the create response. */
export const ApiKeyRecord = z.strictObject({
  id: z.string().min(1),
  key_type: z.string().min(1),
  name: z.string(),
  disabled: z.boolean(),
  /** An ingest key's `create_datasets`, or a configuration key's permissions (service facts). */
  permissions: z.record(z.string(), z.boolean()),
  environment_id: z.string().min(1),
  creator_id: z.string().min(1),
  editor_id: z.string().min(1),
  created: z.string(),
  updated: z.string(),
});
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;

export const StoredColumnRef = z.strictObject({
  name: z.string().min(1),
  column_type: z.enum(['column', 'derived_column']),
});
export type StoredColumnRef = z.infer<typeof StoredColumnRef>;

export const DefinitionMap = z.strictObject(
  Object.fromEntries(DEFINITION_TYPES.map((k) => [k, StoredColumnRef.nullable()])) as Record<
    DefinitionType,
    z.ZodNullable<typeof StoredColumnRef>
  >,
);
export type DefinitionMap = z.infer<typeof DefinitionMap>;

/** A named saved query (`GET /1/query_annotations/<dataset>`); `dataset` is a slug or `__all__`. */
export const QueryAnnotationRecord = z.strictObject({
  id: z.string().min(1),
  dataset: z.string().min(1),
  name: z.string().min(1).max(LIMITS.queryAnnotationNameMax),
  description: z.string().max(LIMITS.queryAnnotationDescriptionMax),
  query_id: z.string().min(1),
  source: z.enum(['query', 'board']),
  created_at: z.string(),
  updated_at: z.string(),
});
export type QueryAnnotationRecord = z.infer<typeof QueryAnnotationRecord>;

export const QueryResultRecord = z.strictObject({
  id: z.string().min(1),
  dataset: z.string().min(1),
  query_id: z.string().min(1),
  disable_series: z.boolean(),
  limit: z.number().int().optional(),
  disable_total_by_aggregate: z.boolean().optional(),
  disable_other_by_aggregate: z.boolean().optional(),
  created_at: z.string(),
  /** When the service finishes the query; absent when it was complete in the create response. */
  ready_at: z.string().optional(),
});
export type QueryResultRecord = z.infer<typeof QueryResultRecord>;

export const SandboxData = z.strictObject({
  team: z.string().min(1),
  environmentId: z.string().min(1),
  /** The user the management key belongs to: creator and editor of keys made through the sandbox. */
  userId: z.string().min(1),
  datasets: z.array(DatasetRecord),
  columns: z.record(z.string(), z.array(ColumnRecord)),
  definitions: z.record(z.string(), DefinitionMap),
  triggers: z.array(TriggerRecord),
  savedQueries: z.array(SavedQueryRecord),
  queryAnnotations: z.array(QueryAnnotationRecord).default([]),
  slos: z.array(SloRecord),
  burnAlerts: z.array(BurnAlertRecord),
  recipients: z.array(RecipientRecord),
  apiKeys: z.array(ApiKeyRecord),
  queryResults: z.array(QueryResultRecord),
  /** Source of server-assigned ids; kept with the data so ids never repeat across restarts. */
  nextId: z.number().int().min(1),
});
export type SandboxData = z.infer<typeof SandboxData>;

export interface ConfigKey {
  name: string;
  key: string;
  /** False for a read-only key: writes answer 403. */
  canWrite: boolean;
}

/** Credentials live only in memory: they are never written to a data file. */
export interface SandboxCredentials {
  configKeys: ConfigKey[];
  managementKey: { id: string; secret: string };
}

export type SandboxState = SandboxData & { credentials: SandboxCredentials };

export function emptyDefinitions(): DefinitionMap {
  return Object.fromEntries(DEFINITION_TYPES.map((k) => [k, null])) as DefinitionMap;
}

/** Deep copy through JSON: the data holds only JSON values. */
function cloneData(data: SandboxData): SandboxData {
  return JSON.parse(JSON.stringify(data)) as SandboxData;
}

/** The data without the credentials, as written to a data file. */
export function dataOf(state: SandboxState): SandboxData {
  const { credentials: _credentials, ...data } = state;
  return data;
}

/** Replaces the data in place so references held by tests (`handle.state`) stay live. */
export function replaceData(state: SandboxState, data: SandboxData): void {
  Object.assign(state, cloneData(data));
}

export function takeId(state: SandboxData, prefix: string): string {
  const n = state.nextId;
  state.nextId = n + 1;
  return `${prefix}${String(n).padStart(6, '0')}`;
}

export function findDataset(state: SandboxData, slug: string): DatasetRecord | undefined {
  return state.datasets.find((d) => d.slug === slug);
}

/** The name of the n-th generated column (1-based). */
function generatedColumnName(n: number): string {
  return `gen.col_${String(n).padStart(5, '0')}`;
}

const GENERATED_TYPES = ['string', 'integer', 'float', 'boolean'] as const;

/** Stored columns followed by the generated ones, all as the service lists them. */
export function columnsOf(state: SandboxData, dataset: DatasetRecord): ColumnRecord[] {
  const stored = state.columns[dataset.slug] ?? [];
  if (dataset.generated_columns === 0) return stored;
  const generated: ColumnRecord[] = [];
  for (let n = 1; n <= dataset.generated_columns; n++) {
    generated.push({
      id: `${dataset.slug}-gen-${n}`,
      key_name: generatedColumnName(n),
      type: GENERATED_TYPES[n % GENERATED_TYPES.length] ?? 'string',
      description: n % 10 === 0 ? `Generated column ${n}` : '',
      hidden: n % 97 === 0,
      last_written: dataset.created_at,
      created_at: dataset.created_at,
      updated_at: dataset.created_at,
    });
  }
  return [...stored, ...generated];
}

export function hasColumn(state: SandboxData, dataset: DatasetRecord, name: string): boolean {
  if ((state.columns[dataset.slug] ?? []).some((c) => c.key_name === name)) return true;
  const m = /^gen\.col_(\d{5})$/.exec(name);
  return m !== null && Number(m[1]) >= 1 && Number(m[1]) <= dataset.generated_columns;
}
