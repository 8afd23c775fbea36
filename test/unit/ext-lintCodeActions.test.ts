// The linter's code actions (diagnostics/lintCodeActions.ts) in a fake editor (vscode-fake.ts): quick fixes
// come from the version's lint at once; the fix-all edit is computed in the worker only when it is asked for
// (a request of its kind, as fix-all on save makes, or the light bulb's "fix all" chosen), once per version.
// Work is counted at the worker boundary (the jobs posted to the worker threads, lint-workers.ts), and in the
// provider by V8's block counts (outside-work.ts), never timed.
import { measuredAsync } from './outside-work'; // first: V8 counts blocks only in code compiled after it
import {
  CodeActionKind,
  Diagnostic,
  EventEmitter,
  fake,
  fileUri,
  Range,
  TextDocument,
  Uri,
  WorkspaceEdit,
} from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIX_ALL_KIND, LintCodeActions } from '../../src/extension/diagnostics/lintCodeActions';
import { LintedDocuments } from '../../src/extension/diagnostics/lintedDocuments';
import { LINT_SOURCE } from '../../src/extension/diagnostics/lintMapping';
import { LintRunner } from '../../src/extension/diagnostics/lintRunner';
import { TriggerFileMatcher } from '../../src/extension/diagnostics/triggerFiles';
import { trigger } from './lint-helpers';
import { countedWorkers, LINT_WORKER_FILE as workerFile } from './lint-workers';

/** Two fixable problems (a frequency below the minimum, a read-only member). */
const BAD = trigger('"frequency": 90', '"created_at": "t1"');

type Provider = LintCodeActions;
type Context = Parameters<Provider['provideCodeActions']>[2];
type Token = Parameters<Provider['provideCodeActions']>[3];
type Action = Parameters<Provider['resolveCodeAction']>[0];

const token: Token = { isCancellationRequested: false, onCancellationRequested: new EventEmitter<unknown>().event };

function setup(maxDiagnostics?: number) {
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  const workers = countedWorkers();
  const runner = new LintRunner({ workerFile, createWorker: workers.createWorker });
  const documents = new LintedDocuments(runner, () => ({
    metricsDatasets: [],
    ...(maxDiagnostics === undefined ? {} : { maxDiagnostics }),
  }));
  const actions = new LintCodeActions(
    new TriggerFileMatcher(() => ['**/*.trigger.json'], 'obs-trigger'),
    documents,
    'obs-trigger',
  );
  const doc = new TextDocument(fileUri('api/a.trigger.json'), BAD);
  /** The workers started and the jobs posted to them, by kind. */
  const work = () => ({ started: workers.started(), jobs: workers.byKind() });
  return { work, workers, runner, documents, actions, doc, dispose: () => (documents.clear(), runner.dispose()) };
}

/** What VS Code hands the provider: the file's obs-lint diagnostics, as Problems shows them. */
async function problems(documents: LintedDocuments, doc: TextDocument): Promise<Diagnostic[]> {
  const linted = await documents.lint(doc.uri.toString(), doc.version, () => doc.getText());
  return linted.diagnostics.map((d) => {
    const shown = new Diagnostic(
      new Range(d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character),
      d.message,
    );
    shown.source = LINT_SOURCE;
    shown.code = { value: d.rule, target: Uri.parse(`https://docs.example.invalid/rules#${d.rule}`) };
    return shown;
  });
}

/** A request VS Code makes by itself (the light bulb, on save): CodeActionTriggerKind.Automatic. */
const context = (diagnostics: Diagnostic[], only?: Context['only']): Context => ({ diagnostics, only, triggerKind: 2 });

test('the light bulb gets its quick fixes and a "fix all" without an edit: no fix-all is computed until it is chosen, then once', async () => {
  const { work, workers, actions, documents, doc, dispose } = setup();
  try {
    const asked = await problems(documents, doc);
    const offered = await actions.provideCodeActions(doc, new Range(0, 0, 0, 0), context(asked), token);
    assert.deepEqual(
      offered.map((a) => [a.title, a.edit === undefined]),
      [
        ['Set frequency to 120', false],
        ['Remove read-only created_at', false],
        ['Fix all auto-fixable problems in this file', true],
      ],
    );
    assert.equal(workers.jobs('fixAll'), 0);
    const fixAll = offered[2] as Action;
    const resolved = await actions.resolveCodeAction(fixAll, token);
    assert.ok(resolved.edit instanceof WorkspaceEdit);
    assert.equal(resolved.edit.edits.length, 1);
    await actions.resolveCodeAction(fixAll, token);
    assert.deepEqual(work(), { started: 1, jobs: { lint: 1, fixAll: 1 } });
  } finally {
    dispose();
  }
});

