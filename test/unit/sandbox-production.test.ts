// The demo's second environment: production, derived from the staging demo. The same alerting with the
// differences teams have between the two (ids, recipients, a dataset slug, thresholds, a disabled trigger),
// and both environments whole: every reference of either resolves within it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lint } from '../../src/lint';
import {
  DEMO,
  PRODUCTION,
  PRODUCTION_RECIPIENT_SECRETS,
  demoData,
  productionData,
  type SandboxData,
} from '../../src/sandbox';
import { SandboxData as SandboxDataSchema, hasColumn } from '../../src/sandbox/state';
import { forEachEvent } from '../../src/sandbox/queries/synthetic';

const staging = demoData();
const production = productionData(demoData());

/** The record of a list with this id. */
const byId = <T extends { id: string }>(list: readonly T[], id: string): T => {
  const found = list.find((r) => r.id === id);
  assert.ok(found, `no record ${id}`);
  return found;
};

/** The paths at which two JSON values differ (`threshold.value`, `recipients[0].id`), in document order. */
function changedPaths(a: unknown, b: unknown, path = ''): string[] {
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length)
    return a.flatMap((x, i) => changedPaths(x, b[i], `${path}[${i}]`));
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => changedPaths(a[k], b[k], path === '' ? k : `${path}.${k}`));
  }
  return Object.is(a, b) ? [] : [path];
}
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const ENV_WIDE_SLO = '__all__';
const ENV_WIDE_TRIGGER = 'all';

/** Every reference of the data that names nothing in it, as "what: reference". Empty for a whole environment. */
function danglingReferences(data: SandboxData): string[] {
  const out: string[] = [];
  const slugs = new Set(data.datasets.map((d) => d.slug));
  const recipientProblem = (owner: string, r: { id?: string; type?: string; target?: string }, i: number) => {
    if (r.id === undefined) return;
    const listed = data.recipients.find((k) => k.id === r.id);
    if (!listed) out.push(`${owner} recipients[${i}]: no recipient ${r.id}`);
    else if (listed.type !== r.type || listed.target !== r.target)
      out.push(`${owner} recipients[${i}]: ${r.id} is ${listed.type} ${listed.target}, held as ${r.type} ${r.target}`);
  };
  const savedQuery = (owner: string, id: string, scope: string) => {
    if (!data.savedQueries.some((q) => q.id === id && q.dataset === scope)) out.push(`${owner}: no saved query ${id}`);
  };
  for (const kind of ['triggers', 'savedQueries', 'slos', 'burnAlerts', 'recipients', 'queryAnnotations'] as const) {
    const ids = data[kind].map((r) => r.id);
    for (const id of ids.filter((id, i) => ids.indexOf(id) !== i)) out.push(`${kind}: ${id} twice`);
  }
  for (const t of data.triggers) {
    const scope = t.dataset_slug === ENV_WIDE_TRIGGER ? ENV_WIDE_SLO : t.dataset_slug;
    if (scope !== ENV_WIDE_SLO && !slugs.has(scope)) out.push(`trigger ${t.id}: no dataset ${scope}`);
    if (t.query_id !== undefined) savedQuery(`trigger ${t.id}`, t.query_id, scope);
    (t.recipients ?? []).forEach((r, i) => recipientProblem(`trigger ${t.id}`, r, i));
  }
  for (const a of data.burnAlerts) {
    if (!data.slos.some((s) => s.id === a.slo_id)) out.push(`burn alert ${a.id}: no SLO ${a.slo_id}`);
    a.recipients.forEach((r, i) => recipientProblem(`burn alert ${a.id}`, r, i));
  }
  for (const s of data.slos)
    for (const slug of [s.dataset, ...s.dataset_slugs])
      if (slug !== ENV_WIDE_SLO && !slugs.has(slug)) out.push(`SLO ${s.id}: no dataset ${slug}`);
  for (const q of data.savedQueries)
    if (q.dataset !== ENV_WIDE_SLO && !slugs.has(q.dataset)) out.push(`saved query ${q.id}: no dataset ${q.dataset}`);
  for (const a of data.queryAnnotations) savedQuery(`named query ${a.id}`, a.query_id, a.dataset);
  for (const d of data.datasets) {
    if (data.columns[d.slug] === undefined) out.push(`dataset ${d.slug}: no column list`);
    for (const [type, ref] of Object.entries(data.definitions[d.slug] ?? {}))
      if (ref !== null && !hasColumn(data, d, ref.name) && !d.derived_columns.includes(ref.name))
        out.push(`definition ${type} of ${d.slug}: no column ${ref.name}`);
    if (d.events && forEachEvent(d.events.source, 0, 3600, () => undefined, d.events.scale) === 0)
      out.push(`dataset ${d.slug}: no events of ${d.events.source}`);
  }
  for (const slug of [...Object.keys(data.columns), ...Object.keys(data.definitions)])
    if (!slugs.has(slug)) out.push(`columns or definitions of ${slug}: no such dataset`);
  for (const k of data.apiKeys)
    if (k.environment_id !== data.environmentId) out.push(`API key ${k.id}: of environment ${k.environment_id}`);
  return out;
}

