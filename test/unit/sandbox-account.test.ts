// What the account holds, over raw HTTP (service facts, "Reading what the account holds"): datasets, SLOs,
// recipients and named saved queries, in exactly the members the facts list.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, RECIPIENT_SECRETS } from '../../src/sandbox';
import { assertProblem, startTestSandbox, type TestSandbox } from './sandbox-helpers';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 100_000 });
});
after(() => sb.handle.close());

type Json = Record<string, unknown>;
const list = async (path: string): Promise<Json[]> => {
  const res = await sb.v1('GET', path);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.contentType, 'application/json');
  return res.json() as Json[];
};
const keys = (o: Json) => Object.keys(o).sort();
const isDate = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));

describe('GET /1/datasets', () => {
  test('every dataset of the environment, each with exactly the members of the facts', async () => {
    const datasets = await list('/1/datasets');
    assert.deepEqual(
      datasets.map((d) => d.slug),
      sb.handle.info.datasets,
    );
    for (const d of datasets) {
      assert.deepEqual(keys(d), [
        'created_at',
        'description',
        'expand_json_depth',
        'last_written_at',
        'name',
        'regular_columns_count',
        'settings',
        'slug',
      ]);
      assert.equal(typeof d.name, 'string');
      assert.equal(typeof d.description, 'string');
      assert.equal(typeof d.expand_json_depth, 'number');
      assert.ok(isDate(d.created_at));
      assert.deepEqual(keys(d.settings as Json), ['delete_protected']);
    }
  });

  test('a dataset that received data has its last write and column count; one that never did has null for both', async () => {
    const datasets = await list('/1/datasets');
    const gw = datasets.find((d) => d.slug === DEMO.datasets.gateway);
    assert.deepEqual(
      [gw?.last_written_at, gw?.regular_columns_count, gw?.settings],
      ['2024-04-02T16:45:00.000Z', 19, { delete_protected: true }],
    );
    assert.equal(datasets.find((d) => d.slug === DEMO.datasets.wide)?.regular_columns_count, DEMO.wideColumnCount);
    const empty = datasets.find((d) => d.slug === DEMO.datasets.empty);
    assert.deepEqual([empty?.last_written_at, empty?.regular_columns_count], [null, null]);
    assert.deepEqual(await list(`/1/columns/${DEMO.datasets.empty}`), []);
  });
});

describe('GET /1/slos/<dataset>', () => {
  const SLO_KEYS = [
    'created_at',
    'dataset_slugs',
    'description',
    'id',
    'name',
    'reset_at',
    'sli',
    'tags',
    'target_per_million',
    'time_period_days',
    'updated_at',
  ];

  test("a dataset's SLOs, with the members of the facts; their ids are the slo_ids of its burn alerts", async () => {
    const slos = await list(`/1/slos/${DEMO.datasets.gateway}`);
    assert.deepEqual(
      slos.map((s) => s.id),
      [DEMO.slos.gwAvailability],
    );
    const [slo = {}] = slos;
    assert.deepEqual(keys(slo), SLO_KEYS);
    assert.deepEqual(
      [slo.name, slo.sli, slo.time_period_days, slo.target_per_million, slo.reset_at, slo.dataset_slugs],
      ['Gateway availability', { alias: 'dc.is_slow' }, 30, 999_000, null, [DEMO.datasets.gateway]],
    );
    const alerts = await list(`/1/burn_alerts/${DEMO.datasets.gateway}?slo_id=${String(slo.id)}`);
    assert.equal(alerts.length, 2);
  });

  test('__all__ lists the environment-wide SLOs, one spanning two datasets', async () => {
    const slos = await list('/1/slos/__all__');
    assert.deepEqual(
      slos.map((s) => [s.id, s.dataset_slugs]),
      [[DEMO.slos.envUptime, [DEMO.datasets.gateway, DEMO.datasets.checkout]]],
    );
    assert.equal((await list(`/1/burn_alerts/__all__?slo_id=${DEMO.slos.envUptime}`)).length, 2);
  });

  test('every SLO of the sandbox is listed under its dataset, with a target below one million and a name', async () => {
    const listed = [];
    for (const scope of [...sb.handle.info.datasets, '__all__']) listed.push(...(await list(`/1/slos/${scope}`)));
    assert.deepEqual(listed.map((s) => s.id).sort(), sb.handle.info.slos.map((s) => s.id).sort());
    for (const s of listed)
      assert.ok(
        typeof s.target_per_million === 'number' && s.target_per_million <= 999_999 && s.name !== '',
        String(s.id),
      );
    assert.deepEqual(await list(`/1/slos/${DEMO.datasets.empty}`), []);
  });

  test('an unknown dataset is a 404', async () => {
    assertProblem(await sb.v1('GET', '/1/slos/no-such-dataset'), 404, sb.base, 'not-found');
  });
});

