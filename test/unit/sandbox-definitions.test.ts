import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFINITION_TYPE_NAMES, DatasetDefinitions } from '../../src/api/schemas';
import { DEMO, SANDBOX_CREDENTIALS } from '../../src/sandbox';
import { assertProblem, assertValidation, startTestSandbox, type TestSandbox } from './sandbox-helpers';

// Spec 4.8 and the dataset-definition facts of the service-facts note, against the sandbox over raw HTTP.

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 1000 });
});
after(() => sb.handle.close());
beforeEach(async () => {
  await sb.control('POST', 'reset');
});

const GW = DEMO.datasets.gateway;
const patch = (body: unknown, dataset: string = GW, headers?: Record<string, string>) =>
  sb.v1('PATCH', `/1/dataset_definitions/${dataset}`, body, headers);

describe('PATCH /1/dataset_definitions/<dataset> (4.8)', () => {
  test('an empty body changes nothing and answers the full map of all 16 types', async () => {
    const before = JSON.stringify(sb.handle.state.definitions);
    const res = await patch({});
    assert.equal(res.status, 200, res.text);
    const map = DatasetDefinitions.parse(res.json());
    assert.deepEqual(Object.keys(map), DEFINITION_TYPE_NAMES);
    assert.deepEqual(map.trace_id, { name: 'trace.trace_id', column_type: 'column' });
    assert.equal(map.log_message, null);
    assert.equal(JSON.stringify(sb.handle.state.definitions), before);
  });

  test('only the types sent change', async () => {
    const map = DatasetDefinitions.parse((await patch({ log_message: { name: 'notes' } })).json());
    assert.deepEqual(map.log_message, { name: 'notes', column_type: 'column' });
    assert.deepEqual(map.trace_id, { name: 'trace.trace_id', column_type: 'column' });
    assert.equal(map.log_severity, null);
  });

  test('name "" clears a definition to null', async () => {
    const map = DatasetDefinitions.parse((await patch({ route: { name: '' } })).json());
    assert.equal(map.route, null);
  });

  test('column_type in the request is ignored: the service decides it', async () => {
    const map = DatasetDefinitions.parse(
      (
        await patch({
          status: { name: 'status_code', column_type: 'derived_column' },
          error: { name: 'dc.is_slow', column_type: 'column' },
        })
      ).json(),
    );
    assert.deepEqual(map.status, { name: 'status_code', column_type: 'column' });
    assert.deepEqual(map.error, { name: 'dc.is_slow', column_type: 'derived_column' });
  });

  test('any column_type is accepted and ignored: the spec lists values seen, not a closed set', async () => {
    const res = await patch({
      status: { name: 'status_code', column_type: 'metric' },
      route: { name: 'http.route', column_type: 7 },
    });
    assert.equal(res.status, 200, res.text);
    const map = res.json() as Record<string, unknown>;
    assert.deepEqual(
      [map.status, map.route],
      [
        { name: 'status_code', column_type: 'column' },
        { name: 'http.route', column_type: 'column' },
      ],
    );
  });

  test('an unknown column is a legacy-shape 422 {"error"} and nothing changes', async () => {
    const before = JSON.stringify(sb.handle.state.definitions);
    const res = await patch({ log_message: { name: 'notes' }, span_id: { name: 'no.such.column' } });
    assert.equal(res.status, 422);
    assert.equal(res.contentType, 'application/json');
    const body = res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['error']);
    assert.match(String(body.error), /no\.such\.column/);
    assert.equal(JSON.stringify(sb.handle.state.definitions), before);
  });

  test('an unknown definition type is a 422 problem naming it', async () => {
    assertValidation(await patch({ colour: { name: 'notes' } }), sb.base, [{ field: 'colour', code: 'invalid' }]);
  });

  test('a column reference without name is a 422 missing', async () => {
    assertValidation(await patch({ user: { column_type: 'column' } }), sb.base, [
      { field: 'user.name', code: 'missing' },
    ]);
  });

  test('a generated column of a wide dataset may be named', async () => {
    const map = DatasetDefinitions.parse((await patch({ name: { name: 'gen.col_01234' } }, DEMO.datasets.wide)).json());
    assert.deepEqual(map.name, { name: 'gen.col_01234', column_type: 'column' });
  });

  test('__all__ is refused with a 404 problem', async () => {
    assertProblem(await patch({}, '__all__'), 404, sb.base, 'not-found');
  });

  test('an unknown dataset is a 404 problem', async () => {
    assertProblem(await patch({}, 'no-such-dataset'), 404, sb.base, 'not-found');
  });

  test('the read-only configuration key gets a 403', async () => {
    assertProblem(
      await patch({}, GW, { 'X-Service-Team': SANDBOX_CREDENTIALS.readOnlyConfigKey }),
      403,
      sb.base,
      'forbidden',
    );
  });

  test('an empty request body is a 400', async () => {
    assertProblem(await patch(''), 400, sb.base, 'unparseable-body');
  });
});
