import { DEMO, SANDBOX_CREDENTIALS, defaultCredentials } from './demoData';
import type {
  DatasetRecord,
  RecipientRecord,
  SandboxCredentials,
  SandboxData,
  StoredRecipient,
  TriggerRecord,
} from './state';

// The demo's production environment, derived from the staging demo (demoData.ts) by the few differences a
// team has between the two, so that both stay in step: the same datasets, triggers, SLOs, burn alerts and
// definitions, but every id its own, one dataset under another slug, a PagerDuty service and a Slack channel
// of production's own, a recipient only production has, four times the traffic with the thresholds that
// count requests scaled to it, and a trigger that staging keeps disabled switched on.

/** The demo environments the sandbox can serve. */
export const DEMO_ENVIRONMENTS = ['staging', 'production'] as const;
export type DemoEnvironment = (typeof DEMO_ENVIRONMENTS)[number];

/** Production has this many times staging's requests and payments (the host metrics stay as they are). */
const TRAFFIC_SCALE = 4;

/** Every id of production is its own: the staging id with this suffix. */
const productionId = (id: string): string => `${id}_prod`;

/** Production's ids of a map of staging ids (DEMO.triggers, DEMO.slos...). */
function productionIds<T extends Readonly<Record<string, string>>>(ids: T): { readonly [K in keyof T]: string } {
  return Object.fromEntries(Object.entries(ids).map(([k, id]) => [k, productionId(id)])) as {
    readonly [K in keyof T]: string;
  };
}

/** Fixed and public like the staging ones; the management key is the team's, so both environments share it. */
export const PRODUCTION_CREDENTIALS = {
  configKey: 'sandbox-prod-config-key-writer-0001',
  readOnlyConfigKey: 'sandbox-prod-config-key-reader-0002',
  managementKeyId: SANDBOX_CREDENTIALS.managementKeyId,
  managementKeySecret: SANDBOX_CREDENTIALS.managementKeySecret,
} as const;

/** The credentials production's own recipients carry (the others are staging's, RECIPIENT_SECRETS). */
export const PRODUCTION_RECIPIENT_SECRETS = {
  pagerdutyKey: 'pd-integration-key-prod-8e21b7c4d09a',
} as const;

/** Ids and names of the production demo that tests and docs refer to. */
export const PRODUCTION = {
  environmentId: 'env_sandbox02',
  /** Checkout's dataset has another slug in production; the others keep staging's. */
  datasets: { ...DEMO.datasets, checkout: 'checkout-prod' },
  trafficScale: TRAFFIC_SCALE,
  triggers: productionIds(DEMO.triggers),
  savedQueries: productionIds(DEMO.savedQueries),
  slos: productionIds(DEMO.slos),
  burnAlerts: productionIds(DEMO.burnAlerts),
  recipients: { ...productionIds(DEMO.recipients), slackEscalations: 'rcp_slack_escalations_prod' },
  queryAnnotations: productionIds(DEMO.queryAnnotations),
  apiKeys: productionIds(DEMO.apiKeys),
  /** Triggers that count requests: their thresholds are TRAFFIC_SCALE times staging's. */
  scaledTriggers: [DEMO.triggers.gwErrors, DEMO.triggers.gwOnTrue, DEMO.triggers.gwSavedQuery],
  /** Disabled in staging, enabled in production. */
  enabledTriggers: [DEMO.triggers.envSavedQuery],
  /** Where production's recipients differ from staging's (by the staging id): PagerDuty and Slack. */
  pagerdutyService: 'Production on-call',
  slackChannel: '#prod-incidents',
} as const;

/** Server-assigned ids of production start here, so they never equal one staging assigns. */
const PRODUCTION_ID_OFFSET = 500_000;

const slugOf = (slug: string): string => (slug === DEMO.datasets.checkout ? PRODUCTION.datasets.checkout : slug);
const scaleOf = (slug: string): number =>
  slug === DEMO.datasets.gateway || slug === DEMO.datasets.checkout ? TRAFFIC_SCALE : 1;

/** What production's recipients hold instead of staging's: another PagerDuty service and Slack channel. */
const RECIPIENT_CHANGES: Readonly<Record<string, Pick<RecipientRecord, 'target' | 'settings'>>> = {
  [DEMO.recipients.pagerdutyPrimary]: {
    target: PRODUCTION.pagerdutyService,
    settings: {
      pagerduty_integration_name: PRODUCTION.pagerdutyService,
      pagerduty_integration_key: PRODUCTION_RECIPIENT_SECRETS.pagerdutyKey,
    },
  },
  [DEMO.recipients.slackIncidents]: {
    target: PRODUCTION.slackChannel,
    settings: { slack_channel: PRODUCTION.slackChannel },
  },
};

