import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG, type ColumnType } from './spec';
import {
  emptyDefinitions,
  type ColumnRecord,
  type DatasetRecord,
  type DefinitionMap,
  type SandboxCredentials,
  type SandboxData,
  type QueryAnnotationRecord,
  type RecipientRecord,
  type SavedQueryRecord,
  type SloRecord,
  type TriggerRecord,
} from './state';

// Deterministic demo data (no randomness, fixed timestamps) that exercises every surface of the extension:
// every column type, every trigger state, both burn alert types, all recipient forms, and hostile strings.
// The hostile strings live in a dataset of their own (DEMO.datasets.hostile, sorted last), so the demo's
// first views and pictures show an ordinary account; tests find them there.

const T0 = '2024-03-01T10:00:00.000Z';
const T1 = '2024-03-15T08:30:00.000Z';
const T2 = '2024-04-02T16:45:00.000Z';

/**
 * Credentials of the sandbox. Public, fixed and useless anywhere else, so a restart with `--data` keeps working
 * with what a client already stored. They are never written to the data file.
 */
export const SANDBOX_CREDENTIALS = {
  configKey: 'sandbox-config-key-writer-0001',
  readOnlyConfigKey: 'sandbox-config-key-reader-0002',
  managementKeyId: 'hcamk_sandbox0001',
  managementKeySecret: 'sandbox-management-secret-0001',
} as const;

export function defaultCredentials(): SandboxCredentials {
  return {
    configKeys: [
      { name: 'Sandbox configuration key', key: SANDBOX_CREDENTIALS.configKey, canWrite: true },
      { name: 'Sandbox read-only key', key: SANDBOX_CREDENTIALS.readOnlyConfigKey, canWrite: false },
    ],
    managementKey: { id: SANDBOX_CREDENTIALS.managementKeyId, secret: SANDBOX_CREDENTIALS.managementKeySecret },
  };
}

/** Strings that must be shown as text, never interpreted (webviews, hovers, markdown, tree labels). */
export const HOSTILE = {
  img: '<img src=x onerror=alert(1)>',
  script: '<script>alert(1)</script>',
  markdownLink: '[click](https://evil.example)',
  commandUri: 'command:workbench.action.quit',
  markdownCommand: '[run](command:workbench.action.quit)',
  rtlOverride: '\u202E',
  bold: '<b>bold</b>',
} as const;

const LONG_SENTENCE = 'This description is as long as the service allows, 1023 characters, to test truncation. ';
/** The longest description the service holds (1023 characters, spec part 8), on the legacy trigger. */
export const LONG_DESCRIPTION = LONG_SENTENCE.repeat(Math.ceil(1023 / LONG_SENTENCE.length)).slice(0, 1023);

/** Ids and names of the demo data that tests and docs refer to. */
export const DEMO = {
  team: 'sandbox-team',
  environmentId: 'env_sandbox01',
  userId: 'user_sandbox01',
  datasets: {
    gateway: 'api-gateway',
    checkout: 'checkout-service',
    metrics: 'metrics-hosts',
    wide: 'bench-wide',
    /** Never received data: no columns, `last_written_at` and `regular_columns_count` null. */
    empty: 'empty-dataset',
    /** Every hostile string (markup, links, commands, a right-to-left override) in names and descriptions; sorted last. */
    hostile: 'zz-hostile-strings',
  },
  wideColumnCount: 2000,
  triggers: {
    gwErrors: 'trig_gw_errors',
    gwLatencyDisabled: 'trig_gw_latency',
    gwOnTrue: 'trig_gw_5xx_on_true',
    gwWindow: 'trig_gw_window',
    gwBaseline: 'trig_gw_baseline',
    gwSavedQuery: 'trig_gw_saved_query',
    gwLegacy: 'trig_gw_legacy',
    coFormula: 'trig_co_formula',
    coTenTags: 'trig_co_ten_tags',
    mhCpu: 'trig_mh_cpu',
    mhHistogram: 'trig_mh_histogram',
    envVolume: 'trig_env_volume',
    envSavedQuery: 'trig_env_saved_query',
    /** Named <img src=x onerror=alert(1)>, with markup, links and commands in its description. */
    hsMarkup: 'trig_hs_markup',
    /** Its name holds a right-to-left override. */
    hsRtl: 'trig_hs_rtl',
  },
  savedQueries: {
    gw5xx: 'q_gw_5xx',
    gwTopRoutes: 'q_gw_top_routes',
    gwSlow: 'q_gw_slow',
    gwFailing: 'q_gw_failing',
    coPayments: 'q_co_payments',
    mhCpu: 'q_mh_cpu',
    envCount: 'q_env_count',
    hsCount: 'q_hs_count',
  },
  slos: {
    gwAvailability: 'slo_gw_availability',
    coLatency: 'slo_co_latency',
    mhHeadroom: 'slo_mh_headroom',
    envUptime: 'slo_env_uptime',
    hsHostile: 'slo_hs_hostile',
  },
  burnAlerts: {
    gwExhaustion: 'ba_gw_exhaustion',
    gwBudgetRate: 'ba_gw_budget_rate',
    coExhaustion: 'ba_co_exhaustion',
    coBudgetRate: 'ba_co_budget_rate',
    envExhaustion: 'ba_env_exhaustion',
    envBudgetRate: 'ba_env_budget_rate',
    /** Markup, a markdown link and a command link in its description. */
    hsBudgetRate: 'ba_hs_budget_rate',
    /** A right-to-left override in its description. */
    hsExhaustion: 'ba_hs_exhaustion',
  },
  recipients: {
    emailOncall: 'rcp_email_oncall',
    pagerdutyPrimary: 'rcp_pd_primary',
    emailTeam: 'rcp_email_team',
    slackIncidents: 'rcp_slack_incidents',
    webhookOps: 'rcp_webhook_ops',
    msteamsLegacy: 'rcp_msteams_legacy',
    msteamsWorkflow: 'rcp_msteams_workflow',
  },
  /** Named saved queries (query annotations); two name the same saved query. */
  queryAnnotations: {
    gw5xx: 'qa_gw_5xx',
    gw5xxBoard: 'qa_gw_5xx_board',
    gwTopRoutes: 'qa_gw_top_routes',
    coPayments: 'qa_co_payments',
    envCount: 'qa_env_count',
    hsBoard: 'qa_hs_board',
  },
  apiKeys: {
    ingest: 'hcxik_demo000001',
    disabled: 'hcxik_demo000002',
  },
  /** Columns the demo tests name: of api-gateway, and (hostile, rtl) of the hostile strings' dataset. */
  columns: {
    hidden: 'internal.debug_token',
    hostile: HOSTILE.img,
    rtl: `user${HOSTILE.rtlOverride}gnp.exe`,
    neverWritten: 'legacy.unused',
    histogram: 'http.server.duration',
  },
  derivedColumns: ['dc.is_slow', 'dc.route_group'],
} as const;

