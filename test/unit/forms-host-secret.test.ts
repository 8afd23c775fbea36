// The create API key form's host side never loses the one-time secret: not when remembering the key in
// the "API keys" list fails, not when the service's answer was odd (ApiResponse.oddities), not when the
// answer named no key id.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiResponse, CreatedApiKeyDocument, FieldProblem, ServiceClient } from '../../src/api';
import { ApiKeyFormController } from '../../src/extension/forms/apiKeyController';
import { KeyRegistry } from '../../src/extension/tree/keyRegistry';
import { MemoryMemento } from '../../scripts/memoryMemento';

const SECRET = 'form-secret-0123456789abcdef';

function document(id: string): CreatedApiKeyDocument {
  return {
    data: {
      id,
      type: 'api-keys',
      attributes: {
        key_type: 'ingest',
        name: 'ci key',
        secret: SECRET,
        disabled: false,
        permissions: { create_datasets: false },
      },
    },
  };
}

function form(opts: { id?: string; oddities?: FieldProblem[]; remember?: () => Promise<void> } = {}) {
  const posted: Record<string, unknown>[] = [];
  const logs: string[] = [];
  const clipboard: string[] = [];
  const registry = new KeyRegistry(new MemoryMemento());
  const response: ApiResponse<CreatedApiKeyDocument> = {
    data: document(opts.id ?? 'hcxik_1'),
    status: 201,
    attempts: 1,
    ...(opts.oddities ? { oddities: opts.oddities } : {}),
  };
  const client: Pick<ServiceClient, 'createApiKey' | 'updateApiKey'> = {
    createApiKey: async () => response,
    updateApiKey: async () => assert.fail('no update here'),
  };
  const controller = new ApiKeyFormController({
    mode: 'create',
    client: async () => client,
    team: 'acme',
    connectionId: 'conn-1',
    connectionName: 'Prod',
    environmentId: 'env-1',
    keys: {
      list: (c) => registry.list(c),
      update: (c, id, patch) => registry.update(c, id, patch),
      remember: opts.remember ?? ((c, key) => registry.remember(c, key)),
    },
    post: (m) => posted.push(structuredClone(m) as Record<string, unknown>),
    log: {
      info: (m) => logs.push(`info ${m}`),
      warn: (m) => logs.push(`warn ${m}`),
      error: (m) => logs.push(`error ${m}`),
    },
    copy: async (text) => {
      clipboard.push(text);
    },
    ask: async (_message, _detail, choices) => choices[1],
    close: () => undefined,
  });
  const submit = () =>
    controller.receive({
      type: 'submitCreate',
      values: { name: 'ci key', keyType: 'ingest', disabled: false, createDatasets: false, environmentId: 'env-1' },
    });
  return { controller, posted, logs, clipboard, registry, submit };
}

describe('create API key form: the secret reaches the user whatever else fails', () => {
  test('remembering the key in the list fails: the secret is shown all the same, and the failure is said', async () => {
    const f = form({
      remember: async () => {
        throw new Error('memento write failed');
      },
    });
    await f.submit();
    const created = f.posted.filter((m) => m.type === 'created');
    assert.deepEqual(
      created.map((m) => (m.key as { secret: string }).secret),
      [SECRET],
    );
    assert.deepEqual(
      f.posted.filter((m) => m.type === 'status'),
      [
        {
          type: 'status',
          message:
            'The key was created, but it could not be added to the "API keys" list: memento write failed. Copy the secret now.',
        },
      ],
    );
    assert.deepEqual(
      f.posted.filter((m) => m.type === 'problems'),
      [],
    );
    assert.deepEqual(f.controller.uncopiedKey(), { id: 'hcxik_1', name: 'ci key', secret: SECRET });
    assert.ok(!f.logs.join('\n').includes(SECRET));
  });

  test('an odd answer: the secret is shown with a note naming what was odd', async () => {
    const f = form({ oddities: [{ field: 'data.type', code: 'invalid_value', message: 'Invalid input' }] });
    await f.submit();
    assert.deepEqual(
      f.posted.filter((m) => m.type === 'created'),
      [
        {
          type: 'created',
          key: { id: 'hcxik_1', name: 'ci key', secret: SECRET },
          notes: [
            "The service's answer was unusual (data.type): the key is shown as far as it could be read; check it on the service.",
          ],
        },
      ],
    );
    assert.deepEqual(
      f.registry.list('conn-1').map((k) => k.id),
      ['hcxik_1'],
    );
  });

  test('an answer without a key id: the secret is shown, the note says so, and id:secret is not copied', async () => {
    const f = form({ id: '', oddities: [{ field: 'data.id', code: 'invalid_type', message: 'Invalid input' }] });
    await f.submit();
    const created = f.posted.filter((m) => m.type === 'created');
    assert.deepEqual(
      created.map((m) => [m.key, m.notes]),
      [
        [
          { id: '', name: 'ci key', secret: SECRET },
          [
            "The service's answer was unusual (data.id): the key is shown as far as it could be read; check it on the service.",
            "The service did not say the key's id: copy the secret alone, and find the id in the service's list of API keys.",
          ],
        ],
      ],
    );
    // A key without an id cannot be listed.
    assert.deepEqual(f.registry.list('conn-1'), []);
    await f.controller.receive({ type: 'copy', what: 'idAndSecret' });
    await f.controller.receive({ type: 'copy', what: 'secret' });
    assert.deepEqual(f.clipboard, [SECRET]);
  });
});
