// Promotion of burn alert and definitions files from the editor (docs/SLO-FILES.md, "Promotion"): the files pulled
// from the active connection's service, in the fake editor (vscode-fake.ts), applied with "Apply Trigger Files to
// Connection..." to another service whose SLO and burn alert ids differ, through the real client. Each alert is
// found by its SLO's name and type there, only what differs is written, and the next Apply finds nothing.
import { fake, fileUri, Uri } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ServiceClient } from '../../src/api';
import type { RecordedRequest } from '../../src/sandbox/types';
import type { ActiveConnection, ConnectionProfile } from '../../src/extension/connections';
import { applyPicking } from './apply-connections';
import type { TestSandbox } from './sandbox-helpers';
import { DEFINITIONS, EXHAUSTION, GATEWAY, sloWorkspace } from './slo-workspace';

const ws = sloWorkspace('obs-editor-slo-promotion-');

/** Every burn alert and definitions file of the pulled folder, by its uri in the fake editor's one folder. */
function loadSloFiles(): void {
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? walk(join(folder, e.name))
        : /\.(burn-alert|definitions)\.json$/.test(e.name)
          ? [join(folder, e.name)]
          : [],
    );
  for (const file of walk(ws.dir()))
    fake.files.set(fileUri(relative(ws.dir(), file)).toString(), readFileSync(file, 'utf8'));
}

/** Applies every file to "prod" (the other service); returns what the editor said when there was nothing to do. */
function applyToProd(prod: TestSandbox, clients: ServiceClient[]): Promise<string[]> {
  const connection = (id: string, sandbox: TestSandbox): ActiveConnection => {
    const client = new ServiceClient({ baseUrl: sandbox.base, configKey: sandbox.handle.info.configKey });
    clients.push(client);
    return { profile: { id, name: id, baseUrl: sandbox.base } as ConnectionProfile, client } as ActiveConnection;
  };
  return applyPicking('prod', [connection('staging', ws.sandbox()), connection('prod', prod)]);
}

const isEmpty = (body: unknown) => typeof body === 'object' && body !== null && Object.keys(body).length === 0;

test('burn alert and definitions files applied from the editor to a service whose ids differ: found by name, then nothing to change', async () => {
  await ws.withOtherIds(async (prod) => {
    ws.writeJson(EXHAUSTION, { ...ws.readJson(EXHAUSTION), exhaustion_minutes: 300 });
    const defs = ws.readJson(DEFINITIONS);
    ws.writeJson(DEFINITIONS, {
      ...defs,
      definitions: { ...(defs.definitions as Record<string, unknown>), route: null },
    });
    fake.reset();
    fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
    loadSloFiles();
    const clients: ServiceClient[] = [];
    try {
      await prod.control('DELETE', 'requests');
      const first = await applyToProd(prod, clients);
      const log = (await prod.control('GET', 'requests')).json() as RecordedRequest[];
      const again = await applyToProd(prod, clients);
      assert.deepEqual(
        {
          first,
          writes: log
            .filter((r) => r.method === 'PUT' || (r.method === 'PATCH' && !isEmpty(r.body)))
            .map((r) => r.path),
          again,
          files: readFileSync(join(ws.dir(), EXHAUSTION), 'utf8') === fake.files.get(fileUri(EXHAUSTION).toString()),
        },
        {
          first: [],
          writes: [`/1/burn_alerts/${GATEWAY}/prod_ba_gw_exhaustion`, `/1/dataset_definitions/${GATEWAY}`],
          again: ['Nothing to change on prod: the service matches the files.'],
          files: true,
        },
      );
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });
});