/**
 * The credentials the demo recipients carry (integration key, webhook URLs, secret, header value): the
 * recipients list sends them as the service does, so a test can prove that nothing the extension shows,
 * logs or writes ever holds one.
 */
export const RECIPIENT_SECRETS = {
  pagerdutyKey: 'pd-integration-key-3f9a0c7e51b24d68',
  webhookUrl: 'https://hooks.example/ops/T0SECRET/B0SECRET/9f8e7d6c5b4a',
  webhookSecret: 'webhook-signing-secret-7c1d9e3a5b',
  webhookHeader: 'Bearer webhook-header-token-2b8f4e6a0c',
  msteamsUrl: 'https://teams.example/webhookb2/legacy-SECRET-5a7c9e1b3d',
  msteamsWorkflowUrl: 'https://workflows.example/triggers/manual/paths/invoke?sig=SECRET-4e6a8c0b2d',
} as const;

type ColumnSpec = [
  key: string,
  type: ColumnType,
  extra?: { description?: string; hidden?: boolean; neverWritten?: boolean },
];

function columns(prefix: string, specs: ColumnSpec[]): ColumnRecord[] {
  return specs.map(([key, type, extra], i) => ({
    id: `col_${prefix}_${String(i + 1).padStart(3, '0')}`,
    key_name: key,
    type,
    description: extra?.description ?? '',
    hidden: extra?.hidden ?? false,
    ...(extra?.neverWritten === true ? {} : { last_written: T2 }),
    created_at: T0,
    updated_at: T1,
  }));
}

const GATEWAY_COLUMNS: ColumnSpec[] = [
  ['trace.trace_id', 'string'],
  ['trace.span_id', 'string'],
  ['trace.parent_id', 'string'],
  ['name', 'string', { description: 'Span name' }],
  ['service.name', 'string'],
  ['duration_ms', 'float', { description: 'Span duration in milliseconds' }],
  ['span.kind', 'string'],
  ['meta.annotation_type', 'string'],
  ['status_code', 'integer'],
  ['error', 'boolean'],
  ['http.route', 'string'],
  ['http.method', 'string'],
  ['user.id', 'string'],
  ['request.body_bytes', 'integer'],
  ['retry.ratio', 'float'],
  ['sample_rate', 'integer', { hidden: true }],
  [DEMO.columns.hidden, 'string', { hidden: true, description: 'Hidden: excluded from autocomplete' }],
  ['notes', 'string', { description: 'Free-text notes of the request' }],
  [DEMO.columns.neverWritten, 'string', { neverWritten: true, description: 'Never received data' }],
];

/** The hostile strings' dataset: column names and descriptions that must show as text. */
const HOSTILE_COLUMNS: ColumnSpec[] = [
  ['duration_ms', 'float'],
  ['error', 'boolean'],
  [DEMO.columns.hostile, 'string', { description: HOSTILE.script }],
  [DEMO.columns.rtl, 'string', { description: `Right-to-left override: ${HOSTILE.rtlOverride}txt.exe` }],
  ['notes', 'string', { description: `${HOSTILE.markdownLink} ${HOSTILE.markdownCommand} ${HOSTILE.commandUri}` }],
];

