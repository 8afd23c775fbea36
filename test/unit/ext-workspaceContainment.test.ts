// The editor reads and edits trigger files only inside their workspace folder once links are resolved
// (src/extension/core/workspaceContainment.ts): the agent tools' reader names a file that leads out and never
// reads it, and the id write-back never edits a link or a file outside. A real workspace folder on disk, in the
// fake editor (vscode-fake.ts), holds a link to a secret file and a link to a folder outside.
import { fake, Uri, vscode } from './vscode-fake';
import { after, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  editRefusal,
  leftOutMessage,
  outsideItsFolder,
  splitInside,
} from '../../src/extension/core/workspaceContainment';
import { PlannedFiles } from '../../src/extension/core/triggerFileAccess';
import { WorkspaceTriggerFiles } from '../../src/extension/agents/workspaceFiles';

const top = realpathSync(mkdtempSync(join(tmpdir(), 'obs-workspace-')));
after(() => rmSync(top, { recursive: true, force: true }));
const workspace = join(top, 'workspace');
const outside = join(top, 'elsewhere');
const SECRET = 'OUTSIDE-MARKER KEY=hunter2';
mkdirSync(join(workspace, 'triggers'), { recursive: true });
mkdirSync(outside);
writeFileSync(join(workspace, 'triggers', 'a.trigger.json'), '{}\n');
writeFileSync(join(outside, 'secret.trigger.json'), SECRET);
writeFileSync(join(outside, 'b.trigger.json'), SECRET);
symlinkSync(join(outside, 'secret.trigger.json'), join(workspace, 'triggers', 'leak.trigger.json'));
symlinkSync(outside, join(workspace, 'triggers', 'escape'));
symlinkSync('a.trigger.json', join(workspace, 'triggers', 'alias.trigger.json'));

const folder = Uri.file(workspace);
const uri = (path: string) => Uri.file(join(workspace, ...path.split('/')));
const INSIDE = uri('triggers/a.trigger.json');
const LEAK = uri('triggers/leak.trigger.json');
const ESCAPED = uri('triggers/escape/b.trigger.json');
const ALIAS = uri('triggers/alias.trigger.json');

describe('which workspace files lie inside their folder', () => {
  test('a file inside, or a link to one inside, lies inside', async () => {
    assert.deepEqual(await Promise.all([INSIDE, ALIAS].map((f) => outsideItsFolder(f, folder))), [false, false]);
  });

  test('a link to a file outside, a file under a link to a folder outside, and a file in no workspace folder lie outside', async () => {
    assert.deepEqual(
      await Promise.all([
        outsideItsFolder(LEAK, folder),
        outsideItsFolder(ESCAPED, folder),
        outsideItsFolder(INSIDE, undefined),
      ]),
      [true, true, true],
    );
  });

  test('a file of another scheme cannot be told and is kept', async () => {
    assert.equal(
      await outsideItsFolder(
        Uri.parse('vscode-vfs://github/o/r/triggers/leak.trigger.json'),
        Uri.parse('vscode-vfs://github/o/r'),
      ),
      false,
    );
  });

  test('splitInside keeps the order given', async () => {
    assert.deepEqual(await splitInside([LEAK, INSIDE, ESCAPED, ALIAS], () => folder), {
      inside: [INSIDE, ALIAS],
      leftOut: [LEAK, ESCAPED],
    });
  });

  test('the id write-back refuses a link, even one leading inside, and a file outside', async () => {
    assert.deepEqual(await Promise.all([INSIDE, ALIAS, LEAK, ESCAPED].map((f) => editRefusal(f, folder))), [
      undefined,
      'link',
      'link',
      'outside',
    ]);
  });

  test("an Apply's message names at most five of the files left out", () => {
    assert.equal(
      leftOutMessage(['a', 'b']),
      'Not planned, as they lie outside their workspace folder once links are resolved: a, b.',
    );
    assert.equal(
      leftOutMessage(['a', 'b', 'c', 'd', 'e', 'f', 'g']),
      'Not planned, as they lie outside their workspace folder once links are resolved: a, b, c, d, e and 2 more.',
    );
  });
});

