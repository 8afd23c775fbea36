// The linter in a fake editor (vscode-fake.ts, with the real lint worker from dist/): deleting a folder forgets
// its Problems entries without scanning Problems, and live columns arriving re-lint only the files naming
// those datasets. Work is counted from outside the linter, never timed: the lint jobs posted to the worker
// threads, the files the fake editor read and the Problems entries it was asked for, the blocks V8 ran in
// the index by path.
import { measured, measuredAsync } from './outside-work'; // first: V8 counts blocks only in code compiled after it
import { fake, settle, TextDocument, Uri } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DatasetColumns } from '../../src/lint';
import { Settings } from '../../src/extension/core/settings';
import { LiveColumns } from '../../src/extension/diagnostics/liveColumns';
import { TriggerDiagnostics } from '../../src/extension/diagnostics/triggerDiagnostics';
import { UriTree } from '../../src/extension/diagnostics/uriTree';
import { trigger } from './lint-helpers';
import { watchWorkerJobs, type WorkerTraffic } from './lint-workers';

const root = join(import.meta.dirname, '..', '..');
/** The index by path of Problems entries. */
const INDEX = '/src/extension/diagnostics/uriTree.ts';
const quietLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A trigger of `dataset` whose query names the column `duraton_ms` (a typo of `duration_ms`). */
const triggerOf = (dataset: string): string =>
  trigger(
    `"dataset_slug": "${dataset}"`,
    '"query": { "calculations": [{ "op": "P99", "column": "duraton_ms" }], "time_range": 1800 }',
  );

/** The linter over a workspace folder `/w` holding `files` (uri → text); `open` of them open in editors. */
function editorLint(files: ReadonlyMap<string, string>, open: readonly string[] = []) {
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  for (const [uri, text] of files) fake.files.set(uri, text);
  fake.documents = open.map((uri) => new TextDocument(Uri.parse(uri), files.get(uri) ?? ''));
  const work = watchWorkerJobs();
  const settings = new Settings({
    get: () => undefined,
    inspect: () => undefined,
    update: () => Promise.resolve(),
    onDidChange: () => ({ dispose: () => undefined }),
  });
  const diagnostics = new TriggerDiagnostics(quietLog, Uri.file(root), settings, 'obs-trigger');
  const problems = fake.collections[0];
  assert.ok(problems, 'the linter made its Problems collection');
  const dispose = () => {
    work.stop();
    diagnostics.dispose();
  };
  return { diagnostics, work, problems, dispose };
}

/** Waits until no lint job started and no file was read for a while (work that was coming has come). */
async function quiet(work: WorkerTraffic): Promise<void> {
  let last = -1;
  for (;;) {
    await settle(150);
    const now = work.jobs() * 1e6 + fake.reads;
    if (now === last) return;
    last = now;
  }
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ok(); i++) await settle(10);
  assert.ok(ok(), `timed out waiting for ${what}`);
}