/** Production's recipients: staging's under production's ids and with its changes, and one of its own. */
function productionRecipients(staging: readonly RecipientRecord[]): RecipientRecord[] {
  const escalations = '#sre-escalations';
  return [
    ...staging.map((r) => ({ ...r, ...RECIPIENT_CHANGES[r.id], id: productionId(r.id) })),
    {
      id: PRODUCTION.recipients.slackEscalations,
      type: 'slack',
      target: escalations,
      settings: { slack_channel: escalations },
      created_at: '2024-05-06T09:00:00.000Z',
      updated_at: '2024-05-06T09:00:00.000Z',
    },
  ];
}

/** A recipient as an alert holds it, naming production's recipient (its id, and its target when by id). */
function storedRecipient(r: StoredRecipient): StoredRecipient {
  if (r.id === undefined) return r;
  const changed = RECIPIENT_CHANGES[r.id];
  return { ...r, id: productionId(r.id), ...(changed ? { target: changed.target } : {}) };
}

function productionDataset(d: DatasetRecord): DatasetRecord {
  const source = d.events?.source ?? d.slug;
  const scale = (d.events?.scale ?? 1) * scaleOf(d.slug);
  const renamed = slugOf(d.slug) !== d.slug;
  return { ...d, slug: slugOf(d.slug), ...(renamed || scale !== 1 ? { events: { source, scale } } : {}) };
}

function productionTrigger(t: TriggerRecord): TriggerRecord {
  const scaled = (PRODUCTION.scaledTriggers as readonly string[]).includes(t.id);
  const enabled = (PRODUCTION.enabledTriggers as readonly string[]).includes(t.id);
  return {
    ...t,
    id: productionId(t.id),
    dataset_slug: slugOf(t.dataset_slug),
    ...(scaled ? { threshold: { ...t.threshold, value: t.threshold.value * TRAFFIC_SCALE } } : {}),
    ...(enabled ? { disabled: false } : {}),
    ...(t.recipients ? { recipients: t.recipients.map(storedRecipient) } : {}),
    ...(t.query_id !== undefined ? { query_id: productionId(t.query_id) } : {}),
  };
}

/** Keys of a per-dataset map under production's slugs. */
const bySlug = <T>(map: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(map).map(([slug, v]) => [slugOf(slug), v]));

/** The production environment of a staging demo: the same alerting with production's differences. */
export function productionData(data: SandboxData): SandboxData {
  const columns = Object.fromEntries(
    Object.entries(data.columns).map(([slug, list]) => [slug, list.map((c) => ({ ...c, id: productionId(c.id) }))]),
  );
  // A copy that shares nothing with staging or the tables above: the sandbox writes into its data.
  return structuredClone({
    ...data,
    environmentId: PRODUCTION.environmentId,
    datasets: data.datasets.map(productionDataset),
    columns: bySlug(columns),
    definitions: bySlug(data.definitions),
    triggers: data.triggers.map(productionTrigger),
    savedQueries: data.savedQueries.map((q) => ({ ...q, id: productionId(q.id), dataset: slugOf(q.dataset) })),
    queryAnnotations: data.queryAnnotations.map((a) => ({
      ...a,
      id: productionId(a.id),
      dataset: slugOf(a.dataset),
      query_id: productionId(a.query_id),
    })),
    slos: data.slos.map((s) => ({
      ...s,
      id: productionId(s.id),
      dataset: slugOf(s.dataset),
      dataset_slugs: s.dataset_slugs.map(slugOf),
    })),
    burnAlerts: data.burnAlerts.map((a) => ({
      ...a,
      id: productionId(a.id),
      slo_id: productionId(a.slo_id),
      recipients: a.recipients.map(storedRecipient),
    })),
    recipients: productionRecipients(data.recipients),
    apiKeys: data.apiKeys.map((k) => ({ ...k, id: productionId(k.id), environment_id: PRODUCTION.environmentId })),
    queryResults: data.queryResults.map((r) => ({
      ...r,
      id: productionId(r.id),
      dataset: slugOf(r.dataset),
      query_id: productionId(r.query_id),
    })),
    nextId: data.nextId + PRODUCTION_ID_OFFSET,
  });
}

/** The credentials of the environment a sandbox's data belongs to: production's keys open production only. */
export function credentialsFor(environmentId: string): SandboxCredentials {
  if (environmentId !== PRODUCTION.environmentId) return defaultCredentials();
  return {
    configKeys: [
      { name: 'Sandbox production configuration key', key: PRODUCTION_CREDENTIALS.configKey, canWrite: true },
      { name: 'Sandbox production read-only key', key: PRODUCTION_CREDENTIALS.readOnlyConfigKey, canWrite: false },
    ],
    managementKey: { id: PRODUCTION_CREDENTIALS.managementKeyId, secret: PRODUCTION_CREDENTIALS.managementKeySecret },
  };
}
