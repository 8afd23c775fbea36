// The Test Explorer's adapters in a fake editor (vscode-fake.ts, with a recording test controller): the test
// files found once, a burst of file events handled in one batch that reads only the files it names, and
// Continuous Run running again, on a save, exactly the test files the saved file affects.
import { fake, settle, TextDocument, Uri } from './vscode-fake';
import { CancellationTokenSource, TestRunRequest, type TestMessage } from './vscode-fake-testing';
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TestDiscovery } from '../../src/extension/triggerTests/testDiscovery';
import { TestRuns } from '../../src/extension/triggerTests/testRuns';
import type { Feedback } from '../../src/extension/core/feedback';
import type { ConnectionManager } from '../../src/extension/connections';
import type { QueryServices } from '../../src/extension/queries';

export interface FakeItem {
  id: string;
  label: string;
  uri: Uri;
  parent: FakeItem | undefined;
  children: Items;
  range?: unknown;
  description?: string;
  sortText?: string;
  error?: string;
}

/** A TestItemCollection: items by id, in the order added; each knows its parent. */
class Items {
  readonly map = new Map<string, FakeItem>();
  constructor(private readonly owner: FakeItem | undefined) {}
  get(id: string) {
    return this.map.get(id);
  }
  add(item: FakeItem) {
    item.parent = this.owner;
    this.map.set(item.id, item);
  }
  delete(id: string) {
    this.map.delete(id);
  }
  replace(items: FakeItem[]) {
    this.map.clear();
    for (const i of items) this.add(i);
  }
  forEach(fn: (item: FakeItem) => void) {
    [...this.map.values()].forEach(fn);
  }
  get size() {
    return this.map.size;
  }
}

function controller() {
  const runs: { request: TestRunRequest<FakeItem>; log: string[] }[] = [];
  const invalidated: string[] = [];
  const items = new Items(undefined);
  return {
    runs,
    invalidated,
    items,
    createTestItem: (id: string, label: string, uri: Uri): FakeItem => {
      const item: FakeItem = { id, label, uri, parent: undefined, children: new Items(undefined) };
      item.children = new Items(item);
      return item;
    },
    createTestRun(request: TestRunRequest<FakeItem>) {
      const log: string[] = [];
      runs.push({ request, log });
      const record = (what: string) => (item: FakeItem, message?: TestMessage) => log.push(`${what} ${item.id}${message ? `: ${message.message}` : ''}`);
      return { enqueued: record('enqueued'), started: record('started'), passed: record('passed'), failed: record('failed'), errored: record('errored'), skipped: record('skipped'), appendOutput: () => undefined, end: () => log.push('end') };
    },
    invalidateTestResults: (files: FakeItem[]) => invalidated.push(...files.map((f) => f.id)),
  };
}

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const testFile = (i: number) => `file:///w/triggers/t${i}.trigger-test.json`;
const TEST_TEXT = JSON.stringify({ expectations: [{ name: 'fires', expect: 'fires', from: 'now-2h', to: 'now' }, { name: 'quiet', expect: 'does-not-fire', from: 'now-2h', to: 'now' }] }, null, 2);

beforeEach(() => {
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  for (let i = 0; i < 50; i++) fake.files.set(testFile(i), TEST_TEXT);
  fake.files.set('file:///w/triggers/t0.trigger.json', '{}');
});

describe('finding the test files', () => {
  test('each test file is read once, and a burst of events reads only the files it names, once each', async () => {
    const c = controller();
    const discovery = new TestDiscovery(c as never, log);
    await discovery.start();
    assert.deepEqual([c.items.size, fake.reads], [50, 50]);
    assert.deepEqual([...(c.items.get(testFile(7))?.children.map.keys() ?? [])], ['fires', 'quiet']);

    fake.files.set(testFile(50), TEST_TEXT);
    fake.files.delete(testFile(3));
    for (const _ of [1, 2, 3]) fake.fileEvent('changed', Uri.parse(testFile(1)));
    fake.fileEvent('created', Uri.parse(testFile(50)));
    fake.fileEvent('deleted', Uri.parse(testFile(3)));
    await discovery.settled();
    assert.deepEqual([c.items.size, fake.reads - 50], [50, 2], 'the changed file once, the new one once, the deleted one not at all');
    assert.equal(c.items.get(testFile(3)), undefined);
    assert.deepEqual(discovery.index.affectedBy(testFile(3)), []);
    discovery.dispose();
  });

  test('a test file that is not valid shows its problems on its item', async () => {
    fake.files.set(testFile(0), '{ "expectations": [] }');
    const c = controller();
    const discovery = new TestDiscovery(c as never, log);
    await discovery.start();
    assert.equal(c.items.get(testFile(0))?.error, 'expectations must hold at least one expectation');
    discovery.dispose();
  });
});

describe('Continuous Run', () => {
  async function setup() {
    const c = controller();
    const discovery = new TestDiscovery(c as never, log);
    await discovery.start();
    const profile = {};
    const connections = { getActive: async () => undefined } as unknown as ConnectionManager;
    const runs = new TestRuns({ controller: c as never, profile: profile as never, discovery, connections, services: () => ({}) as QueryServices, feedback: { log } as unknown as Feedback });
    return { c, discovery, runs, profile };
  }

  test('saving a trigger file runs again the tests of the test file that tests it, and nothing else', async () => {
    const { c, runs, profile, discovery } = await setup();
    const watch = new CancellationTokenSource();
    await runs.handle(new TestRunRequest(undefined, undefined, profile, true) as never, watch.token as never);
    assert.equal(c.runs.length, 0, 'turning it on runs nothing yet');
    fake.events.save.fire(new TextDocument(Uri.parse('file:///w/triggers/t0.trigger.json'), '{}'));
    await settle(10);
    assert.deepEqual(c.invalidated, [testFile(0)]);
    assert.equal(c.runs.length, 1);
    assert.deepEqual(c.runs[0]?.request.include?.map((i) => i.id), [testFile(0)]);
    // Without a connection, each of its two tests errors with the sentence that says so.
    assert.deepEqual(c.runs[0]?.log.filter((l) => l.startsWith('errored')).map((l) => l.replace(/: There is no connection: .*$/, ': no connection')), [`errored fires: no connection`, `errored quiet: no connection`]);

    fake.events.save.fire(new TextDocument(Uri.parse('file:///w/README.md'), ''));
    watch.cancel();
    fake.events.save.fire(new TextDocument(Uri.parse(testFile(5)), TEST_TEXT));
    await settle(10);
    assert.equal(c.runs.length, 1, 'an unrelated file, and a save after Continuous Run was turned off, run nothing');
    runs.dispose();
    discovery.dispose();
  });

  test('a watch on one test runs only that test when its file is saved', async () => {
    const { c, runs, profile, discovery } = await setup();
    const one = c.items.get(testFile(5))?.children.get('quiet');
    assert.ok(one);
    await runs.handle(new TestRunRequest([one], undefined, profile, true) as never, new CancellationTokenSource().token as never);
    fake.events.save.fire(new TextDocument(Uri.parse(testFile(5)), TEST_TEXT));
    await settle(10);
    assert.deepEqual(c.runs[0]?.log.filter((l) => !l.startsWith('end')).map((l) => l.split(':')[0]), ['enqueued quiet', 'errored quiet']);
    runs.dispose();
    discovery.dispose();
  });
});
