// Trigger writes over raw HTTP (service facts, "Writing triggers"): create, read one, replace, delete, with
// the service's answers, defaults and refusals. The rules are the spec's (2.6, 2.6.1, part 8) and the facts'.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO } from '../../src/sandbox';
import { assertProblem, startTestSandbox, testClock, type TestSandbox } from './sandbox-helpers';

const GW = DEMO.datasets.gateway;
const CO = DEMO.datasets.checkout;
const MH = DEMO.datasets.metrics;
const NOW = '2025-06-02T12:00:00.000Z';
const clock = testClock(NOW);

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 100_000, clock: clock.now });
});
beforeEach(async () => {
  clock.set(NOW);
  assert.equal((await sb.control('POST', 'reset')).status, 200);
});
after(() => sb.handle.close());

type Json = Record<string, unknown>;
const BODY = {
  name: 'Errors',
  threshold: { op: '>', value: 5 },
  frequency: 300,
  recipients: [{ id: DEMO.recipients.emailOncall }],
  query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
};
const withQuery = (query: Json, extra: Json = {}): Json => ({ ...BODY, ...extra, query });
const snapshot = () => JSON.stringify(sb.handle.state);
const listed = async (scope: string) => (await sb.v1('GET', `/1/triggers/${scope}`)).json() as Json[];

describe('POST /1/triggers/<dataset>', () => {
  test('201 with the trigger: a new id, every default, triggered false, both timestamps now, and a Location naming it', async () => {
    const res = await sb.v1('POST', `/1/triggers/${GW}`, BODY);
    assert.equal(res.status, 201, res.text);
    const made = res.json() as Json;
    assert.match(String(made.id), /^trig_\d{6}$/);
    assert.equal(res.headers.location, `${sb.base}/1/triggers/${GW}/${String(made.id)}`);
    assert.deepEqual(made, {
      id: made.id,
      dataset_slug: GW,
      name: 'Errors',
      description: '',
      tags: [],
      threshold: { op: '>', value: 5, exceeded_limit: 1 },
      frequency: 300,
      alert_type: 'on_change',
      disabled: false,
      triggered: false,
      recipients: [{ id: DEMO.recipients.emailOncall, type: 'email', target: 'oncall@example.com' }],
      evaluation_schedule_type: 'frequency',
      query: BODY.query,
      query_id: made.query_id,
      created_at: NOW,
      updated_at: NOW,
    });
  });

  test('an inline query is saved: the trigger lists query and query_id, and the saved query reads back', async () => {
    const made = (await sb.v1('POST', `/1/triggers/${GW}`, BODY)).json() as Json;
    const inList = (await listed(GW)).find((t) => t.id === made.id);
    assert.deepEqual([inList?.query, inList?.query_id], [BODY.query, made.query_id]);
    const saved = await sb.v1('GET', `/1/queries/${GW}/${String(made.query_id)}`);
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(saved.json(), { ...BODY.query, id: made.query_id });
  });

  test('a trigger on a saved query lists query_id alone', async () => {
    const { query: _inline, ...body } = BODY;
    const made = (
      await sb.v1('POST', `/1/triggers/${GW}`, { ...body, query_id: DEMO.savedQueries.gw5xx, frequency: 600 })
    ).json() as Json;
    assert.equal(made.query_id, DEMO.savedQueries.gw5xx);
    assert.equal('query' in made, false);
  });

  test('read-only and unknown members are ignored', async () => {
    const res = await sb.v1('POST', `/1/triggers/${GW}`, {
      ...BODY,
      id: 'mine',
      dataset_slug: CO,
      triggered: true,
      created_at: '2020-01-01T00:00:00Z',
      updated_at: '2020-01-01T00:00:00Z',
      auto_investigate: true,
    });
    const made = res.json() as Json;
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      [
        made.id === 'mine',
        made.dataset_slug,
        made.triggered,
        made.created_at,
        made.updated_at,
        'auto_investigate' in made,
      ],
      [false, GW, false, NOW, NOW, false],
    );
  });

  test('members sent as null count as left out', async () => {
    const res = await sb.v1('POST', `/1/triggers/${GW}`, {
      ...BODY,
      query_id: null,
      baseline_details: null,
      description: null,
    });
    assert.equal(res.status, 201, res.text);
    assert.equal((res.json() as Json).description, '');
  });

  test('__all__ makes an environment-wide trigger, listed with dataset_slug "all" for __all__ only', async () => {
    const res = await sb.v1('POST', '/1/triggers/__all__', BODY);
    assert.equal(res.status, 201, res.text);
    const made = res.json() as Json;
    assert.equal(made.dataset_slug, 'all');
    assert.equal(res.headers.location, `${sb.base}/1/triggers/__all__/${String(made.id)}`);
    assert.ok((await listed('__all__')).some((t) => t.id === made.id));
    assert.equal(
      (await listed(GW)).some((t) => t.id === made.id),
      false,
    );
    assert.equal((await sb.v1('GET', `/1/queries/__all__/${String(made.query_id)}`)).status, 200);
  });

  test('accepted: having-only calculations, a formula over named aggregates, metrics granularity and HISTOGRAM_COUNT, a window, a baseline', async () => {
    const accepted: [string, Json][] = [
      [
        GW,
        withQuery({
          calculations: [{ op: 'COUNT' }, { op: 'P99', column: 'duration_ms' }],
          havings: [{ calculate_op: 'P99', column: 'duration_ms', op: '>', value: 1000 }],
          time_range: 600,
        }),
      ],
      [
        CO,
        withQuery({
          calculations: [
            { op: 'COUNT', name: 'all' },
            { op: 'COUNT', name: 'bad', filters: [{ column: 'error', op: '=', value: true }] },
          ],
          formulas: [{ name: 'ratio', expression: 'DIV($bad, $all)' }],
          havings: [{ column: 'ratio', op: '>', value: 0.1 }],
          time_range: 600,
        }),
      ],
      [
        MH,
        withQuery({
          calculations: [{ op: 'AVG', column: 'system.cpu.utilization' }],
          granularity: 60,
          time_range: 1200,
        }),
      ],
      [MH, withQuery({ calculations: [{ op: 'HISTOGRAM_COUNT', column: DEMO.columns.histogram }], time_range: 300 })],
      [
        GW,
        {
          ...BODY,
          evaluation_schedule_type: 'window',
          evaluation_schedule: {
            window: { days_of_week: ['monday', 'sunday'], start_time: '22:00', end_time: '06:00' },
          },
        },
      ],
      [
        GW,
        {
          ...BODY,
          frequency: 900,
          query: { calculations: [{ op: 'COUNT' }], time_range: 1800 },
          threshold: { op: '<=', value: -10, exceeded_limit: 5 },
          baseline_details: { type: 'value', offset_minutes: 40320 },
        },
      ],
    ];
    for (const [dataset, body] of accepted) {
      const res = await sb.v1('POST', `/1/triggers/${dataset}`, body);
      assert.equal(res.status, 201, `${JSON.stringify(body)}: ${res.text}`);
    }
  });
});

