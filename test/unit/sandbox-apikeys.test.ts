import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CreatedApiKeyDocument, UpdatedApiKeyDocument } from '../../src/api/schemas';
import { DEMO } from '../../src/sandbox';
import { assertJsonApiError, call, startTestSandbox, testClock, type TestSandbox } from './sandbox-helpers';

// Spec 4.1 and 4.2 against the sandbox, over raw HTTP.

const clock = testClock('2025-06-01T12:00:00.000Z');
let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ clock: clock.now, rateLimit: 1000 });
});
after(() => sb.handle.close());

const KEYS = `/2/teams/${DEMO.team}/api-keys`;

function createBody(name: string, extra: Record<string, unknown> = {}, environmentId: string = DEMO.environmentId) {
  return {
    data: {
      type: 'api-keys',
      attributes: { key_type: 'ingest', name, disabled: false, permissions: { create_datasets: true }, ...extra },
      relationships: { environment: { data: { id: environmentId, type: 'environments' } } },
    },
  };
}

function updateBody(id: string, name: string, disabled: boolean) {
  return { data: { id, type: 'api-keys', attributes: { name, disabled } } };
}

describe('POST /2/teams/<team>/api-keys (4.1)', () => {
  test('creates a key: 201, Location, server-assigned id, timestamps, relationships, links.self and the secret', async () => {
    clock.set('2025-06-01T12:00:00.000Z');
    const res = await sb.v2('POST', KEYS, createBody('Created by test'));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.contentType, 'application/vnd.api+json');
    const doc = CreatedApiKeyDocument.parse(res.json());
    const { data } = doc;
    assert.match(data.id, /^hcxik_\d{6}$/);
    assert.equal(res.headers.location, `${sb.base}${KEYS}/${data.id}`);
    assert.deepEqual(
      { ...data.attributes, secret: '(checked below)' },
      {
        key_type: 'ingest',
        name: 'Created by test',
        disabled: false,
        permissions: { create_datasets: true },
        timestamps: { created: '2025-06-01T12:00:00.000Z', updated: '2025-06-01T12:00:00.000Z' },
        secret: '(checked below)',
      },
    );
    assert.match(data.attributes.secret, /^[0-9a-f]{32}$/);
    assert.deepEqual(data.relationships, {
      environment: { data: { id: DEMO.environmentId, type: 'environments' } },
      creator: { data: { id: DEMO.userId, type: 'users' } },
      editor: { data: { id: DEMO.userId, type: 'users' } },
    });
    assert.equal(data.links?.self, `${KEYS}/${data.id}`);
  });

  test('the secret is kept nowhere: not in the state, not in the recorded requests', async () => {
    const res = await sb.v2('POST', KEYS, createBody('Secret check'));
    const secret = CreatedApiKeyDocument.parse(res.json()).data.attributes.secret;
    assert.equal(JSON.stringify(sb.handle.state).includes(secret), false);
    assert.equal(JSON.stringify(sb.handle.requests).includes(secret), false);
  });

  test('a second live key with the same name is a 409 conflict (a sandbox choice)', async () => {
    assert.equal((await sb.v2('POST', KEYS, createBody('Twice'))).status, 201);
    const errors = assertJsonApiError(await sb.v2('POST', KEYS, createBody('Twice')), 409);
    assert.equal(errors[0]?.code, 'conflict/already-exists');
    assert.deepEqual(errors[0]?.source, { pointer: '/data/attributes/name' });
  });

  test('the name of a disabled key may be used again', async () => {
    const res = await sb.v2('POST', KEYS, createBody('Retired ingest key'));
    assert.equal(res.status, 201, res.text);
  });

  test('a key without disabled or permissions is created enabled, without create_datasets (service facts: the service defaults them)', async () => {
    const body = createBody('Defaults');
    delete (body.data.attributes as Partial<typeof body.data.attributes>).disabled;
    delete (body.data.attributes as Partial<typeof body.data.attributes>).permissions;
    const res = await sb.v2('POST', KEYS, body);
    assert.equal(res.status, 201, res.text);
    const attributes = (res.json() as { data: { attributes: Record<string, unknown> } }).data.attributes;
    assert.deepEqual([attributes.disabled, attributes.permissions], [false, { create_datasets: false }]);
  });

  test('an empty name is accepted: the spec sets no rule on it', async () => {
    const res = await sb.v2('POST', KEYS, createBody(''));
    assert.equal(res.status, 201, res.text);
  });

  test('a configuration key is created with the permissions given (service facts: no create_datasets)', async () => {
    const res = await sb.v2(
      'POST',
      KEYS,
      createBody('Config key', { key_type: 'configuration', permissions: { manage_triggers: true } }),
    );
    assert.equal(res.status, 201, res.text);
    const attributes = (res.json() as { data: { attributes: Record<string, unknown> } }).data.attributes;
    assert.deepEqual([attributes.key_type, attributes.permissions], ['configuration', { manage_triggers: true }]);
  });

  test('missing members each get an error with their pointer; unknown ones are ignored', async () => {
    const body = { data: { type: 'api-keys', attributes: { key_type: 'ingest', disabled: false, colour: 'red' } } };
    const errors = assertJsonApiError(await sb.v2('POST', KEYS, body), 422);
    assert.deepEqual(errors.map((e) => e.source?.pointer).sort(), ['/data/attributes/name', '/data/relationships']);
  });

  test('a long name is accepted: neither the spec nor the service facts limit it', async () => {
    const res = await sb.v2('POST', KEYS, createBody('n'.repeat(500)));
    assert.equal(res.status, 201, res.text);
    assert.equal(sb.handle.state.apiKeys.filter((k) => k.name === 'n'.repeat(500)).length, 1);
  });

  test('an unknown environment is a 404 pointing at the relationship', async () => {
    const body = createBody('Elsewhere', {}, 'env_unknown');
    const errors = assertJsonApiError(await sb.v2('POST', KEYS, body), 404);
    assert.deepEqual(errors[0]?.source, { pointer: '/data/relationships/environment/data/id' });
  });

  test('another team is a 404', async () => {
    assertJsonApiError(await sb.v2('POST', '/2/teams/other-team/api-keys', createBody('x')), 404);
  });

  test('Content-Type application/json is a 415 naming the header', async () => {
    const res = await sb.v2('POST', KEYS, createBody('Wrong media'), { 'Content-Type': 'application/json' });
    const errors = assertJsonApiError(res, 415);
    assert.deepEqual(errors[0]?.source, { header: 'Content-Type' });
  });

  test('a media type parameter other than ext or profile is a 415', async () => {
    const res = await sb.v2('POST', KEYS, createBody('Charset'), {
      'Content-Type': 'application/vnd.api+json; charset=utf-8',
    });
    assertJsonApiError(res, 415);
  });

  test('no Authorization header is a 401 unauthenticated/invalid-key', async () => {
    const res = await call(`${sb.base}${KEYS}`, {
      method: 'POST',
      body: createBody('No auth'),
      headers: { 'Content-Type': 'application/vnd.api+json' },
    });
    const errors = assertJsonApiError(res, 401);
    assert.equal(errors[0]?.code, 'unauthenticated/invalid-key');
  });

  test('a wrong secret is a 401 unauthenticated/invalid-key', async () => {
    const res = await sb.v2('POST', KEYS, createBody('Bad secret'), {
      Authorization: `Bearer ${DEMO.apiKeys.ingest}:nope`,
    });
    assert.equal(assertJsonApiError(res, 401)[0]?.code, 'unauthenticated/invalid-key');
  });

  test('the configuration key does not open version 2', async () => {
    const res = await sb.v2('POST', KEYS, createBody('Config key'), {
      Authorization: `Bearer ${sb.handle.info.configKey}`,
    });
    assertJsonApiError(res, 401);
  });

  test('an unparseable body is a 400', async () => {
    assertJsonApiError(await sb.v2('POST', KEYS, '{"data":'), 400);
  });

  test('a body over 100,000 bytes is a 413', async () => {
    const res = await sb.v2('POST', KEYS, createBody('x'.repeat(100_001)));
    assertJsonApiError(res, 413);
  });
});

