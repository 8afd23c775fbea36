import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG, isDeprecatedRecipient } from '../../src/api/schemas';
import { lint } from '../../src/lint';
import {
  DEMO,
  HOSTILE,
  LONG_DESCRIPTION,
  RECIPIENT_SECRETS,
  addWideDataset,
  demoData,
  emptyData,
} from '../../src/sandbox';
import { SandboxData, columnsOf, hasColumn } from '../../src/sandbox/state';

// The demo data is deterministic and exercises every surface the brief lists.

const data = demoData();

describe('demo data', () => {
  test('is deterministic: two builds are equal', () => {
    assert.deepEqual(demoData(), demoData());
  });

  test('a data file from before that holds last_written: null loads with last_written absent', () => {
    const old = structuredClone(data) as unknown as { columns: Record<string, Record<string, unknown>[]> };
    const column = old.columns[DEMO.datasets.gateway]?.find((c) => c.key_name === DEMO.columns.neverWritten);
    assert.ok(column);
    column.last_written = null;
    const loaded = SandboxData.parse(old);
    const read = loaded.columns[DEMO.datasets.gateway]?.find((c) => c.key_name === DEMO.columns.neverWritten);
    assert.ok(read);
    assert.equal(JSON.stringify(read).includes('last_written'), false);
  });

  test('passes its own data-file schema', () => {
    assert.equal(SandboxData.safeParse(data).success, true);
    assert.equal(SandboxData.safeParse(emptyData()).success, true);
  });

  test('has a metrics dataset, a 2,000-column dataset and an empty one', () => {
    const kinds = Object.fromEntries(data.datasets.map((d) => [d.slug, d.kind]));
    assert.equal(kinds[DEMO.datasets.metrics], 'metrics');
    const wide = data.datasets.find((d) => d.slug === DEMO.datasets.wide);
    assert.ok(wide);
    assert.equal(columnsOf(data, wide).length, 2000);
    const empty = data.datasets.find((d) => d.slug === DEMO.datasets.empty);
    assert.ok(empty);
    assert.equal(columnsOf(data, empty).length, 0);
  });

  test('every trigger lints without errors: the service validates a trigger on write, so it holds none that breaks a rule', () => {
    const withErrors = data.triggers
      .filter((t) =>
        lint(JSON.stringify(t, null, 1), { form: 'listed', metricsDatasets: [DEMO.datasets.metrics] }).some(
          (d) => d.severity === 'error',
        ),
      )
      .map((t) => t.id);
    assert.deepEqual(withErrors, []);
  });

  test('every trigger description fits the service (at most 1023 characters); one is exactly that long', () => {
    assert.deepEqual(
      data.triggers.filter((t) => [...(t.description ?? '')].length > 1023).map((t) => t.id),
      [],
    );
    assert.equal(LONG_DESCRIPTION.length, 1023);
    assert.equal(data.triggers.find((t) => t.id === DEMO.triggers.gwLegacy)?.description, LONG_DESCRIPTION);
  });

  test('the legacy trigger draws the linter warnings on purpose: a deprecated recipient and an unused schedule', () => {
    const legacy = data.triggers.find((t) => t.id === DEMO.triggers.gwLegacy);
    assert.ok(legacy);
    assert.deepEqual(
      lint(JSON.stringify(legacy), { form: 'listed' })
        .filter((d) => d.severity !== 'info')
        .map((d) => d.rule)
        .sort(),
      ['trigger/evaluation-schedule-unused', 'trigger/recipient-deprecated'],
    );
  });

  test('each query_id trigger names a saved query of its dataset that lints as an inline query', () => {
    const byQueryId = data.triggers.filter((t) => typeof t.query_id === 'string');
    assert.ok(byQueryId.length >= 2);
    for (const t of byQueryId) {
      const scope = t.dataset_slug === ENVIRONMENT_WIDE_TRIGGER_SLUG ? ENVIRONMENT_WIDE : t.dataset_slug;
      const saved = data.savedQueries.find((q) => q.id === t.query_id && q.dataset === scope);
      assert.ok(saved, `${t.id} -> ${t.query_id}`);
      const { query_id: _, ...inline } = { ...t, query: saved.query };
      const errors = lint(JSON.stringify(inline), { metricsDatasets: [DEMO.datasets.metrics] }).filter(
        (d) => d.severity === 'error',
      );
      assert.deepEqual(errors, [], t.id);
    }
  });

  test('a trigger made with an inline query lists the id of the saved query made of it, which holds the same query', () => {
    const inline = data.triggers.filter((t) => t.query !== undefined);
    assert.ok(inline.length >= 10);
    for (const t of inline) {
      const scope = t.dataset_slug === ENVIRONMENT_WIDE_TRIGGER_SLUG ? ENVIRONMENT_WIDE : t.dataset_slug;
      const saved = data.savedQueries.find((q) => q.id === t.query_id && q.dataset === scope);
      assert.deepEqual(saved?.query, t.query, t.id);
    }
  });

  test('has one slow and one failing saved query', () => {
    assert.deepEqual(
      data.savedQueries.filter((q) => q.behaviour !== 'normal').map((q) => [q.id, q.behaviour]),
      [
        [DEMO.savedQueries.gwSlow, 'slow'],
        [DEMO.savedQueries.gwFailing, 'fails'],
      ],
    );
  });

  test('burn alerts of both types in two datasets, environment-wide and among the hostile strings', () => {
    const scopes = new Map<string, Set<string>>();
    for (const a of data.burnAlerts) {
      const slo = data.slos.find((s) => s.id === a.slo_id);
      assert.ok(slo, a.id);
      const types = scopes.get(slo.dataset) ?? new Set<string>();
      types.add(a.alert_type);
      scopes.set(slo.dataset, types);
    }
    const both = [...scopes].filter(([, types]) => types.size === 2).map(([scope]) => scope);
    assert.deepEqual(
      both.sort(),
      [ENVIRONMENT_WIDE, DEMO.datasets.gateway, DEMO.datasets.checkout, DEMO.datasets.hostile].sort(),
    );
  });

  test('recipients of each kind: email by id, pagerduty by id with details, legacy type+target', () => {
    const all = [...data.triggers.flatMap((t) => t.recipients ?? []), ...data.burnAlerts.flatMap((a) => a.recipients)];
    assert.ok(all.some((r) => r.id !== undefined && r.type === 'email'));
    assert.ok(
      all.some(
        (r) =>
          r.id !== undefined &&
          r.type === 'pagerduty' &&
          r.details?.pagerduty_severity === 'critical' &&
          r.details.variables?.length,
      ),
    );
    assert.ok(all.some((r) => isDeprecatedRecipient(r)));
  });

  test('every recipient id a trigger or burn alert names is a recipient of the recipients list', () => {
    const known = new Set(data.recipients.map((r) => r.id));
    const named = [
      ...data.triggers.flatMap((t) => t.recipients ?? []),
      ...data.burnAlerts.flatMap((a) => a.recipients),
    ].flatMap((r) => (r.id === undefined ? [] : [r.id]));
    assert.ok(named.length > 0);
    assert.deepEqual(
      named.filter((id) => !known.has(id)),
      [],
    );
  });

  test('the recipients list holds every type, with the credentials the service lists', () => {
    assert.deepEqual([...new Set(data.recipients.map((r) => r.type))].sort(), [
      'email',
      'msteams',
      'msteams_workflow',
      'pagerduty',
      'slack',
      'webhook',
    ]);
    const text = JSON.stringify(data.recipients);
    for (const secret of Object.values(RECIPIENT_SECRETS)) assert.ok(text.includes(secret), secret);
    const webhook = data.recipients.find((r) => r.type === 'webhook');
    assert.deepEqual(Object.keys(webhook?.settings ?? {}).sort(), [
      'webhook_headers',
      'webhook_name',
      'webhook_payloads',
      'webhook_secret',
      'webhook_url',
    ]);
  });

  test('every burn alert belongs to a listed SLO; an environment-wide SLO spans two datasets', () => {
    const ids = new Set(data.slos.map((s) => s.id));
    assert.deepEqual(
      data.burnAlerts.filter((a) => !ids.has(a.slo_id)).map((a) => a.id),
      [],
    );
    const env = data.slos.find((s) => s.id === DEMO.slos.envUptime);
    assert.equal(env?.dataset, ENVIRONMENT_WIDE);
    assert.deepEqual(env.dataset_slugs, [DEMO.datasets.gateway, DEMO.datasets.checkout]);
    assert.ok(data.slos.every((s) => s.name !== '' && s.time_period_days > 0 && s.target_per_million <= 999_999));
  });

  test('named saved queries on two datasets, the environment and the hostile strings name saved queries of their scope; one saved query has two names', () => {
    for (const a of data.queryAnnotations) {
      assert.ok(
        data.savedQueries.some((q) => q.id === a.query_id && q.dataset === a.dataset),
        a.id,
      );
    }
    assert.deepEqual(
      [...new Set(data.queryAnnotations.map((a) => a.dataset))].sort(),
      [ENVIRONMENT_WIDE, DEMO.datasets.checkout, DEMO.datasets.gateway, DEMO.datasets.hostile].sort(),
    );
    const onGw5xx = data.queryAnnotations.filter((a) => a.query_id === DEMO.savedQueries.gw5xx);
    assert.deepEqual(onGw5xx.map((a) => a.source).sort(), ['board', 'query']);
  });

  test('the traced dataset has definitions pre-set, each naming an existing column', () => {
    const gw = data.datasets.find((d) => d.slug === DEMO.datasets.gateway);
    assert.ok(gw);
    const set = Object.values(data.definitions[DEMO.datasets.gateway] ?? {}).filter((v) => v !== null);
    assert.ok(set.length >= 6);
    for (const ref of set) assert.ok(hasColumn(data, gw, ref.name), ref.name);
  });

  test('every hostile string appears in the data', () => {
    const text = JSON.stringify(data);
    for (const s of Object.values(HOSTILE)) assert.ok(text.includes(JSON.stringify(s).slice(1, -1)), s);
  });

  test('the hostile strings live in a dataset of their own, sorted last: nothing of any other dataset holds one', () => {
    const hs = DEMO.datasets.hostile;
    assert.equal([...data.datasets.map((d) => d.slug)].sort().at(-1), hs, 'sorted last');
    const hostileSlos = new Set(data.slos.filter((s) => s.dataset === hs).map((s) => s.id));
    const elsewhere = {
      datasets: data.datasets.filter((d) => d.slug !== hs),
      columns: Object.entries(data.columns).filter(([slug]) => slug !== hs),
      triggers: data.triggers.filter((t) => t.dataset_slug !== hs),
      savedQueries: data.savedQueries.filter((q) => q.dataset !== hs),
      queryAnnotations: data.queryAnnotations.filter((a) => a.dataset !== hs),
      slos: data.slos.filter((s) => s.dataset !== hs),
      burnAlerts: data.burnAlerts.filter((a) => !hostileSlos.has(a.slo_id)),
      recipients: data.recipients,
      apiKeys: data.apiKeys,
    };
    const text = JSON.stringify(elsewhere);
    const found = Object.values(HOSTILE).filter((s) => text.includes(JSON.stringify(s).slice(1, -1)));
    assert.deepEqual(found, []);
  });

  test('addWideDataset makes a dataset of N generated columns', () => {
    const d = demoData();
    const record = addWideDataset(d, 'wide-3', 3);
    assert.deepEqual(
      columnsOf(d, record).map((c) => c.key_name),
      ['gen.col_00001', 'gen.col_00002', 'gen.col_00003'],
    );
    assert.throws(() => addWideDataset(d, 'bad', -1), RangeError);
  });
});
