// tree/commandArgs.ts and itemArgs.ts: a command run from the palette or another extension may get anything; each one
// parses its argument and does nothing with what does not fit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiKeyArg,
  connectionIdOf,
  copyableId,
  DatasetArg,
  datasetOf,
  parseArg,
  refreshTarget,
} from '../../src/extension/tree/commandArgs';
import { TriggerArg } from '../../src/extension/tree/itemArgs';
import { createLogger } from '../../src/extension/core/logger';
import { nodeId, type TreeNode } from '../../src/extension/tree/nodes';

const dataset: TreeNode = {
  kind: 'dataset',
  connectionId: 'c1',
  slug: 'orders',
  added: true,
  discovered: false,
  metrics: false,
};
const group: TreeNode = { kind: 'group', connectionId: 'c1', dataset: 'orders', group: 'burnAlerts' };
const slo: TreeNode = { kind: 'slo', connectionId: 'c1', dataset: 'orders', sloId: 'slo_1' };
const keys: TreeNode = { kind: 'apiKeys', connectionId: 'c1' };
const trigger: TreeNode = {
  kind: 'trigger',
  connectionId: 'c1',
  dataset: 'orders',
  trigger: { id: 't1', name: 'Errors' },
};
const column: TreeNode = {
  kind: 'column',
  connectionId: 'c1',
  dataset: 'orders',
  column: { key_name: 'duration_ms', type: 'float', hidden: false },
};

test('an argument of another kind, or missing members, parses to undefined', () => {
  assert.equal(parseArg(DatasetArg, group), undefined);
  assert.equal(parseArg(DatasetArg, { kind: 'dataset', slug: 'orders' }), undefined, 'no connectionId');
  assert.equal(
    parseArg(TriggerArg, { kind: 'trigger', connectionId: 'c1', dataset: 'orders', trigger: { name: 'no id' } }),
    undefined,
  );
  assert.equal(parseArg(ApiKeyArg, 'orders'), undefined);
  assert.equal(parseArg(ApiKeyArg, undefined), undefined);
});

test('a tree node parses to its members, unknown members kept', () => {
  assert.deepEqual(parseArg(DatasetArg, dataset), dataset);
  assert.equal(parseArg(TriggerArg, trigger)?.trigger.id, 't1');
});

test('the dataset and connection of an item are read from any node that has them', () => {
  assert.equal(datasetOf(dataset), 'orders');
  assert.equal(datasetOf(slo), 'orders');
  assert.equal(datasetOf(keys), undefined);
  assert.equal(datasetOf('orders'), undefined);
  assert.equal(connectionIdOf(trigger), 'c1');
  assert.equal(connectionIdOf({ kind: 'dataset' }), undefined);
});

test('Copy Id copies the id of each kind of item, and a column without an id its key name', () => {
  assert.equal(copyableId(dataset), 'orders');
  assert.equal(copyableId(column), 'duration_ms');
  assert.equal(copyableId({ ...column, column: { ...column.column, id: 'col_9' } }), 'col_9');
  assert.equal(copyableId(trigger), 't1');
  assert.equal(copyableId(slo), 'slo_1');
  assert.equal(
    copyableId({ kind: 'burnAlert', connectionId: 'c1', dataset: 'orders', sloId: 'slo_1', alert: { id: 'ba_1' } }),
    'ba_1',
  );
  assert.equal(
    copyableId({
      kind: 'apiKey',
      connectionId: 'c1',
      key: { id: 'k1', name: 'n', disabled: false, keyType: 'ingest' },
    }),
    'k1',
  );
  assert.equal(copyableId(group), undefined);
  assert.equal(copyableId(null), undefined);
});

test('Refresh on an item targets the id the tree gave that item; other items refresh nothing in particular', () => {
  for (const node of [dataset, group, slo, keys]) assert.equal(refreshTarget(node), nodeId(node));
  assert.equal(refreshTarget(trigger), undefined);
  assert.equal(refreshTarget({ kind: 'group', connectionId: 'c1', dataset: 'orders', group: 'nonsense' }), undefined);
});

test('a named logger prefixes every line with its module', () => {
  const lines: string[] = [];
  const channel = {
    debug: (m: string) => lines.push(`debug ${m}`),
    info: (m: string) => lines.push(`info ${m}`),
    warn: (m: string) => lines.push(`warn ${m}`),
    error: (m: string) => lines.push(`error ${m}`),
  };
  const log = createLogger(channel, 'tree');
  log.info('loaded');
  log.warn('slow');
  log.error('failed');
  log.debug('detail');
  assert.deepEqual(lines, ['info [tree] loaded', 'warn [tree] slow', 'error [tree] failed', 'debug [tree] detail']);
});