describe('PATCH /2/teams/<team>/api-keys/<ID> (4.2)', () => {
  test('renames and disables: 200 without secret and relationships; updated moves, created stays', async () => {
    clock.set('2025-07-01T09:00:00.000Z');
    const res = await sb.v2(
      'PATCH',
      `${KEYS}/${DEMO.apiKeys.ingest}`,
      updateBody(DEMO.apiKeys.ingest, 'Renamed', true),
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(res.contentType, 'application/vnd.api+json');
    const raw = res.json() as { data: Record<string, unknown> };
    assert.deepEqual(Object.keys(raw.data).sort(), ['attributes', 'id', 'links', 'type']);
    const { data } = UpdatedApiKeyDocument.parse(raw);
    assert.deepEqual(data.attributes, {
      key_type: 'ingest',
      name: 'Renamed',
      disabled: true,
      permissions: { create_datasets: true },
      timestamps: { created: '2024-03-01T10:00:00.000Z', updated: '2025-07-01T09:00:00.000Z' },
    });
    assert.equal(data.links?.self, `${KEYS}/${DEMO.apiKeys.ingest}`);
    const stored = sb.handle.state.apiKeys.find((k) => k.id === DEMO.apiKeys.ingest);
    assert.equal(stored?.name, 'Renamed');
    assert.equal(stored?.disabled, true);
  });

  test('data.id differing from the path is a 409 id mismatch', async () => {
    const res = await sb.v2('PATCH', `${KEYS}/${DEMO.apiKeys.disabled}`, updateBody(DEMO.apiKeys.ingest, 'x', true));
    const errors = assertJsonApiError(res, 409);
    assert.equal(errors[0]?.code, 'conflict/id-mismatch');
    assert.deepEqual(errors[0]?.source, { pointer: '/data/id' });
  });

  test('enabling a key under the name of another live key is a 409', async () => {
    assert.equal((await sb.v2('POST', KEYS, createBody('Taken name'))).status, 201);
    const res = await sb.v2(
      'PATCH',
      `${KEYS}/${DEMO.apiKeys.disabled}`,
      updateBody(DEMO.apiKeys.disabled, 'Taken name', false),
    );
    assert.equal(assertJsonApiError(res, 409)[0]?.code, 'conflict/already-exists');
  });

  test('an unknown key is a 404', async () => {
    assertJsonApiError(await sb.v2('PATCH', `${KEYS}/hcxik_nope`, updateBody('hcxik_nope', 'x', false)), 404);
  });

  test('a PATCH without disabled renames the key and keeps its state (spec part 3: "attributes.disabled given")', async () => {
    const body = { data: { id: DEMO.apiKeys.disabled, type: 'api-keys', attributes: { name: 'renamed only' } } };
    const res = await sb.v2('PATCH', `${KEYS}/${DEMO.apiKeys.disabled}`, body);
    assert.equal(res.status, 200, res.text);
    const attributes = (res.json() as { data: { attributes: Record<string, unknown> } }).data.attributes;
    assert.deepEqual([attributes.name, attributes.disabled], ['renamed only', true]);
  });

  test('a disabled attribute that is not a boolean is a 422 pointing at it', async () => {
    const body = { data: { id: DEMO.apiKeys.disabled, type: 'api-keys', attributes: { name: 'x', disabled: 'yes' } } };
    const errors = assertJsonApiError(await sb.v2('PATCH', `${KEYS}/${DEMO.apiKeys.disabled}`, body), 422);
    assert.deepEqual(
      errors.map((e) => e.source?.pointer),
      ['/data/attributes/disabled'],
    );
  });
});
