// A form outlives its connection's client: the local sandbox stopped (its connection removed, its client
// closed) and started again (the same connection id, a new client). Meanwhile the form says so plainly and
// keeps the user's edits; once the connection is back, the same Save works without retyping anything.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox';
import { ConnectionGoneError } from '../../src/extension/core/errors';
import { BurnAlertFormController } from '../../src/extension/forms/burnAlertController';
import { DatasetDefinitionsFormController } from '../../src/extension/forms/datasetDefinitionsController';
import { ApiKeyFormController } from '../../src/extension/forms/apiKeyController';
import { KeyRegistry } from '../../src/extension/tree/keyRegistry';
import { MemoryMemento } from '../../scripts/memoryMemento';

let sandbox: SandboxHandle;
before(async () => {
  sandbox = await startSandbox({ rateLimit: 100_000 });
});
after(async () => {
  await sandbox.close();
});

const GONE = 'The connection Sandbox is not available: start the sandbox or switch connections; your edits are kept.';

/** The connection as the forms' panels give it: its client looked up by id, absent while the sandbox is stopped. */
function connection() {
  let client: ServiceClient | undefined = newClient();
  const handed: ServiceClient[] = [];
  return {
    source: async () => {
      if (client === undefined) throw new ConnectionGoneError('sandbox');
      handed.push(client);
      return client;
    },
    /** Stop Local Sandbox: the connection is removed and its client closed. */
    async stop(keepHandingOut = false) {
      const closing = client;
      if (!keepHandingOut) client = undefined;
      await closing?.close();
    },
    /** Try the Local Sandbox again: the same connection id, a new client. */
    start() {
      client = newClient();
    },
    async closeAll() {
      await Promise.all(handed.map((c) => c.close()));
    },
  };
}

function newClient(): ServiceClient {
  return new ServiceClient({
    baseUrl: sandbox.info.baseUrl,
    configKey: sandbox.info.configKey,
    managementKey: sandbox.info.managementKey,
  });
}

function recorder() {
  const posted: Record<string, unknown>[] = [];
  return {
    posted,
    post: (m: unknown) => posted.push(structuredClone(m) as Record<string, unknown>),
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    ofType: (type: string) => posted.filter((m) => m.type === type),
  };
}

const formProblemsOf = (m: Record<string, unknown> | undefined) =>
  m?.problems as { form: string[]; fields: Record<string, string[]> } | undefined;

describe('burn alert form across a sandbox restart', () => {
  const context = {
    connectionId: 'sandbox',
    dataset: DEMO.datasets.gateway,
    sloId: DEMO.slos.gwAvailability,
    alertId: DEMO.burnAlerts.gwExhaustion,
  };

  function open(source: () => Promise<ServiceClient>) {
    const rec = recorder();
    const form = new BurnAlertFormController({
      client: source,
      context,
      connectionName: 'Sandbox',
      post: rec.post,
      log: rec.log,
      openDiff: async () => undefined,
    });
    return { form, rec };
  }

  test('Save while the sandbox is stopped says so plainly; after it is started again the same Save is sent', async () => {
    const conn = connection();
    const { form, rec } = open(conn.source);
    await form.receive({ type: 'ready' });
    assert.equal(rec.ofType('init').length, 1);
    const edits = { description: 'kept across the restart' };

    await conn.stop();
    form.connectionChanged(false);
    assert.deepEqual(rec.ofType('connection'), [{ type: 'connection', available: false, message: GONE }]);
    const puts = () =>
      sandbox.requests.filter((r) => r.method === 'PUT' && r.path.endsWith(`/${context.alertId}`)).length;
    const before = puts();
    await form.receive({ type: 'submit', edits });
    assert.deepEqual(formProblemsOf(rec.ofType('problems')[0]), { fields: {}, form: [GONE] });
    assert.equal(puts(), before, 'nothing was sent');

    conn.start();
    form.connectionChanged(true);
    assert.deepEqual(rec.ofType('connection')[1], { type: 'connection', available: true });
    await form.receive({ type: 'submit', edits });
    assert.equal(rec.ofType('problems').length, 1, 'no new problem');
    assert.equal((rec.ofType('saved')[0]?.loaded as { description?: string }).description, 'kept across the restart');
    assert.equal(puts(), before + 1);
    await conn.closeAll();
  });

  test('a client closed under the form (the stop raced the Save) is never shown as "the client is closed"', async () => {
    const conn = connection();
    const { form, rec } = open(conn.source);
    await form.receive({ type: 'ready' });
    await conn.stop(true);
    await form.receive({ type: 'submit', edits: { description: 'x' } });
    const problems = formProblemsOf(rec.ofType('problems')[0]);
    assert.deepEqual(problems, { fields: {}, form: [GONE] });
    await conn.closeAll();
  });

  test('a form that could not load while the sandbox was stopped loads when it is back', async () => {
    const conn = connection();
    await conn.stop();
    const { form, rec } = open(conn.source);
    await form.receive({ type: 'ready' });
    assert.deepEqual(rec.ofType('status'), [
      { type: 'status', message: `Could not load the burn alert: ${GONE}`, failed: true },
    ]);
    form.connectionChanged(false);
    conn.start();
    form.connectionChanged(true);
    await form.whenIdle();
    assert.equal((rec.ofType('init')[0]?.loaded as { id?: string } | undefined)?.id, context.alertId);
    await conn.closeAll();
  });
});