describe('GET /1/recipients', () => {
  test('every type, each with id, type, details, created_at and updated_at', async () => {
    const recipients = await list('/1/recipients');
    assert.deepEqual(recipients.map((r) => r.type).sort(), [
      'email',
      'email',
      'msteams',
      'msteams_workflow',
      'pagerduty',
      'slack',
      'webhook',
    ]);
    for (const r of recipients) {
      assert.deepEqual(keys(r), ['created_at', 'details', 'id', 'type', 'updated_at']);
      assert.ok(isDate(r.created_at) && isDate(r.updated_at));
    }
  });

  test('details by type, credentials included as the service sends them', async () => {
    const byType = new Map((await list('/1/recipients')).map((r) => [r.type, r.details as Json]));
    assert.deepEqual(keys(byType.get('email') ?? {}), ['email_address']);
    assert.deepEqual(byType.get('slack'), { slack_channel: '#incidents' });
    assert.deepEqual(byType.get('pagerduty'), {
      pagerduty_integration_name: 'Primary on-call',
      pagerduty_integration_key: RECIPIENT_SECRETS.pagerdutyKey,
    });
    const webhook = byType.get('webhook') ?? {};
    assert.deepEqual(keys(webhook), [
      'webhook_headers',
      'webhook_name',
      'webhook_payloads',
      'webhook_secret',
      'webhook_url',
    ]);
    assert.deepEqual(
      [webhook.webhook_url, webhook.webhook_secret, webhook.webhook_headers],
      [
        RECIPIENT_SECRETS.webhookUrl,
        RECIPIENT_SECRETS.webhookSecret,
        [{ header: 'Authorization', value: RECIPIENT_SECRETS.webhookHeader }],
      ],
    );
    assert.deepEqual(keys(byType.get('msteams') ?? {}), ['webhook_name', 'webhook_url']);
    assert.deepEqual(keys(byType.get('msteams_workflow') ?? {}), ['webhook_name', 'webhook_url']);
  });

  test('every recipient id a trigger or burn alert names is listed', async () => {
    const listed = new Set((await list('/1/recipients')).map((r) => r.id));
    const named = (await list('/1/triggers/__all__')).flatMap((t) => (t.recipients ?? []) as Json[]);
    for (const slo of sb.handle.info.slos) {
      for (const a of await list(`/1/burn_alerts/${slo.dataset}?slo_id=${slo.id}`)) {
        const one = (await sb.v1('GET', `/1/burn_alerts/${slo.dataset}/${String(a.id)}`)).json() as Json;
        named.push(...(one.recipients as Json[]));
      }
    }
    const ids = named.flatMap((r) => (typeof r.id === 'string' ? [r.id] : []));
    assert.ok(ids.length >= 5);
    assert.deepEqual(
      ids.filter((id) => !listed.has(id)),
      [],
    );
  });
});

describe('GET /1/query_annotations/<dataset>', () => {
  const ANNOTATION_KEYS = ['created_at', 'description', 'id', 'name', 'query_id', 'source', 'updated_at'];

  test('the named saved queries of a dataset; one saved query carries two names, from a query and a board', async () => {
    const annotations = await list(`/1/query_annotations/${DEMO.datasets.gateway}`);
    for (const a of annotations) assert.deepEqual(keys(a), ANNOTATION_KEYS);
    assert.deepEqual(
      annotations.filter((a) => a.query_id === DEMO.savedQueries.gw5xx).map((a) => a.source),
      ['query', 'board'],
    );
    assert.deepEqual(
      (await list(`/1/query_annotations/${DEMO.datasets.checkout}`)).map((a) => a.query_id),
      [DEMO.savedQueries.coPayments],
    );
    assert.deepEqual(
      (await list('/1/query_annotations/__all__')).map((a) => a.query_id),
      [DEMO.savedQueries.envCount],
    );
    assert.deepEqual(await list(`/1/query_annotations/${DEMO.datasets.empty}`), []);
  });

  test('each names a saved query that reads back from its dataset', async () => {
    for (const scope of [...sb.handle.info.datasets, '__all__']) {
      for (const a of await list(`/1/query_annotations/${scope}`)) {
        assert.equal(
          (await sb.v1('GET', `/1/queries/${scope}/${String(a.query_id)}`)).status,
          200,
          `${scope} ${String(a.id)}`,
        );
      }
    }
  });

  test('an unknown dataset is a 404', async () => {
    assertProblem(await sb.v1('GET', '/1/query_annotations/no-such-dataset'), 404, sb.base, 'not-found');
  });
});

describe('the account routes as service routes', () => {
  test('without a key: 401 legacy; another method: 405 with Allow GET', async () => {
    for (const path of [
      '/1/datasets',
      `/1/slos/${DEMO.datasets.gateway}`,
      '/1/recipients',
      `/1/query_annotations/${DEMO.datasets.gateway}`,
    ]) {
      const res = await sb.v1('GET', path, undefined, { 'X-Service-Team': 'wrong' });
      assert.deepEqual([res.status, res.json()], [401, { error: 'unknown API key - check your credentials' }], path);
      const post = await sb.v1('POST', path, {});
      assertProblem(post, 405, sb.base, 'method-not-allowed');
      assert.equal(post.headers.allow, 'GET', path);
    }
  });
});
