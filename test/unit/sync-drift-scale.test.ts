// A branch switch at scale in the editor's drift (driftModel.ts, driftTally.ts, the Drift view's DriftTree in
// a fake editor) on a virtual clock: N trigger files changed on disk, arriving all at once, 100 every 50 ms,
// or one at a time just under or just over the 50 ms debounce. Work is counted from outside: the files
// compared (driftOfFile), the lists of every file built (FileOrder.list), the Drift view's rows and TreeItems
// made, the timers asked of the clock, and every block V8 ran in the extension's code, which must stay within
// a constant per file: a pass over every file per batch (a snapshot, the view's rows) fails it at 16,000.
import { measuredAsync } from './outside-work'; // first: V8 counts blocks only in code compiled after it
import { fake, Uri } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { triggerFileText, type ServiceTrigger } from '../../src/triggerFiles';
import { DriftModel } from '../../src/extension/sync/driftModel';
import { DriftTree, type DriftViewSurface } from '../../src/extension/sync/driftViews';
import { serviceTrigger } from './serviceTriggers';
import { sloServiceFake } from './sloServiceFake';
import { VirtualTimers } from './virtualTimers';

const DRIFT = '/src/triggerFiles/drift.ts';
const SNAPSHOT = '/src/extension/sync/driftSnapshot.ts';
const PRESENTATION = '/src/extension/sync/driftPresentation.ts';
const VIEWS = '/src/extension/sync/driftViews.ts';
const EXTENSION = '/src/extension/';

/** Blocks V8 may run in the extension's code per file of the switch, whatever N and the arrival. */
const BLOCKS_PER_FILE = 200;

const uriOf = (i: number) => `file:///w/api/t${String(i).padStart(5, '0')}.trigger.json`;

/** When each of n events arrives (ms), by arrival pattern. */
const patterns: Record<string, (n: number) => number[]> = {
  'one every 51 ms (just over the debounce)': (n) => Array.from({ length: n }, (_, i) => i * 51),
  'one every 49 ms (just under the debounce)': (n) => Array.from({ length: n }, (_, i) => i * 49),
  '100 every 50 ms': (n) => Array.from({ length: n }, (_, i) => Math.floor(i / 100) * 50),
  'all at once': (n) => Array.from({ length: n }, () => 0),
};

async function setup(n: number) {
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  const triggers: ServiceTrigger[] = Array.from({ length: n }, (_, i) => serviceTrigger(`t${i}`, `T${i}`, 'api'));
  const files = new Map(triggers.map((t, i) => [uriOf(i), triggerFileText(t)]));
  const clock = new VirtualTimers();
  const model = new DriftModel({
    workspace: {
      list: () => Promise.resolve([...files.keys()]),
      read: (uri) => Promise.resolve(files.get(uri)),
    },
    connection: () =>
      Promise.resolve({
        id: 'c1',
        name: 'prod',
        api: {
          ...sloServiceFake(),
          listTriggers: () => Promise.resolve({ data: structuredClone(triggers) }),
          listRecipients: () => Promise.resolve({ data: [] }),
        },
      }),
    concurrency: () => 4,
    clock,
  });
  const surface: DriftViewSurface = {};
  const tree = new DriftTree(model, surface);
  await model.refresh(false);
  assert.equal(model.snapshot().counts.inSync, n);
  /** Another branch: every file holds its trigger with another threshold. */
  const switchTo = (value: number) =>
    triggers.forEach((t, i) => files.set(uriOf(i), triggerFileText({ ...t, threshold: { op: '>', value } })));
  return { model, tree, surface, clock, switchTo };
}

for (const n of [1000, 4000, 16_000]) {
  test(`a branch switch of ${n} files costs work linear in them, however the file events arrive`, async () => {
    const { model, tree, surface, clock, switchTo } = await setup(n);
    let value = 10;
    for (const [name, times] of Object.entries(patterns)) {
      switchTo(++value);
      const timersBefore = clock.work.set;
      let changes = 0;
      const sub = model.onDidChange(() => changes++);
      const work = await measuredAsync(async () => {
        const applied: Promise<void>[] = [];
        const start = clock.now;
        times(n).forEach((at, i) => {
          clock.advanceTo(start + at);
          applied.push(model.fileChanged(uriOf(i)));
        });
        clock.advanceTo(clock.now + 1000);
        await Promise.all(applied);
        // The Drift view shown once the switch is done: VS Code asks for its rows and their items.
        const roots = tree.getChildren();
        roots.forEach((r) => tree.getTreeItem(r));
        return roots;
      });
      sub.dispose();
      const roots = work.result;
      assert.equal(roots.length, n, name);
      assert.equal(surface.message, `${n} differ, 0 in sync (prod)`, name);
      assert.equal(model.snapshot().counts.differs, n, name);
      const blocks = work.blocks(EXTENSION);
      assert.ok(
        blocks <= BLOCKS_PER_FILE * n,
        `${name}: ${changes} batches, ${blocks} blocks (${(blocks / n).toFixed(1)} a file)`,
      );
      assert.deepEqual(
        {
          compared: work.calls(DRIFT, 'driftOfFile'),
          listed: work.calls(SNAPSHOT, 'list'),
          rows: work.calls(PRESENTATION, 'fileRowUncapped'),
          items: work.calls(VIEWS, 'treeItemOf'),
          timers: clock.work.set - timersBefore <= 2 * n,
        },
        { compared: n, listed: 1, rows: n, items: n, timers: true },
        `${name}: every file compared once, the files listed once, one row and item each, at most 2 timers each`,
      );
    }
  });
}

test('with the Drift view shown, a file changed after a switch makes its own row and item again, no other', async () => {
  const { model, tree, clock, switchTo } = await setup(4000);
  switchTo(9);
  const applied = Array.from({ length: 4000 }, (_, i) => model.fileChanged(uriOf(i)));
  clock.advanceTo(1000);
  await Promise.all(applied);
  const before = tree.getChildren();
  before.forEach((r) => tree.getTreeItem(r));
  const work = await measuredAsync(async () => {
    const one = model.fileChanged(uriOf(7));
    clock.advanceTo(clock.now + 1000);
    await one;
    const roots = tree.getChildren();
    roots.forEach((r) => tree.getTreeItem(r));
    return roots;
  });
  const roots = work.result;
  assert.equal(roots.length, 4000);
  assert.equal(roots[8], before[8], 'the rows of the other files are the same rows');
  assert.notEqual(roots[7], before[7]);
  assert.deepEqual(
    { rows: work.calls(PRESENTATION, 'fileRowUncapped'), items: work.calls(VIEWS, 'treeItemOf') },
    { rows: 1, items: 1 },
  );
});