test('deleting a folder of 10 trigger files forgets their Problems entries without looking at the other entries', async () => {
  const files = new Map<string, string>();
  for (let d = 0; d < 20; d++)
    for (let f = 0; f < 10; f++) files.set(`file:///w/triggers/d${d}/t${f}.trigger.json`, triggerOf('web'));
  const { diagnostics, problems, dispose } = editorLint(files);
  // The same index alone, to compare with: the work of finding a folder's entries and deleting them.
  const alone = new UriTree<string>();
  for (const uri of files.keys()) alone.set(uri, uri);
  const lookUpAndDelete = (folder: string) => () => {
    const found = alone.under(folder);
    for (const uri of found) alone.delete(uri);
    alone.delete(folder);
  };
  try {
    const summary = await diagnostics.lintWorkspace();
    assert.equal(summary?.files, 200);
    assert.equal(problems.entries.size, 200);
    const visits = problems.visits;
    // Deleted in the Explorer (onDidDeleteFiles), then by git (the file watcher).
    const explorer = measured(() =>
      fake.events.deleteFiles.fire({ files: [Uri.parse('file:///w/triggers/d7')] }),
    ).blocks(INDEX);
    const watcher = measured(() => fake.fileEvent('deleted', Uri.parse('file:///w/triggers/d8'))).blocks(INDEX);
    assert.equal(problems.entries.size, 180);
    assert.deepEqual(
      [...problems.entries.keys()].filter((u) => /\/d[78]\//.test(u)),
      [],
    );
    assert.equal(problems.visits - visits, 0, 'Problems was scanned');
    assert.deepEqual(
      [explorer, watcher],
      [
        measured(lookUpAndDelete('file:///w/triggers/d7')).blocks(INDEX),
        measured(lookUpAndDelete('file:///w/triggers/d8')).blocks(INDEX),
      ],
    );
  } finally {
    dispose();
  }
});

test("5 datasets' live columns arriving re-lint only the 20 of 200 files that name them: open ones from the editor, closed ones from disk", async () => {
  const files = new Map<string, string>();
  const naming: string[] = [];
  for (let i = 0; i < 200; i++) {
    const dataset = i < 20 ? `a${(i % 5) + 1}` : 'web';
    const uri = `file:///w/triggers/${dataset}/t${i}.trigger.json`;
    files.set(uri, triggerOf(dataset));
    if (i < 20) naming.push(uri);
  }
  // Every other file open: 10 of the 20 and 90 of the rest.
  const open = [...files.keys()].filter((_, i) => i % 2 === 0);
  const { diagnostics, work, problems, dispose } = editorLint(files, open);
  const arrivals = new Map<string, (columns: DatasetColumns) => void>();
  const live = new LiveColumns({
    connection: () => 'c1',
    fetch: (_connection, dataset) =>
      dataset === 'web'
        ? Promise.resolve('missing' as const)
        : new Promise((resolve) => arrivals.set(dataset, resolve)),
  });
  const subscription = diagnostics.useColumns(live);
  try {
    // The open files' lints ask for their datasets' columns; Lint All puts the closed ones in Problems.
    await diagnostics.lintWorkspace();
    await until('the columns of a1 to a5 asked for', () => arrivals.size === 5);
    await quiet(work);
    assert.equal(problems.entries.size, 200);
    assert.deepEqual([...arrivals.keys()].sort(), ['a1', 'a2', 'a3', 'a4', 'a5']);
    const jobs = work.jobs('lint');
    const reads = fake.reads;
    const rulesOf = (uri: string) =>
      problems.entries.get(uri)?.diagnostics.map((d) => (d.code as { value: string }).value) ?? [];
    for (const [dataset, resolve] of arrivals) {
      resolve({ names: ['duration_ms'], hidden: [] });
      const its = naming.filter((uri) => uri.includes(`/${dataset}/`));
      await until(`the files of ${dataset} linted with its columns`, () =>
        its.every((uri) => rulesOf(uri).includes('query/unknown-column')),
      );
      await quiet(work);
    }
    assert.ok(work.jobs('lint') - jobs <= 20, `lint jobs after the columns arrived: ${work.jobs('lint') - jobs}`);
    assert.ok(fake.reads - reads <= 10, `files read from disk: ${fake.reads - reads}`);
    // Each dataset's columns crossed to the worker once, not once per job naming (or not naming) it.
    assert.deepEqual(work.columns(), { messages: 5, entries: 5 });
    // Each of the 20 now has the column check (open and closed alike); the others are as they were.
    assert.deepEqual(
      naming.filter((uri) => !rulesOf(uri).includes('query/unknown-column')),
      [],
    );
    assert.deepEqual([...files.keys()].filter((uri) => rulesOf(uri).includes('query/unknown-column')).length, 20);
  } finally {
    subscription.dispose();
    live.dispose();
    dispose();
  }
});

test('2,000 open trigger files linted again (another connection) each find their document by a lookup, not a scan of the open ones', async () => {
  const files = new Map<string, string>();
  for (let i = 0; i < 2000; i++) files.set(`file:///w/triggers/web/t${i}.trigger.json`, triggerOf('web'));
  const { diagnostics, work, problems, dispose } = editorLint(files, [...files.keys()]);
  const live = new LiveColumns({ connection: () => 'c1', fetch: () => Promise.resolve('missing' as const) });
  const subscription = diagnostics.useColumns(live);
  try {
    await until('every open file linted', () => problems.entries.size === 2000);
    await quiet(work);
    const jobs = work.jobs('lint');
    const relinted = await measuredAsync(async () => {
      live.connectionChanged();
      await until('every open file linted again', () => work.jobs('lint') - jobs === 2000);
      await quiet(work);
    });
    assert.equal(work.jobs('lint') - jobs, 2000);
    // A scan of the open documents per lint ran its test 4 million times here.
    const blocks = relinted.blocks('/src/extension/diagnostics/triggerDiagnostics.ts');
    assert.ok(blocks <= 50 * 2000, `${blocks} blocks for 2,000 files`);
  } finally {
    subscription.dispose();
    live.dispose();
    dispose();
  }
});