describe('both demo environments are whole', () => {
  test('every reference of staging and of production names something of the same environment', () => {
    assert.deepEqual(
      { staging: danglingReferences(staging), production: danglingReferences(production) },
      {
        staging: [],
        production: [],
      },
    );
  });

  test('the check finds a reference to a recipient the environment does not have', () => {
    const broken = productionData(demoData());
    broken.recipients = broken.recipients.filter((r) => r.id !== PRODUCTION.recipients.emailTeam);
    const missing = `recipients[0]: no recipient ${PRODUCTION.recipients.emailTeam}`;
    assert.deepEqual(danglingReferences(broken), [
      `trigger ${PRODUCTION.triggers.gwWindow} ${missing}`,
      `trigger ${PRODUCTION.triggers.envSavedQuery} ${missing}`,
      `burn alert ${PRODUCTION.burnAlerts.envExhaustion} ${missing}`,
    ]);
  });

  test('production passes the data-file schema, and every trigger lints without errors as staging does', () => {
    assert.equal(SandboxDataSchema.safeParse(production).success, true);
    const options = { form: 'listed' as const, metricsDatasets: [PRODUCTION.datasets.metrics] };
    const withErrors = production.triggers.filter((t) =>
      lint(JSON.stringify(t, null, 1), options).some((d) => d.severity === 'error'),
    );
    assert.deepEqual(
      withErrors.map((t) => t.id),
      [],
    );
  });

  test('production is built from staging afresh each time: changing one leaves the next untouched', () => {
    const built = JSON.stringify(productionData(demoData()));
    const first = productionData(demoData());
    byId(first.triggers, PRODUCTION.triggers.gwErrors).threshold.value = 1;
    byId(first.recipients, PRODUCTION.recipients.pagerdutyPrimary).settings.pagerduty_integration_name = 'changed';
    assert.equal(JSON.stringify(productionData(demoData())), built);
  });
});