const CHECKOUT_COLUMNS: ColumnSpec[] = [
  ['payment.status', 'string'],
  ['payment.amount', 'float'],
  ['cart.items', 'integer'],
  ['customer.vip', 'boolean'],
  ['duration_ms', 'float'],
  ['error', 'boolean'],
  ['internal.card_hash', 'string', { hidden: true }],
];

const METRICS_COLUMNS: ColumnSpec[] = [
  ['host.name', 'string'],
  ['system.cpu.utilization', 'float'],
  ['system.memory.usage', 'integer'],
  [DEMO.columns.histogram, 'histogram', { description: 'Request duration histogram (beta)' }],
  ['disk.full', 'boolean'],
  ['k8s.pod.uid', 'string', { hidden: true }],
];

function dataset(
  slug: string,
  name: string,
  kind: DatasetRecord['kind'],
  extra: Partial<DatasetRecord> = {},
): DatasetRecord {
  return {
    slug,
    name,
    kind,
    generated_columns: 0,
    derived_columns: [],
    description: '',
    expand_json_depth: 0,
    delete_protected: false,
    created_at: T0,
    ...extra,
  };
}

const EMAIL_ONCALL = { id: DEMO.recipients.emailOncall, type: 'email', target: 'oncall@example.com' };
const PAGERDUTY_PRIMARY = {
  id: DEMO.recipients.pagerdutyPrimary,
  type: 'pagerduty',
  target: 'Primary on-call',
  details: {
    pagerduty_severity: 'critical',
    variables: [
      { name: 'runbook', value: 'https://runbooks.example/gateway' },
      { name: 'team', value: 'edge' },
    ],
  },
};

type TriggerSeed = Pick<TriggerRecord, 'id' | 'dataset_slug' | 'name' | 'threshold' | 'frequency'> &
  Partial<TriggerRecord>;

/** A demo trigger as the service lists it: what a write leaves out holds its default. */
function trigger(t: TriggerSeed): TriggerRecord {
  const { id, dataset_slug, name, ...rest } = t;
  return {
    // First, so that a listing shows them first.
    id,
    dataset_slug,
    name,
    description: '',
    tags: [],
    alert_type: 'on_change',
    disabled: false,
    triggered: false,
    evaluation_schedule_type: 'frequency',
    ...rest,
    created_at: T0,
    updated_at: T1,
  };
}

