// The Datasets view's adapter (src/extension/tree/datasetsView.ts) in the fake editor, over the tree model
// against the sandbox: a trigger row says whether the workspace's trigger file matches the service, and is
// redrawn when that changes, without a call to the service; rows the user left open are drawn open again
// when they are drawn anew (Refresh, a reconnect, a reload), for their connection.
import { fake, jobsDone, vscode } from './vscode-fake'; // first: later imports of 'vscode' get the fake
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { Limiter } from '../../src/api/limiter';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox/index';
import type { ConnectionProfile } from '../../src/extension/connections/profiles';
import { Emitter } from '../../src/extension/core/memento';
import type { TreeDriftSource, TriggerFileState } from '../../src/extension/sync';
import { DatasetsTreeProvider, DatasetsView } from '../../src/extension/tree/datasetsView';
import { DatasetTreeModel } from '../../src/extension/tree/datasetTree';
import { ExpandedNodes } from '../../src/extension/tree/expandedNodes';
import { KeyRegistry } from '../../src/extension/tree/keyRegistry';
import { RememberedItems } from '../../src/extension/tree/rememberedItems';
import type { DatasetNode, GroupNode, TreeNode } from '../../src/extension/tree/nodes';
import { MemoryMemento } from '../../scripts/memoryMemento';

let sandbox: SandboxHandle;
let client: ServiceClient;
let profile: ConnectionProfile;

before(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 100_000 });
  const info = sandbox.info;
  client = new ServiceClient({ baseUrl: info.baseUrl, configKey: info.configKey, retry: { maxAttempts: 1 } });
  const { baseUrl, uiUrl, team, environmentId } = info;
  profile = { id: 'conn-view', name: 'Sandbox', baseUrl, uiUrl, team, environmentId };
});

after(async () => {
  await client.close();
  await sandbox.close();
});

/** A tree model of the sandbox for one connection, as a window would make it. */
function treeModel(connection: ConnectionProfile = profile): DatasetTreeModel {
  const memento = new MemoryMemento();
  return new DatasetTreeModel({
    connection: async () => ({ profile: connection, api: client }),
    remembered: new RememberedItems(memento),
    keys: new KeyRegistry(memento),
    metricsDatasets: () => [],
    limiter: new Limiter({ concurrency: 4 }),
  });
}

/** Drift as the sync feature hands it to the view, with states the test sets. */
function driftSource(): TreeDriftSource & { states: Map<string, TriggerFileState>; changed: Emitter<void> } {
  const states = new Map<string, TriggerFileState>();
  const changed = new Emitter<void>();
  return {
    states,
    changed,
    onDidChange: (l) => changed.event(l),
    stateOf: (cid, id) => (cid === profile.id ? states.get(id) : undefined),
  };
}

const group = (dataset: string, g: GroupNode['group']): GroupNode => ({
  kind: 'group',
  connectionId: profile.id,
  dataset,
  group: g,
});
const named = (nodes: TreeNode[], name: string): TreeNode | undefined =>
  nodes.find((n) => n.kind === 'trigger' && n.trigger.name === name);
const dataset = (nodes: TreeNode[], slug: string): DatasetNode | undefined =>
  nodes.find((n): n is DatasetNode => n.kind === 'dataset' && n.slug === slug);
const FILE = 'triggers/api-gateway/High-error-rate.trigger.json';
const { Collapsed, Expanded } = vscode.TreeItemCollapsibleState;

test('a trigger row says whether its file matches the service; only changed rows are redrawn, with no service call', async () => {
  const provider = new DatasetsTreeProvider(treeModel());
  const drift = driftSource();
  drift.states.set(DEMO.triggers.gwErrors, { kind: 'in-sync', file: FILE });
  provider.useDrift(drift);
  const triggers = await provider.getChildren(group(DEMO.datasets.gateway, 'triggers'));
  const errors = named(triggers, 'High error rate');
  const latency = named(triggers, 'Office-hours latency');
  assert.ok(errors && latency);
  for (const t of triggers) provider.getTreeItem(t);
  assert.equal(provider.getTreeItem(errors).description, 'triggered · notify on change · every 5m · in sync');
  const quiet = provider.getTreeItem(latency).description;
  assert.equal(quiet, 'notify on change · every 10m', 'no state where drift says nothing');

  const redrawn: unknown[] = [];
  provider.onDidChangeTreeData((e) => redrawn.push(e));
  const calls = sandbox.requests.length;
  drift.states.set(DEMO.triggers.gwErrors, { kind: 'differs', file: FILE, members: ['threshold'] });
  drift.states.set(DEMO.triggers.gwWindow, { kind: 'service-only' });
  drift.changed.fire();
  assert.deepEqual(redrawn, [[errors, latency]]);
  const differs = provider.getTreeItem(errors).description;
  assert.equal(differs, 'triggered · notify on change · every 5m · differs: threshold');
  assert.equal(provider.getTreeItem(latency).description, 'notify on change · every 10m · only on the service');
  drift.changed.fire();
  assert.equal(redrawn.length, 1, 'nothing changed: nothing redrawn');
  assert.equal(sandbox.requests.length, calls, 'drift is read from what drift read: no call per row');
  provider.dispose();
});

test('rows the user opened are drawn open again when drawn anew, for their connection only, until closed', async () => {
  const memento = new MemoryMemento();
  const model = treeModel();
  const view = new DatasetsView(model, undefined, new ExpandedNodes(memento));
  const treeView = fake.treeViews.at(-1);
  assert.ok(treeView);
  const root = await model.getChildren();
  const gateway = dataset(root, DEMO.datasets.gateway);
  assert.ok(gateway);
  const [, triggers] = await model.getChildren(gateway);
  assert.ok(triggers);
  treeView.expansion.expand.fire({ element: gateway });
  treeView.expansion.expand.fire({ element: triggers });
  await jobsDone();
  view.dispose();

  // Another window on the same workspace (or the tree drawn for another connection and back): new nodes.
  const again = treeModel();
  const reopened = new DatasetsView(again, undefined, new ExpandedNodes(memento));
  const provider = fake.treeViews.at(-1)?.provider;
  assert.ok(provider instanceof DatasetsTreeProvider);
  const rows = await again.getChildren();
  const gw = dataset(rows, DEMO.datasets.gateway);
  assert.ok(gw);
  const [columns, trig] = await again.getChildren(gw);
  assert.ok(columns && trig);
  const rowsDrawn = [gw, trig, columns, dataset(rows, DEMO.datasets.checkout)];
  const drawn = rowsDrawn.map((n) => n && provider.getTreeItem(n).collapsibleState);
  assert.deepEqual(drawn, [Expanded, Expanded, Collapsed, Collapsed]);

  // The same dataset of another connection is not open.
  const other = treeModel({ ...profile, id: 'conn-other' });
  const otherGateway = dataset(await other.getChildren(), DEMO.datasets.gateway);
  assert.ok(otherGateway);
  assert.equal(provider.getTreeItem(otherGateway).collapsibleState, Collapsed);

  // Closed by the user: drawn closed from then on.
  fake.treeViews.at(-1)?.expansion.collapse.fire({ element: gw });
  await jobsDone();
  assert.equal(provider.getTreeItem(gw).collapsibleState, Collapsed);
  reopened.dispose();
});