describe('GET /1/triggers/<dataset>/<id>', () => {
  test('200 with the trigger as listed', async () => {
    const res = await sb.v1('GET', `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.json(),
      (await listed(GW)).find((t) => t.id === DEMO.triggers.gwErrors),
    );
  });

  test('404 for an unknown id, a trigger of another dataset, a dataset trigger through __all__, and an unknown dataset', async () => {
    for (const path of [
      `${GW}/trig_nope`,
      `${CO}/${DEMO.triggers.gwErrors}`,
      `__all__/${DEMO.triggers.gwErrors}`,
      `nope/${DEMO.triggers.gwErrors}`,
    ]) {
      assertProblem(await sb.v1('GET', `/1/triggers/${path}`), 404, sb.base, 'not-found');
    }
    assert.equal((await sb.v1('GET', `/1/triggers/__all__/${DEMO.triggers.envVolume}`)).status, 200);
  });
});

describe('PUT /1/triggers/<dataset>/<id>', () => {
  const put = (id: string, body: Json, dataset: string = GW) => sb.v1('PUT', `/1/triggers/${dataset}/${id}`, body);

  test('is a replacement: every member left out takes its default (schedule, baseline, alert type, frequency, tags, description, recipients, exceeded_limit)', async () => {
    const before = sb.handle.state.triggers.find((t) => t.id === DEMO.triggers.gwWindow);
    assert.equal(before?.evaluation_schedule_type, 'window');
    const res = await put(DEMO.triggers.gwWindow, {
      name: 'Bare',
      threshold: { op: '>', value: 1 },
      query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
    });
    assert.equal(res.status, 200, res.text);
    const t = res.json() as Json;
    assert.deepEqual(
      [
        t.description,
        t.tags,
        t.threshold,
        t.frequency,
        t.alert_type,
        t.evaluation_schedule_type,
        'evaluation_schedule' in t,
        t.recipients,
      ],
      ['', [], { op: '>', value: 1, exceeded_limit: 1 }, 900, 'on_change', 'frequency', false, []],
    );
    const on = await put(DEMO.triggers.gwOnTrue, {
      name: 'Bare',
      threshold: { op: '>', value: 1 },
      query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
    });
    assert.equal((on.json() as Json).alert_type, 'on_change');
  });

  test('disabled left out keeps the stored value; given, it is set', async () => {
    const id = DEMO.triggers.gwLatencyDisabled;
    const body = { ...BODY, frequency: 900, query: { calculations: [{ op: 'COUNT' }], time_range: 900 } };
    assert.equal(((await put(id, body)).json() as Json).disabled, true);
    assert.equal(((await put(id, { ...body, disabled: false })).json() as Json).disabled, false);
    assert.equal(((await put(id, body)).json() as Json).disabled, false);
    assert.equal(((await put(DEMO.triggers.gwErrors, body)).json() as Json).disabled, false);
  });

  test('baseline_details {} clears a baseline, and so does leaving it out; a baseline given is kept', async () => {
    const id = DEMO.triggers.gwBaseline;
    const body = {
      ...BODY,
      threshold: { op: '>=', value: 50 },
      frequency: 900,
      query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
    };
    const kept = (
      await put(id, { ...body, baseline_details: { type: 'percentage', offset_minutes: 10080 } })
    ).json() as Json;
    assert.deepEqual(kept.baseline_details, { type: 'percentage', offset_minutes: 10080 });
    assert.equal('baseline_details' in ((await put(id, { ...body, baseline_details: {} })).json() as Json), false);
    await sb.control('POST', 'reset');
    assert.equal('baseline_details' in ((await put(id, body)).json() as Json), false);
  });

  test('updated_at moves on, strictly later even within the same millisecond; id, dataset_slug, triggered and created_at stay', async () => {
    const id = DEMO.triggers.gwErrors;
    const first = (
      await put(id, { ...BODY, id: 'other', triggered: false, created_at: NOW, updated_at: '2030-01-01T00:00:00Z' })
    ).json() as Json;
    assert.deepEqual(
      [first.id, first.dataset_slug, first.triggered, first.created_at, first.updated_at],
      [id, GW, true, '2024-03-01T10:00:00.000Z', NOW],
    );
    const second = (await put(id, BODY)).json() as Json;
    assert.equal(second.updated_at, '2025-06-02T12:00:00.001Z');
    clock.advance(60_000);
    assert.equal(((await put(id, BODY)).json() as Json).updated_at, '2025-06-02T12:01:00.000Z');
  });

  test('an unchanged inline query keeps its query_id; a changed one is saved anew; a query_id replaces the inline query', async () => {
    const id = DEMO.triggers.gwErrors;
    const a = (await put(id, BODY)).json() as Json;
    const b = (await put(id, BODY)).json() as Json;
    assert.equal(b.query_id, a.query_id);
    const c = (await put(id, withQuery({ calculations: [{ op: 'COUNT' }], time_range: 900 }))).json() as Json;
    assert.notEqual(c.query_id, a.query_id);
    const { query: _inline, ...bare } = BODY;
    const d = (await put(id, { ...bare, frequency: 600, query_id: DEMO.savedQueries.gw5xx })).json() as Json;
    assert.deepEqual(['query' in d, d.query_id], [false, DEMO.savedQueries.gw5xx]);
  });

  test('every demo trigger, written back with its writable members, is accepted and listed as before', async () => {
    for (const t of structuredClone(sb.handle.state.triggers)) {
      const { id, dataset_slug: slug, triggered: _t, created_at: _c, updated_at: _u, query_id, ...writable } = t;
      const body = writable.query === undefined ? { ...writable, query_id } : writable;
      const scope = slug === 'all' ? '__all__' : slug;
      const res = await put(id, body, scope);
      assert.equal(res.status, 200, `${id}: ${res.text}`);
      assert.deepEqual({ ...(res.json() as Json), updated_at: t.updated_at }, t, id);
    }
  });

  test("404 for an unknown trigger, another dataset's, or an unknown dataset; nothing changes", async () => {
    const before = snapshot();
    for (const path of [
      `${GW}/trig_nope`,
      `${CO}/${DEMO.triggers.gwErrors}`,
      `__all__/${DEMO.triggers.gwErrors}`,
      `nope/x`,
    ]) {
      assertProblem(await sb.v1('PUT', `/1/triggers/${path}`, BODY), 404, sb.base, 'not-found');
    }
    assert.equal(snapshot(), before);
  });
});

describe('DELETE /1/triggers/<dataset>/<id>', () => {
  test('204 with an empty body; the trigger is gone, and a second delete is a 404', async () => {
    const path = `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`;
    const res = await sb.v1('DELETE', path);
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assertProblem(await sb.v1('GET', path), 404, sb.base, 'not-found');
    assert.equal(
      (await listed(GW)).some((t) => t.id === DEMO.triggers.gwErrors),
      false,
    );
    assertProblem(await sb.v1('DELETE', path), 404, sb.base, 'not-found');
  });

  test("another dataset's trigger through this path, or a dataset trigger through __all__, is a 404 and stays", async () => {
    assertProblem(await sb.v1('DELETE', `/1/triggers/${CO}/${DEMO.triggers.gwErrors}`), 404, sb.base, 'not-found');
    assertProblem(await sb.v1('DELETE', `/1/triggers/__all__/${DEMO.triggers.gwErrors}`), 404, sb.base, 'not-found');
    assert.equal((await sb.v1('DELETE', `/1/triggers/__all__/${DEMO.triggers.envVolume}`)).status, 204);
    assert.ok((await listed(GW)).some((t) => t.id === DEMO.triggers.gwErrors));
  });
});