function triggers(): TriggerRecord[] {
  const gw = DEMO.datasets.gateway;
  return [
    trigger({
      id: DEMO.triggers.gwErrors,
      dataset_slug: gw,
      name: 'High error rate',
      description: 'More than 5 failed requests in 20 minutes.',
      tags: [
        { key: 'team', value: 'edge' },
        { key: 'severity', value: 'high' },
      ],
      threshold: { op: '>', value: 5, exceeded_limit: 1 },
      frequency: 300,
      triggered: true,
      recipients: [EMAIL_ONCALL],
      query: {
        calculations: [{ op: 'COUNT' }],
        filters: [{ column: 'error', op: '=', value: true }],
        time_range: 1200,
      },
    }),
    trigger({
      id: DEMO.triggers.gwLatencyDisabled,
      dataset_slug: gw,
      name: 'Slow routes (disabled)',
      description: 'Routes with a p99 above one second; the having-only P99 does not count toward the one aggregate.',
      tags: [],
      threshold: { op: '>', value: 100, exceeded_limit: 2 },
      frequency: 900,
      disabled: true,
      recipients: [EMAIL_ONCALL],
      query: {
        calculations: [{ op: 'COUNT' }, { op: 'P99', column: 'duration_ms' }],
        breakdowns: ['http.route'],
        havings: [{ calculate_op: 'P99', column: 'duration_ms', op: '>', value: 1000 }],
        time_range: 3600,
      },
    }),
    trigger({
      id: DEMO.triggers.gwOnTrue,
      dataset_slug: gw,
      name: 'Server errors (every interval)',
      description: 'Notifies at every evaluation while 5xx responses continue.',
      threshold: { op: '>=', value: 10, exceeded_limit: 1 },
      frequency: 300,
      alert_type: 'on_true',
      triggered: true,
      recipients: [PAGERDUTY_PRIMARY],
      query: {
        calculations: [{ op: 'COUNT' }],
        filters: [{ column: 'status_code', op: '>=', value: 500 }],
        time_range: 600,
      },
    }),
    trigger({
      id: DEMO.triggers.gwWindow,
      dataset_slug: gw,
      name: 'Office-hours latency',
      description: 'Average latency, evaluated on weekdays between 09:00 and 17:00 UTC.',
      threshold: { op: '>', value: 250, exceeded_limit: 1 },
      frequency: 600,
      evaluation_schedule_type: 'window',
      evaluation_schedule: {
        window: {
          days_of_week: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
          start_time: '09:00',
          end_time: '17:00',
        },
      },
      recipients: [{ id: DEMO.recipients.emailTeam, type: 'email', target: 'team+alerts@example.com' }],
      query: { calculations: [{ op: 'AVG', column: 'duration_ms' }], time_range: 1800 },
    }),
    trigger({
      id: DEMO.triggers.gwBaseline,
      dataset_slug: gw,
      name: 'Traffic up against yesterday',
      description: 'Dynamic baseline: request count at least 50% above the same time a day earlier.',
      threshold: { op: '>=', value: 50, exceeded_limit: 1 },
      baseline_details: { type: 'percentage', offset_minutes: 1440 },
      frequency: 900,
      recipients: [EMAIL_ONCALL],
      query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
    }),
    trigger({
      id: DEMO.triggers.gwSavedQuery,
      dataset_slug: gw,
      name: '5xx from a saved query',
      description: 'Uses the saved query q_gw_5xx instead of an inline query.',
      threshold: { op: '>', value: 20, exceeded_limit: 1 },
      frequency: 600,
      recipients: [EMAIL_ONCALL],
      query_id: DEMO.savedQueries.gw5xx,
    }),
    // The service holds only triggers that pass its rules; this one is legal but draws the linter's
    // warnings (a recipient by type and target, a window the schedule type ignores) and carries the
    // longest description the service allows.
    trigger({
      id: DEMO.triggers.gwLegacy,
      dataset_slug: gw,
      name: 'Legacy settings (linter warnings on purpose)',
      description: LONG_DESCRIPTION,
      threshold: { op: '>', value: 1, exceeded_limit: 1 },
      frequency: 120,
      recipients: [{ type: 'email', target: 'legacy-oncall@example.com' }],
      evaluation_schedule: { window: { days_of_week: ['saturday', 'sunday'], start_time: '00:00', end_time: '23:59' } },
      query: {
        calculations: [{ op: 'COUNT' }],
        filters: [{ column: 'status_code', op: '>=', value: 500 }],
        time_range: 120,
      },
    }),
    trigger({
      id: DEMO.triggers.coFormula,
      dataset_slug: DEMO.datasets.checkout,
      name: 'Checkout failure ratio',
      description: 'One formula over two named aggregates.',
      threshold: { op: '>', value: 0.05, exceeded_limit: 3 },
      frequency: 900,
      recipients: [PAGERDUTY_PRIMARY],
      query: {
        calculations: [
          { op: 'COUNT', name: 'total' },
          { op: 'COUNT', name: 'failed', filters: [{ column: 'payment.status', op: '=', value: 'failed' }] },
        ],
        formulas: [{ name: 'failure_ratio', expression: 'DIV($failed, $total)' }],
        time_range: 1800,
      },
    }),
    trigger({
      id: DEMO.triggers.coTenTags,
      dataset_slug: DEMO.datasets.checkout,
      name: 'Low revenue (ten tags)',
      description: 'Carries the maximum of ten tags.',
      tags: ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'].map(
        (key, i) => ({
          key,
          value: `level-${i + 1}`,
        }),
      ),
      threshold: { op: '<', value: 100, exceeded_limit: 1 },
      frequency: 3600,
      recipients: [EMAIL_ONCALL, PAGERDUTY_PRIMARY],
      query: { calculations: [{ op: 'SUM', column: 'payment.amount' }], time_range: 14400 },
    }),
    trigger({
      id: DEMO.triggers.mhCpu,
      dataset_slug: DEMO.datasets.metrics,
      name: 'Host CPU high',
      description: 'Metrics dataset: granularity 60 s, within time_range/1000 to time_range.',
      threshold: { op: '>', value: 0.9, exceeded_limit: 2 },
      frequency: 900,
      recipients: [PAGERDUTY_PRIMARY],
      query: {
        calculations: [{ op: 'AVG', column: 'system.cpu.utilization' }],
        breakdowns: ['host.name'],
        granularity: 60,
        time_range: 3600,
      },
    }),
    trigger({
      id: DEMO.triggers.mhHistogram,
      dataset_slug: DEMO.datasets.metrics,
      name: 'Histogram request count',
      description: 'Counts histogram samples of the metrics dataset.',
      threshold: { op: '>', value: 1000, exceeded_limit: 1 },
      frequency: 900,
      triggered: true,
      recipients: [EMAIL_ONCALL],
      query: { calculations: [{ op: 'HISTOGRAM_COUNT', column: DEMO.columns.histogram }], time_range: 1800 },
    }),
    trigger({
      id: DEMO.triggers.envVolume,
      dataset_slug: ENVIRONMENT_WIDE_TRIGGER_SLUG,
      name: 'Environment went quiet',
      description: 'Environment-wide: no events at all in two hours.',
      threshold: { op: '<', value: 1, exceeded_limit: 1 },
      frequency: 3600,
      recipients: [EMAIL_ONCALL],
      query: { calculations: [{ op: 'COUNT' }], time_range: 7200 },
    }),
    trigger({
      id: DEMO.triggers.envSavedQuery,
      dataset_slug: ENVIRONMENT_WIDE_TRIGGER_SLUG,
      name: 'Environment count (saved query)',
      description: 'Environment-wide trigger on an environment-wide saved query.',
      threshold: { op: '>', value: 1_000_000, exceeded_limit: 1 },
      frequency: 1800,
      disabled: true,
      recipients: [{ id: DEMO.recipients.emailTeam, type: 'email', target: 'team+alerts@example.com' }],
      query_id: DEMO.savedQueries.envCount,
    }),
    ...hostileTriggers(),
  ];
}