describe('the other forms across a sandbox restart', () => {
  test('dataset definitions: Save while stopped is refused plainly, and sent once the sandbox is back', async () => {
    const conn = connection();
    const rec = recorder();
    const form = new DatasetDefinitionsFormController({
      client: conn.source,
      context: { connectionId: 'sandbox', dataset: DEMO.datasets.gateway },
      connectionName: 'Sandbox',
      post: rec.post,
      log: rec.log,
    });
    await form.receive({ type: 'ready' });
    const rows = { log_message: { name: 'http.method' } };
    await conn.stop();
    await form.receive({ type: 'submit', rows });
    assert.deepEqual(formProblemsOf(rec.ofType('problems')[0]), { fields: {}, form: [GONE] });
    conn.start();
    await form.receive({ type: 'submit', rows });
    assert.deepEqual(rec.ofType('saved')[0]?.sent, ['log_message']);
    await conn.closeAll();
  });

  test('update API key: Save while stopped is refused plainly, and sent once the sandbox is back', async () => {
    const conn = connection();
    const rec = recorder();
    const keys = new KeyRegistry(new MemoryMemento());
    const created = await (
      await conn.source()
    ).createApiKey(sandbox.info.team, {
      data: {
        type: 'api-keys',
        attributes: { key_type: 'ingest', name: 'before' },
        relationships: { environment: { data: { id: sandbox.info.environmentId, type: 'environments' } } },
      },
    });
    const id = created.data.data.id;
    const form = new ApiKeyFormController({
      mode: 'update',
      client: conn.source,
      team: sandbox.info.team,
      connectionId: 'sandbox',
      connectionName: 'Sandbox',
      environmentId: sandbox.info.environmentId,
      initialUpdate: { id, name: 'before', disabled: false },
      idFixed: true,
      keys,
      post: rec.post,
      log: rec.log,
      copy: async () => undefined,
      ask: async () => undefined,
      close: () => undefined,
    });
    await conn.stop();
    await form.receive({ type: 'submitUpdate', values: { id, name: 'after', disabled: false } });
    assert.deepEqual(formProblemsOf(rec.ofType('problems')[0]), { fields: {}, form: [GONE] });
    conn.start();
    await form.receive({ type: 'submitUpdate', values: { id, name: 'after', disabled: false } });
    assert.deepEqual(rec.ofType('updated'), [{ type: 'updated', key: { id, name: 'after', disabled: false } }]);
    await conn.closeAll();
  });
});
