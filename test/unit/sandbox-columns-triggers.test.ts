import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { COLUMN_TYPES, Column, ColumnList, TriggerList } from '../../src/api/schemas';
import { DEMO } from '../../src/sandbox';
import { assertProblem, assertValidation, startTestSandbox, type TestSandbox } from './sandbox-helpers';

// Spec 4.6 and 4.7 against the sandbox over raw HTTP.

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 1000 });
});
after(() => sb.handle.close());

const GW = DEMO.datasets.gateway;

describe('GET /1/columns/<dataset> (4.6)', () => {
  test('lists every column of the dataset, hidden ones included', async () => {
    const res = await sb.v1('GET', `/1/columns/${GW}`);
    assert.equal(res.status, 200, res.text);
    const columns = ColumnList.parse(res.json());
    assert.equal(columns.length, sb.handle.state.columns[GW]?.length);
    assert.ok(columns.some((c) => c.key_name === DEMO.columns.hidden && c.hidden));
  });

  test('a column that never received data is listed without last_written (an optional string: omitted, never null)', async () => {
    for (const path of [`/1/columns/${GW}`, `/1/columns/${GW}?key_name=${DEMO.columns.neverWritten}`]) {
      const body = (await sb.v1('GET', path)).json();
      const column = (Array.isArray(body) ? body : [body]).find(
        (c: { key_name: string }) => c.key_name === DEMO.columns.neverWritten,
      ) as Record<string, unknown>;
      assert.ok(column, path);
      assert.equal('last_written' in column, false, path);
    }
  });

  test('the demo columns cover every column type, histogram in the metrics dataset', async () => {
    const types = new Set<string>();
    for (const d of [GW, DEMO.datasets.checkout, DEMO.datasets.metrics]) {
      for (const c of ColumnList.parse((await sb.v1('GET', `/1/columns/${d}`)).json())) types.add(c.type);
    }
    assert.deepEqual([...types].sort(), [...COLUMN_TYPES].sort());
    const histogram = Column.parse(
      (await sb.v1('GET', `/1/columns/${DEMO.datasets.metrics}?key_name=${DEMO.columns.histogram}`)).json(),
    );
    assert.equal(histogram.type, 'histogram');
  });

  test('?key_name= answers one object', async () => {
    const res = await sb.v1('GET', `/1/columns/${GW}?key_name=duration_ms`);
    assert.equal(res.status, 200);
    const column = Column.parse(res.json());
    assert.deepEqual([column.key_name, column.type], ['duration_ms', 'float']);
  });

  test('?key_name= finds a column with a hostile name when it is URL-encoded', async () => {
    const res = await sb.v1(
      'GET',
      `/1/columns/${DEMO.datasets.hostile}?key_name=${encodeURIComponent(DEMO.columns.hostile)}`,
    );
    assert.equal(Column.parse(res.json()).key_name, DEMO.columns.hostile);
  });

  test('?key_name= of no column is a 404 problem', async () => {
    assertProblem(await sb.v1('GET', `/1/columns/${GW}?key_name=nope`), 404, sb.base, 'not-found');
  });

  test('?key_name= empty is a 422', async () => {
    assertValidation(await sb.v1('GET', `/1/columns/${GW}?key_name=`), sb.base, [
      { field: 'key_name', code: 'invalid' },
    ]);
  });

  test('?key_name= of 256 characters is a 422 (part 8: 1 to 255); 255 is looked up', async () => {
    assertValidation(await sb.v1('GET', `/1/columns/${GW}?key_name=${'k'.repeat(256)}`), sb.base, [
      { field: 'key_name', code: 'invalid' },
    ]);
    assertProblem(await sb.v1('GET', `/1/columns/${GW}?key_name=${'k'.repeat(255)}`), 404, sb.base, 'not-found');
  });

  test('bench-wide has 2,000 generated columns', async () => {
    const columns = ColumnList.parse((await sb.v1('GET', `/1/columns/${DEMO.datasets.wide}`)).json());
    assert.equal(columns.length, DEMO.wideColumnCount);
    assert.equal(columns[1999]?.key_name, 'gen.col_02000');
  });

  test('__all__ lists the columns of every dataset', async () => {
    const columns = ColumnList.parse((await sb.v1('GET', '/1/columns/__all__')).json());
    const stored = Object.values(sb.handle.state.columns).reduce((n, cs) => n + cs.length, 0);
    assert.equal(columns.length, stored + DEMO.wideColumnCount);
  });

  test('an empty dataset lists []', async () => {
    assert.deepEqual((await sb.v1('GET', `/1/columns/${DEMO.datasets.empty}`)).json(), []);
  });

  test('an unknown dataset is a 404 problem', async () => {
    assertProblem(await sb.v1('GET', '/1/columns/no-such-dataset'), 404, sb.base, 'not-found');
  });
});

describe('GET /1/triggers/<dataset> (4.7)', () => {
  test('lists the triggers of the dataset as an array', async () => {
    const res = await sb.v1('GET', `/1/triggers/${GW}`);
    assert.equal(res.status, 200);
    const triggers = TriggerList.parse(res.json());
    assert.deepEqual(
      triggers.map((t) => t.id),
      sb.handle.state.triggers.filter((t) => t.dataset_slug === GW).map((t) => t.id),
    );
    assert.ok(triggers.every((t) => t.dataset_slug === GW));
  });

  test('__all__ lists every trigger; environment-wide ones carry dataset_slug "all"', async () => {
    const triggers = TriggerList.parse((await sb.v1('GET', '/1/triggers/__all__')).json());
    assert.equal(triggers.length, sb.handle.state.triggers.length);
    assert.deepEqual(
      triggers.filter((t) => t.dataset_slug === 'all').map((t) => t.id),
      [DEMO.triggers.envVolume, DEMO.triggers.envSavedQuery],
    );
  });

  test('the demo triggers come in every state', async () => {
    const triggers = TriggerList.parse((await sb.v1('GET', '/1/triggers/__all__')).json());
    assert.ok(triggers.some((t) => t.triggered === true));
    assert.ok(triggers.some((t) => t.disabled === true));
    assert.ok(triggers.some((t) => t.alert_type === 'on_true'));
    assert.ok(triggers.some((t) => t.evaluation_schedule_type === 'window' && t.evaluation_schedule));
    assert.ok(triggers.some((t) => t.baseline_details));
    assert.ok(triggers.some((t) => typeof t.query_id === 'string'));
  });

  test('an empty dataset lists []', async () => {
    assert.deepEqual((await sb.v1('GET', `/1/triggers/${DEMO.datasets.empty}`)).json(), []);
  });

  test('an unknown dataset is a 404 problem', async () => {
    assertProblem(await sb.v1('GET', '/1/triggers/no-such-dataset'), 404, sb.base, 'not-found');
  });
});
