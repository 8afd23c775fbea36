// The Problems entries under a deleted folder are found through an index by path (diagnostics/uriTree.ts,
// used by lintCollection.ts), in work proportional to that folder's entries: counted (index nodes visited,
// collection entries looked at), never timed.
import { fake, Uri } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { LintCollection } from '../../src/extension/diagnostics/lintCollection';
import { RuleDocs } from '../../src/extension/diagnostics/ruleDocs';
import { UriTree, type UriTreeWork } from '../../src/extension/diagnostics/uriTree';
import { workCounter } from './work-counter';

const rules = join(import.meta.dirname, '..', '..', 'docs', 'rules.md');

test('a uri tree finds a folder\'s entries and the entry itself, not its neighbours with a longer name', () => {
  const tree = new UriTree<string>();
  for (const u of ['file:///w/a/x.json', 'file:///w/a/b/y.json', 'file:///w/ab/z.json', 'file:///w/a', 'file:///v/a/x.json']) tree.set(u, u);
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
  const work = workCounter<UriTreeWork>();
  const counted = new UriTree<string>({ observe: work.observe });
  counted.set('file:///w/a/b/y.json', 'y');
  counted.delete('file:///w/a/b/y.json');
  // Nothing is left to walk through: the root alone.
  assert.deepEqual(counted.under('file:///'), []);
  assert.ok(work.count('visit') <= 3, `visits: ${work.count('visit')}`);
});

test('a folder of 10 files deleted among 10,000 Problems entries: its entries are found in work proportional to 10, without scanning Problems', () => {
  fake.reset();
  const work = workCounter<UriTreeWork>();
  const problems = new LintCollection(new RuleDocs({ file: rules, fileUrl: Uri.file(rules).toString(), configured: () => '', log: () => undefined }), { observe: work.observe });
  for (let folder = 0; folder < 1000; folder++) {
    for (let file = 0; file < 10; file++) problems.show(Uri.parse(`file:///w/triggers/f${folder}/t${file}.trigger.json`), [], 100);
  }
  const collection = fake.collections[0];
  assert.ok(collection);
  assert.equal(collection.entries.size, 10_000);
  const before = collection.visits;
  const found = problems.urisUnder(Uri.parse('file:///w/triggers/f123'));
  assert.deepEqual(found.map((u) => u.toString()).sort(), Array.from({ length: 10 }, (_, i) => `file:///w/triggers/f123/t${i}.trigger.json`));
  assert.equal(collection.visits - before, 0, 'the Problems collection was scanned');
  // The walk down (file:, '', '', w, triggers, f123) and the folder's node and 10 files.
  assert.ok(work.count('visit') <= 3 * 10, `index nodes visited: ${work.count('visit')}`);
  for (const u of found) problems.delete(u);
  assert.deepEqual(problems.urisUnder(Uri.parse('file:///w/triggers/f123')), []);
  assert.equal(problems.urisUnder(Uri.parse('file:///w/triggers')).length, 9_990);
  problems.dispose();
});