/** The hostile strings' triggers: markup, links and commands in a name and description, and a bidi override. */
function hostileTriggers(): TriggerRecord[] {
  const hs = DEMO.datasets.hostile;
  return [
    trigger({
      id: DEMO.triggers.hsMarkup,
      dataset_slug: hs,
      name: HOSTILE.img,
      description: `${HOSTILE.script} ${HOSTILE.bold} ${HOSTILE.markdownLink} ${HOSTILE.markdownCommand} ${HOSTILE.commandUri}`,
      // Tag values are plain lowercase words on the service (service facts): hostile text lives in the description.
      tags: [{ key: 'owner', value: 'edge' }],
      threshold: { op: '>', value: 0, exceeded_limit: 1 },
      frequency: 900,
      recipients: [{ type: 'email', target: 'legacy@example.com' }],
      query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
    }),
    trigger({
      id: DEMO.triggers.hsRtl,
      dataset_slug: hs,
      name: `Failure ratio ${HOSTILE.rtlOverride}gnp.exe`,
      description: `Right-to-left override in the name: ${HOSTILE.rtlOverride}txt.exe`,
      threshold: { op: '>', value: 5, exceeded_limit: 1 },
      frequency: 900,
      recipients: [EMAIL_ONCALL],
      query: {
        calculations: [{ op: 'COUNT' }],
        filters: [{ column: 'error', op: '=', value: true }],
        time_range: 1800,
      },
    }),
  ];
}

/** The saved query the service made of a demo trigger's inline query: the trigger lists its id beside it. */
const inlineQueryId = (t: TriggerRecord): string => `q_${t.id}`;

/** The demo triggers as the service lists them: one made with an inline query carries its query_id too. */
function listedTriggers(): TriggerRecord[] {
  return triggers().map((t) => (t.query === undefined ? t : { ...t, query_id: inlineQueryId(t) }));
}

/** The saved queries the service made of the demo triggers' inline queries. */
function inlineQueries(listed: readonly TriggerRecord[]): SavedQueryRecord[] {
  return listed.flatMap((t) =>
    t.query === undefined
      ? []
      : [
          {
            id: inlineQueryId(t),
            dataset: t.dataset_slug === ENVIRONMENT_WIDE_TRIGGER_SLUG ? ENVIRONMENT_WIDE : t.dataset_slug,
            name: '',
            query: structuredClone(t.query),
            behaviour: 'normal' as const,
          },
        ],
  );
}

function gatewayDefinitions(): DefinitionMap {
  const col = (name: string) => ({ name, column_type: 'column' as const });
  return {
    ...emptyDefinitions(),
    trace_id: col('trace.trace_id'),
    span_id: col('trace.span_id'),
    parent_id: col('trace.parent_id'),
    name: col('name'),
    service_name: col('service.name'),
    duration_ms: col('duration_ms'),
    span_kind: col('span.kind'),
    annotation_type: col('meta.annotation_type'),
    error: col('error'),
    status: col('status_code'),
    route: col('http.route'),
    user: col('user.id'),
  };
}

function slos(): SloRecord[] {
  const d = DEMO.datasets;
  const slo = (
    id: string,
    dataset: string,
    fields: Omit<SloRecord, 'id' | 'dataset' | 'reset_at' | 'created_at' | 'updated_at' | 'dataset_slugs' | 'tags'> &
      Partial<SloRecord>,
  ): SloRecord => ({
    id,
    dataset,
    tags: [],
    reset_at: null,
    dataset_slugs: [],
    created_at: T0,
    updated_at: T1,
    ...fields,
  });
  return [
    slo(DEMO.slos.gwAvailability, d.gateway, {
      name: 'Gateway availability',
      description: '99.9% of requests succeed.',
      sli_alias: 'dc.is_slow',
      time_period_days: 30,
      target_per_million: 999_000,
      tags: [{ key: 'team', value: 'edge' }],
    }),
    slo(DEMO.slos.coLatency, d.checkout, {
      name: 'Checkout under 300 ms',
      description: '99% of payments answer within 300 ms, over a week.',
      sli_alias: 'sli.checkout_fast',
      time_period_days: 7,
      target_per_million: 990_000,
      reset_at: T2,
    }),
    slo(DEMO.slos.mhHeadroom, d.metrics, {
      name: 'CPU headroom (no burn alerts)',
      description: '',
      sli_alias: 'sli.cpu_headroom',
      time_period_days: 30,
      target_per_million: 950_000,
    }),
    // Environment-wide, spanning two datasets: listed for `__all__`.
    slo(DEMO.slos.envUptime, ENVIRONMENT_WIDE, {
      name: 'Environment uptime',
      description: 'Environment-wide SLO over the gateway and checkout.',
      sli_alias: 'sli.env_up',
      time_period_days: 28,
      target_per_million: 999_500,
      dataset_slugs: [d.gateway, d.checkout],
    }),
    slo(DEMO.slos.hsHostile, d.hostile, {
      name: `SLO ${HOSTILE.bold}`,
      description: `${HOSTILE.markdownLink} ${HOSTILE.script}`,
      sli_alias: 'sli.hostile',
      time_period_days: 30,
      target_per_million: 990_000,
    }),
  ];
}