describe('in the editor', () => {
  beforeEach(() => {
    fake.reset();
    fake.folders = [{ uri: folder, name: 'workspace', index: 0 }];
    // The fake reads its map, not the disk: a file read through a link would answer the secret.
    for (const f of [INSIDE, ALIAS]) fake.files.set(f.toString(), '{}\n');
    for (const f of [LEAK, ESCAPED]) fake.files.set(f.toString(), SECRET);
    Object.assign(vscode, { FileType: { File: 1, Directory: 2 } });
    Object.assign(vscode.workspace.fs, {
      stat: (u: Uri) => Promise.resolve({ type: statSync(u.fsPath).isDirectory() ? 2 : 1 }),
    });
  });

  test("the agent tools' reader names each file leading outside its workspace folder and never reads it", async () => {
    const read = await new WorkspaceTriggerFiles().read([], 'every kind', new AbortController().signal);
    const reason = 'it lies outside its workspace folder once links are resolved, so it is not read';
    assert.deepEqual(read, {
      files: [
        { file: 'triggers/a.trigger.json', text: '{}\n' },
        { file: 'triggers/alias.trigger.json', text: '{}\n' },
        { file: 'triggers/escape/b.trigger.json', text: undefined, problem: reason },
        { file: 'triggers/leak.trigger.json', text: undefined, problem: reason },
      ],
      problems: [],
    });
    assert.equal(fake.reads, 2);
  });

  test("drift and plan's reader finds the burn alert and definitions files beside the trigger files, a folder standing for every kind; noise's finds trigger files only", async () => {
    const slo = ['burn-alerts/api/a.burn-alert.json', 'definitions/api.definitions.json'];
    for (const f of [...slo, 'notes/other.json']) {
      mkdirSync(join(workspace, f, '..'), { recursive: true });
      writeFileSync(join(workspace, f), '{}\n');
      fake.files.set(uri(f).toString(), '{}\n');
    }
    const signal = new AbortController().signal;
    const names = async (paths: string[], kinds: 'triggers' | 'every kind') =>
      (await new WorkspaceTriggerFiles().read(paths, kinds, signal)).files.map((f) => f.file);
    const triggers = [
      'triggers/a.trigger.json',
      'triggers/alias.trigger.json',
      'triggers/escape/b.trigger.json',
      'triggers/leak.trigger.json',
    ];
    assert.deepEqual(await names([], 'every kind'), [...slo, ...triggers]);
    assert.deepEqual(await names(['burn-alerts', 'definitions/api.definitions.json'], 'every kind'), slo);
    assert.deepEqual(await names([], 'triggers'), triggers);
    assert.deepEqual(await names(['burn-alerts'], 'triggers'), []);
  });

  test("the agent tools' reader refuses a path given that leads outside through a link, and searches nothing there", async () => {
    const read = await new WorkspaceTriggerFiles().read(
      ['triggers/escape', 'triggers/leak.trigger.json'],
      'every kind',
      new AbortController().signal,
    );
    assert.deepEqual(read, {
      files: [],
      problems: [
        '"triggers/escape" lies outside the workspace folder once links are resolved: it is not read',
        '"triggers/leak.trigger.json" lies outside the workspace folder once links are resolved: it is not read',
      ],
    });
    assert.equal(fake.reads, 0);
  });

  test("past 2,000 trigger files the agent tools' reader reads none: a plan of part of them could delete what the rest hold", async () => {
    for (let i = 0; i < 2_001; i++)
      fake.files.set(Uri.joinPath(folder, 'bulk', `t${i}.trigger.json`).toString(), '{}\n');
    const reads = fake.reads;
    await assert.rejects(new WorkspaceTriggerFiles().read([], 'triggers', new AbortController().signal), {
      message: 'more than 2000 trigger files lie under those paths: name folders that hold at most 2000',
    });
    assert.equal(fake.reads, reads);
  });

  /** The files of a plan, as the editor's Apply and the agents' apply hold them. */
  class Planned extends PlannedFiles {
    add(u: Uri): string {
      return this.remember(u);
    }
  }

  test('the id write-back finds a link refused, and a file outside too, before it reads them', async () => {
    const files = new Planned();
    const names = [ALIAS, LEAK, ESCAPED, INSIDE].map((f) => files.add(f));
    assert.deepEqual(await Promise.all(names.map((n) => files.state(n))), [
      { refused: 'link' },
      { refused: 'link' },
      { refused: 'outside' },
      { dirty: false, text: '{}\n' },
    ]);
    assert.equal(fake.reads, 1);
  });

  test('the edit of the id write-back is refused on a link, even when asked directly', async () => {
    const files = new Planned();
    const name = files.add(ALIAS);
    assert.equal(await files.editAndSave(name, { offset: 1, length: 0, content: '"id": "x"' }), undefined);
    assert.deepEqual(
      [fake.documents, readFileSync(join(workspace, 'triggers', 'a.trigger.json'), 'utf8')],
      [[], '{}\n'],
    );
  });
});
