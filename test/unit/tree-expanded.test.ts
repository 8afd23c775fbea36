// The rows of the Datasets view the user left open (src/extension/tree/expandedNodes.ts): per connection, in
// the workspace's state, bounded, and gone with their connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExpandedNodes } from '../../src/extension/tree/expandedNodes';
import { MemoryMemento } from '../../scripts/memoryMemento';

test('a removed connection takes its open rows along; the other connections keep theirs', async () => {
  const memento = new MemoryMemento();
  const open = new ExpandedNodes(memento);
  await open.set('a', 'root/a/d/api', true);
  await open.set('b', 'root/b/d/api', true);
  await open.forgetConnection('a');
  assert.equal(open.isExpanded('a', 'root/a/d/api'), false);
  assert.equal(new ExpandedNodes(memento).isExpanded('b', 'root/b/d/api'), true);
});

test('at most 500 open rows are kept per connection: the row opened longest ago goes first', async () => {
  const open = new ExpandedNodes(new MemoryMemento());
  for (let i = 0; i < 501; i++) await open.set('a', `root/a/d/ds${i}`, true);
  const kept = ['ds0', 'ds1', 'ds500'].map((slug) => open.isExpanded('a', `root/a/d/${slug}`));
  assert.deepEqual(kept, [false, true, true]);
});