/** Every type of recipient, with the credentials the service lists (RECIPIENT_SECRETS). */
function recipients(): RecipientRecord[] {
  const r = DEMO.recipients;
  const dated = { created_at: T0, updated_at: T1 };
  return [
    {
      id: r.emailOncall,
      type: 'email',
      target: EMAIL_ONCALL.target,
      settings: { email_address: EMAIL_ONCALL.target },
      ...dated,
    },
    {
      id: r.pagerdutyPrimary,
      type: 'pagerduty',
      target: PAGERDUTY_PRIMARY.target,
      settings: {
        pagerduty_integration_name: PAGERDUTY_PRIMARY.target,
        pagerduty_integration_key: RECIPIENT_SECRETS.pagerdutyKey,
      },
      ...dated,
    },
    {
      id: r.emailTeam,
      type: 'email',
      target: 'team+alerts@example.com',
      settings: { email_address: 'team+alerts@example.com' },
      ...dated,
    },
    { id: r.slackIncidents, type: 'slack', target: '#incidents', settings: { slack_channel: '#incidents' }, ...dated },
    {
      id: r.webhookOps,
      type: 'webhook',
      target: 'Ops automation',
      settings: {
        webhook_name: 'Ops automation',
        webhook_url: RECIPIENT_SECRETS.webhookUrl,
        webhook_secret: RECIPIENT_SECRETS.webhookSecret,
        webhook_headers: [{ header: 'Authorization', value: RECIPIENT_SECRETS.webhookHeader }],
        webhook_payloads: {
          template_variables: [{ name: 'severity', default_value: 'warning' }],
          payload_templates: {
            trigger: { body: '{"alert": {{ .Name | toJson }}, "severity": {{ .Vars.severity | toJson }}}' },
          },
        },
      },
      ...dated,
    },
    {
      id: r.msteamsLegacy,
      type: 'msteams',
      target: 'Ops channel (legacy)',
      settings: { webhook_name: 'Ops channel (legacy)', webhook_url: RECIPIENT_SECRETS.msteamsUrl },
      ...dated,
    },
    {
      id: r.msteamsWorkflow,
      type: 'msteams_workflow',
      target: 'Ops workflow',
      settings: { webhook_name: 'Ops workflow', webhook_url: RECIPIENT_SECRETS.msteamsWorkflowUrl },
      ...dated,
    },
  ];
}

/** Named saved queries on two datasets and the environment; one saved query carries two names. */
function queryAnnotations(): QueryAnnotationRecord[] {
  const d = DEMO.datasets;
  const a = DEMO.queryAnnotations;
  const q = DEMO.savedQueries;
  const dated = { created_at: T0, updated_at: T1 };
  return [
    {
      id: a.gw5xx,
      dataset: d.gateway,
      name: '5xx responses',
      description: 'Server errors of the gateway.',
      query_id: q.gw5xx,
      source: 'query',
      ...dated,
    },
    {
      id: a.gw5xxBoard,
      dataset: d.gateway,
      name: 'Gateway board: errors',
      description: '',
      query_id: q.gw5xx,
      source: 'board',
      ...dated,
    },
    {
      id: a.gwTopRoutes,
      dataset: d.gateway,
      name: 'Top routes',
      description: 'The ten busiest routes.',
      query_id: q.gwTopRoutes,
      source: 'query',
      ...dated,
    },
    {
      id: a.coPayments,
      dataset: d.checkout,
      name: 'Payment volume',
      description: 'Sum of payment amounts.',
      query_id: q.coPayments,
      source: 'board',
      ...dated,
    },
    {
      id: a.envCount,
      dataset: ENVIRONMENT_WIDE,
      name: 'All events',
      description: '',
      query_id: q.envCount,
      source: 'query',
      ...dated,
    },
    {
      id: a.hsBoard,
      dataset: d.hostile,
      name: `Board: errors ${HOSTILE.bold}`,
      description: `${HOSTILE.markdownLink} ${HOSTILE.script}`,
      query_id: q.hsCount,
      source: 'board',
      ...dated,
    },
  ];
}