test('fix-all asked for by its kind (fix-all on save) is computed once per version, however often it is asked', async () => {
  const { work, workers, actions, documents, doc, dispose } = setup();
  try {
    await problems(documents, doc);
    for (const only of [FIX_ALL_KIND, CodeActionKind.SourceFixAll, FIX_ALL_KIND]) {
      const offered = await actions.provideCodeActions(doc, new Range(0, 0, 0, 0), context([], only), token);
      assert.deepEqual(
        offered.map((a) => [a.title, a.kind?.value, a.edit === undefined]),
        [['Fix all auto-fixable problems', 'source.fixAll.obs', false]],
      );
    }
    assert.equal(workers.jobs('fixAll'), 1);
    // A new version: its own lint, and its own fix-all when asked.
    doc.edit(BAD.replace('"frequency": 90', '"frequency": 30'));
    await actions.provideCodeActions(doc, new Range(0, 0, 0, 0), context([], FIX_ALL_KIND), token);
    assert.deepEqual(work(), { started: 1, jobs: { lint: 2, fixAll: 2 } });
  } finally {
    dispose();
  }
});

test('a quick fix request alone computes no fix-all', async () => {
  const { workers, actions, documents, doc, dispose } = setup();
  try {
    const asked = await problems(documents, doc);
    const offered = await actions.provideCodeActions(
      doc,
      new Range(0, 0, 0, 0),
      context(asked, CodeActionKind.QuickFix),
      token,
    );
    assert.deepEqual(
      offered.map((a) => a.title),
      ['Set frequency to 120', 'Remove read-only created_at'],
    );
    assert.equal(workers.jobs('fixAll'), 0);
  } finally {
    dispose();
  }
});

test('12,000 diagnostics asked at once get their quick fixes, each tied to its diagnostic, in work linear in them', async () => {
  const { actions, documents, dispose } = setup(20_000);
  try {
    const many = new TextDocument(fileUri('api/many.trigger.json'), `[${Array(6000).fill(BAD).join(',')}]`);
    const asked = await problems(documents, many);
    assert.equal(asked.length, 12_000);
    const work = await measuredAsync(() =>
      actions.provideCodeActions(many, new Range(0, 0, 0, 0), context(asked, CodeActionKind.QuickFix), token),
    );
    const offered = work.result;
    assert.equal(offered.length, 12_000);
    assert.ok(offered.every((a, i) => a.diagnostics?.length === 1 && a.diagnostics[0] === asked[i]));
    // A scan of the asked diagnostics per fix ran its test 72 million times here; a lookup runs a few blocks.
    const blocks = work.blocks('/src/extension/diagnostics/lintCodeActions.ts');
    assert.ok(blocks <= 12 * 12_000, `${blocks} blocks for 12,000 diagnostics`);
  } finally {
    dispose();
  }
});

test('quick fixes asked while the lint they wait for is cancelled by others (everything linted again) still come', async () => {
  const { actions, documents, doc, dispose } = setup();
  try {
    const asked = await problems(documents, doc);
    documents.clear();
    const key = doc.uri.toString();
    // The diagnostics' own lint of this version, under way when the code actions are asked for.
    documents.lint(key, doc.version, () => doc.getText()).catch(() => undefined);
    const offered = actions.provideCodeActions(doc, new Range(0, 0, 0, 0), context(asked), token);
    // A setting changed: every lint under way is cancelled (and the files are linted again).
    documents.clear();
    assert.deepEqual(
      (await offered).map((a) => a.title),
      ['Set frequency to 120', 'Remove read-only created_at', 'Fix all auto-fixable problems in this file'],
    );
  } finally {
    dispose();
  }
});