describe('production differs from staging as environments do', () => {
  test('no id of a trigger, SLO, burn alert, recipient, query, named query, key or column is staging’s', () => {
    const shared = (
      ['triggers', 'slos', 'burnAlerts', 'recipients', 'savedQueries', 'queryAnnotations', 'apiKeys'] as const
    )
      .flatMap((kind) => production[kind].map((r) => r.id).filter((id) => staging[kind].some((s) => s.id === id)))
      .concat(
        Object.values(production.columns)
          .flat()
          .map((c) => c.id)
          .filter((id) =>
            Object.values(staging.columns)
              .flat()
              .some((c) => c.id === id),
          ),
      );
    assert.deepEqual(shared, []);
  });

  test('the same datasets, checkout under the slug checkout-prod', () => {
    assert.deepEqual(
      production.datasets.map((d) => d.slug),
      staging.datasets.map((d) => (d.slug === 'checkout-service' ? 'checkout-prod' : d.slug)),
    );
    assert.deepEqual(production.definitions['checkout-prod'], staging.definitions['checkout-service']);
    assert.deepEqual(production.definitions[DEMO.datasets.gateway], staging.definitions[DEMO.datasets.gateway]);
  });

  test('recipients: its own PagerDuty service and Slack channel, the same email addresses, one of its own', () => {
    const targets = (data: SandboxData) => data.recipients.map((r) => `${r.type} ${r.target}`);
    assert.deepEqual(
      {
        onlyStaging: targets(staging).filter((t) => !targets(production).includes(t)),
        onlyProduction: targets(production).filter((t) => !targets(staging).includes(t)),
      },
      {
        onlyStaging: ['pagerduty Primary on-call', 'slack #incidents'],
        onlyProduction: ['pagerduty Production on-call', 'slack #prod-incidents', 'slack #sre-escalations'],
      },
    );
    assert.deepEqual(byId(production.recipients, PRODUCTION.recipients.pagerdutyPrimary).settings, {
      pagerduty_integration_name: 'Production on-call',
      pagerduty_integration_key: PRODUCTION_RECIPIENT_SECRETS.pagerdutyKey,
    });
    const oncall = byId(production.recipients, PRODUCTION.recipients.emailOncall);
    assert.deepEqual(
      [oncall.id, oncall.settings],
      ['rcp_email_oncall_prod', { email_address: byId(staging.recipients, DEMO.recipients.emailOncall).target }],
    );
  });

  test('thresholds four times staging’s on the three triggers that count requests, the others the same', () => {
    const changed = staging.triggers.flatMap((s) => {
      const p = byId(production.triggers, `${s.id}_prod`);
      return p.threshold.value === s.threshold.value ? [] : [[p.name, s.threshold.value, p.threshold.value]];
    });
    assert.deepEqual(changed, [
      ['High error rate', 5, 20],
      ['Server errors (every interval)', 10, 40],
      ['5xx from a saved query', 20, 80],
    ]);
  });

  test('a trigger differs from staging’s in exactly its ids, recipients, slug, threshold and enabled state', () => {
    const diff = (id: string) => changedPaths(byId(staging.triggers, id), byId(production.triggers, `${id}_prod`));
    assert.deepEqual(
      {
        gwErrors: diff(DEMO.triggers.gwErrors),
        gwOnTrue: diff(DEMO.triggers.gwOnTrue),
        gwLegacy: diff(DEMO.triggers.gwLegacy),
        coFormula: diff(DEMO.triggers.coFormula),
        envSavedQuery: diff(DEMO.triggers.envSavedQuery),
        gwLatencyDisabled: diff(DEMO.triggers.gwLatencyDisabled),
      },
      {
        gwErrors: ['id', 'threshold.value', 'recipients[0].id', 'query_id'],
        gwOnTrue: ['id', 'threshold.value', 'recipients[0].id', 'recipients[0].target', 'query_id'],
        // Its recipient by type and target is the same address in both.
        gwLegacy: ['id', 'query_id'],
        coFormula: ['id', 'dataset_slug', 'recipients[0].id', 'recipients[0].target', 'query_id'],
        // Disabled in staging only.
        envSavedQuery: ['id', 'disabled', 'recipients[0].id', 'query_id'],
        gwLatencyDisabled: ['id', 'recipients[0].id', 'query_id'],
      },
    );
  });

  test('SLOs and burn alerts are staging’s under production’s ids, slugs and recipients', () => {
    const env = byId(production.slos, PRODUCTION.slos.envUptime);
    assert.deepEqual(env.dataset_slugs, [PRODUCTION.datasets.gateway, 'checkout-prod']);
    assert.deepEqual(
      changedPaths(byId(staging.slos, DEMO.slos.coLatency), byId(production.slos, PRODUCTION.slos.coLatency)),
      ['id', 'dataset'],
    );
    const alert = (data: SandboxData, id: string) => byId(data.burnAlerts, id);
    assert.deepEqual(
      changedPaths(alert(staging, DEMO.burnAlerts.coBudgetRate), alert(production, PRODUCTION.burnAlerts.coBudgetRate)),
      ['id', 'slo_id', 'recipients[0].id', 'recipients[1].id', 'recipients[1].target'],
    );
  });
});