/** The hostile strings' burn alerts: markup, links and commands, and a bidi override, in descriptions. */
function hostileBurnAlerts(): SandboxData['burnAlerts'] {
  return [
    {
      id: DEMO.burnAlerts.hsBudgetRate,
      slo_id: DEMO.slos.hsHostile,
      alert_type: 'budget_rate',
      budget_rate_window_minutes: 60,
      budget_rate_decrease_threshold_per_million: 10_000,
      description: `${HOSTILE.markdownLink} ${HOSTILE.script} ${HOSTILE.markdownCommand}`,
      triggered: false,
      recipients: [PAGERDUTY_PRIMARY],
      // A member the service sends beyond the spec (service facts): the edit form cannot send it.
      auto_investigate: true,
      created_at: T0,
      updated_at: T1,
    },
    {
      id: DEMO.burnAlerts.hsExhaustion,
      slo_id: DEMO.slos.hsHostile,
      alert_type: 'exhaustion_time',
      exhaustion_minutes: 0,
      description: `Fires at exhaustion ${HOSTILE.rtlOverride}txt.exe`,
      triggered: false,
      recipients: [{ type: 'email', target: 'checkout@example.com' }],
      created_at: T0,
      updated_at: T1,
    },
  ];
}

/** A fresh copy of the demo data. */
export function demoData(): SandboxData {
  const d = DEMO.datasets;
  const listed = listedTriggers();
  const datasets = [
    dataset(d.gateway, 'API gateway (traced)', 'standard', {
      derived_columns: [...DEMO.derivedColumns],
      description: 'Requests through the edge.',
      expand_json_depth: 2,
      delete_protected: true,
    }),
    dataset(d.checkout, 'Checkout service', 'standard', { description: 'Payments.' }),
    dataset(d.metrics, 'Host metrics', 'metrics', { description: 'One sample a minute per host.' }),
    dataset(d.wide, 'Bench: 2,000 columns', 'standard', { generated_columns: DEMO.wideColumnCount }),
    dataset(d.empty, 'Empty dataset', 'standard', { description: 'Created, never sent data.' }),
    dataset(d.hostile, 'Hostile strings (for tests)', 'standard', {
      description: `${HOSTILE.markdownLink} ${HOSTILE.script} ${HOSTILE.rtlOverride}txt.exe`,
    }),
  ];
  return {
    team: DEMO.team,
    environmentId: DEMO.environmentId,
    userId: DEMO.userId,
    datasets,
    columns: {
      [d.gateway]: columns('gw', GATEWAY_COLUMNS),
      [d.checkout]: columns('co', CHECKOUT_COLUMNS),
      [d.metrics]: columns('mh', METRICS_COLUMNS),
      [d.wide]: [],
      [d.empty]: [],
      [d.hostile]: columns('hs', HOSTILE_COLUMNS),
    },
    definitions: Object.fromEntries(
      datasets.map((ds) => [ds.slug, ds.slug === d.gateway ? gatewayDefinitions() : emptyDefinitions()]),
    ),
    triggers: listed,
    savedQueries: [
      {
        id: DEMO.savedQueries.gw5xx,
        dataset: d.gateway,
        name: '5xx responses',
        behaviour: 'normal',
        query: {
          calculations: [{ op: 'COUNT' }],
          filters: [{ column: 'status_code', op: '>=', value: 500 }],
          time_range: 1800,
        },
      },
      {
        id: DEMO.savedQueries.gwTopRoutes,
        dataset: d.gateway,
        name: 'Top routes',
        behaviour: 'normal',
        query: {
          calculations: [{ op: 'COUNT' }],
          breakdowns: ['http.route'],
          orders: [{ op: 'COUNT', order: 'descending' }],
          limit: 10,
          time_range: 7200,
        },
      },
      {
        id: DEMO.savedQueries.gwSlow,
        dataset: d.gateway,
        name: 'Week of p99 by service (slow)',
        behaviour: 'slow',
        query: {
          calculations: [{ op: 'P99', column: 'duration_ms' }],
          breakdowns: ['service.name'],
          time_range: 604800,
        },
      },
      {
        id: DEMO.savedQueries.gwFailing,
        dataset: d.gateway,
        name: 'Average of a missing column (fails)',
        behaviour: 'fails',
        query: { calculations: [{ op: 'AVG', column: 'no_such_column' }], time_range: 3600 },
      },
      {
        id: DEMO.savedQueries.coPayments,
        dataset: d.checkout,
        name: 'Payment volume',
        behaviour: 'normal',
        query: { calculations: [{ op: 'SUM', column: 'payment.amount' }], time_range: 3600 },
      },
      {
        id: DEMO.savedQueries.mhCpu,
        dataset: d.metrics,
        name: 'Max CPU',
        behaviour: 'normal',
        query: { calculations: [{ op: 'MAX', column: 'system.cpu.utilization' }], granularity: 60, time_range: 3600 },
      },
      {
        id: DEMO.savedQueries.envCount,
        dataset: ENVIRONMENT_WIDE,
        name: 'All events',
        behaviour: 'normal',
        query: { calculations: [{ op: 'COUNT' }], time_range: 3600 },
      },
      {
        id: DEMO.savedQueries.hsCount,
        dataset: d.hostile,
        name: `Errors ${HOSTILE.img}`,
        behaviour: 'normal',
        query: { calculations: [{ op: 'COUNT' }], breakdowns: [DEMO.columns.hostile], time_range: 3600 },
      },
      ...inlineQueries(listed),
    ],
    queryAnnotations: queryAnnotations(),
    slos: slos(),
    burnAlerts: [
      {
        id: DEMO.burnAlerts.gwExhaustion,
        slo_id: DEMO.slos.gwAvailability,
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 240,
        description: 'Budget gone within four hours.',
        triggered: true,
        recipients: [EMAIL_ONCALL],
        created_at: T0,
        updated_at: T1,
      },
      {
        id: DEMO.burnAlerts.gwBudgetRate,
        slo_id: DEMO.slos.gwAvailability,
        alert_type: 'budget_rate',
        budget_rate_window_minutes: 60,
        budget_rate_decrease_threshold_per_million: 10_000,
        description: 'Loses 1% of the budget within an hour.',
        triggered: false,
        recipients: [PAGERDUTY_PRIMARY],
        // A member the service sends beyond the spec (service facts): the edit form cannot send it.
        auto_investigate: true,
        created_at: T0,
        updated_at: T1,
      },
      {
        id: DEMO.burnAlerts.coExhaustion,
        slo_id: DEMO.slos.coLatency,
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 0,
        description: 'Fires when the budget is gone.',
        triggered: false,
        recipients: [{ type: 'email', target: 'checkout@example.com' }],
        created_at: T0,
        updated_at: T1,
      },
      {
        id: DEMO.burnAlerts.coBudgetRate,
        slo_id: DEMO.slos.coLatency,
        alert_type: 'budget_rate',
        budget_rate_window_minutes: 120,
        budget_rate_decrease_threshold_per_million: 50_000,
        description: '5% of the budget in two hours.',
        triggered: true,
        recipients: [EMAIL_ONCALL, PAGERDUTY_PRIMARY],
        created_at: T0,
        updated_at: T1,
      },
      {
        id: DEMO.burnAlerts.envExhaustion,
        slo_id: DEMO.slos.envUptime,
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 1440,
        description: 'Environment-wide: a day of budget left.',
        triggered: false,
        recipients: [{ id: DEMO.recipients.emailTeam, type: 'email', target: 'team+alerts@example.com' }],
        created_at: T0,
        updated_at: T1,
      },
      {
        id: DEMO.burnAlerts.envBudgetRate,
        slo_id: DEMO.slos.envUptime,
        alert_type: 'budget_rate',
        budget_rate_window_minutes: 1440,
        budget_rate_decrease_threshold_per_million: 20_000,
        description: '',
        triggered: false,
        recipients: [EMAIL_ONCALL],
        created_at: T0,
        updated_at: T1,
      },
      ...hostileBurnAlerts(),
    ],
    recipients: recipients(),
    apiKeys: [
      {
        id: DEMO.apiKeys.ingest,
        key_type: 'ingest',
        name: 'Demo ingest key',
        disabled: false,
        permissions: { create_datasets: true },
        environment_id: DEMO.environmentId,
        creator_id: DEMO.userId,
        editor_id: DEMO.userId,
        created: T0,
        updated: T1,
      },
      {
        id: DEMO.apiKeys.disabled,
        key_type: 'ingest',
        name: 'Retired ingest key',
        disabled: true,
        permissions: { create_datasets: false },
        environment_id: DEMO.environmentId,
        creator_id: DEMO.userId,
        editor_id: DEMO.userId,
        created: T0,
        updated: T2,
      },
    ],
    queryResults: [],
    nextId: 1,
  };
}

/** A sandbox with no datasets (the `demo: false` start). */
export function emptyData(): SandboxData {
  return {
    team: DEMO.team,
    environmentId: DEMO.environmentId,
    userId: DEMO.userId,
    datasets: [],
    columns: {},
    definitions: {},
    triggers: [],
    savedQueries: [],
    queryAnnotations: [],
    slos: [],
    burnAlerts: [],
    recipients: [],
    apiKeys: [],
    queryResults: [],
    nextId: 1,
  };
}

/**
 * Adds (or replaces) a standard dataset whose columns are all generated: `gen.col_00001` to `gen.col_<n>`.
 * For tests and benches that need a dataset of a given width.
 */
export function addWideDataset(data: SandboxData, slug: string, columnCount: number): DatasetRecord {
  if (!Number.isInteger(columnCount) || columnCount < 0)
    throw new RangeError(`columnCount must be a whole number >= 0, got ${columnCount}`);
  const record = dataset(slug, `Generated: ${columnCount} columns`, 'standard', { generated_columns: columnCount });
  data.datasets = [...data.datasets.filter((d) => d.slug !== slug), record];
  data.columns[slug] = [];
  data.definitions[slug] = emptyDefinitions();
  return record;
}
