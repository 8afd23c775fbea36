// The Problems entries under a deleted folder are found through an index by path (diagnostics/uriTree.ts,
// used by lintCollection.ts), in work proportional to that folder's entries: counted from outside (the
// blocks V8 ran in the index, the collection entries the fake editor was asked for), never timed.
import { measured } from './outside-work'; // first: V8 counts blocks only in code compiled after it
import { fake, Uri } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { LintCollection } from '../../src/extension/diagnostics/lintCollection';
import { RuleDocs } from '../../src/extension/diagnostics/ruleDocs';
import { UriTree } from '../../src/extension/diagnostics/uriTree';

const rules = join(import.meta.dirname, '..', '..', 'docs', 'rules.md');
const INDEX = '/src/extension/diagnostics/';

/** The blocks the index ran for a lookup (after one lookup, so what is compiled on first use is not counted). */
function lookupBlocks(lookup: () => unknown): number {
  lookup();
  return measured(lookup).blocks(INDEX);
}

test("a uri tree finds a folder's entries and the entry itself, not its neighbours with a longer name", () => {
  const tree = new UriTree<string>();
  for (const u of [
    'file:///w/a/x.json',
    'file:///w/a/b/y.json',
    'file:///w/ab/z.json',
    'file:///w/a',
    'file:///v/a/x.json',
  ])
    tree.set(u, u);
  assert.deepEqual(tree.under('file:///w/a').sort(), ['file:///w/a', 'file:///w/a/b/y.json', 'file:///w/a/x.json']);
  assert.deepEqual(tree.under('file:///w/a/').sort(), ['file:///w/a', 'file:///w/a/b/y.json', 'file:///w/a/x.json']);
  assert.deepEqual(tree.under('file:///w/a/x.json'), ['file:///w/a/x.json']);
  assert.deepEqual(tree.under('file:///w/c'), []);
  assert.equal(tree.size, 5);
});

test('deleting from a uri tree removes only that entry and prunes the folders left empty', () => {
  const tree = new UriTree<string>();
  tree.set('file:///w/a/b/y.json', 'y');
  tree.set('file:///w/a/x.json', 'x');
  assert.equal(tree.delete('file:///w/a'), false);
  assert.equal(tree.delete('file:///w/a/b/y.json'), true);
  assert.equal(tree.delete('file:///w/a/b/y.json'), false);
  assert.deepEqual(tree.under('file:///w'), ['x']);
  assert.equal(tree.size, 1);
  const pruned = new UriTree<string>();
  pruned.set('file:///w/a/b/y.json', 'y');
  pruned.delete('file:///w/a/b/y.json');
  // Nothing is left to walk through: a walk from the root does what it does in a tree never filled.
  assert.deepEqual(pruned.under('file:///'), []);
  const empty = new UriTree<string>();
  assert.equal(
    lookupBlocks(() => pruned.under('file:///')),
    lookupBlocks(() => empty.under('file:///')),
  );
});

/** Problems holding `folders` folders of 10 trigger files each (f0 to f<folders - 1>). */
function problemsOf(folders: number) {
  const problems = new LintCollection(
    new RuleDocs({ file: rules, fileUrl: Uri.file(rules).toString(), configured: () => '', log: () => undefined }),
  );
  for (let folder = 0; folder < folders; folder++) {
    for (let file = 0; file < 10; file++)
      problems.show(Uri.parse(`file:///w/triggers/f${folder}/t${file}.trigger.json`), [], 100);
  }
  const collection = fake.collections.at(-1);
  assert.ok(collection);
  return { problems, collection };
}

test('a folder of 10 files deleted among 10,000 Problems entries: its entries are found in the work it takes among 200, without scanning Problems', () => {
  fake.reset();
  const { problems, collection } = problemsOf(1000);
  const few = problemsOf(20);
  assert.equal(collection.entries.size, 10_000);
  const before = collection.visits;
  const found = problems.urisUnder(Uri.parse('file:///w/triggers/f12'));
  assert.deepEqual(
    found.map((u) => u.toString()).sort(),
    Array.from({ length: 10 }, (_, i) => `file:///w/triggers/f12/t${i}.trigger.json`),
  );
  assert.equal(collection.visits - before, 0, 'the Problems collection was scanned');
  const folder = Uri.parse('file:///w/triggers/f12');
  assert.equal(
    lookupBlocks(() => problems.urisUnder(folder)),
    lookupBlocks(() => few.problems.urisUnder(folder)),
  );
  few.problems.dispose();
  for (const u of found) problems.delete(u);
  assert.deepEqual(problems.urisUnder(Uri.parse('file:///w/triggers/f12')), []);
  assert.equal(problems.urisUnder(Uri.parse('file:///w/triggers')).length, 9_990);
  problems.dispose();
});
