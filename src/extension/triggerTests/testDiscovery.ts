// The Test Explorer's items: every `*.trigger-test.json` of the workspace, each with its expectations at their
// ranges in the file. Found once, then kept up to date by a file watcher and the editor's changes, collected
// in batches (a branch switch changes many files at once): each batch reads only the files it names.
import * as vscode from 'vscode';
import { isTriggerTestFile, triggerPathFor, TRIGGER_TEST_SUFFIX } from '../../backtest';
import { Batch } from '../core/batch';
import type { Logger } from '../core/logger';
import { safeLabel } from '../core/text';
import { readWorkspaceText } from '../core/workspaceText';
import { TestIndex } from './testIndex';
import { lineStarts, outlineTestFile, positionOf, type TestOutline } from './testOutline';
import { SKIPPED_BY_SEARCHES } from '../../triggerFiles/searchRules';

const TEST_FILE_GLOB = `**/*${TRIGGER_TEST_SUFFIX}`;

type Change = 'read' | 'gone';

/** What discovery uses of the test controller: its items, and new ones. */
export type TestItems = Pick<vscode.TestController, 'items' | 'createTestItem'>;

export class TestDiscovery implements vscode.Disposable {
  /** Which test files a save affects. */
  readonly index = new TestIndex();
  private started: Promise<void> | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly batch = new Batch<string, Change>((b) => this.enqueue(() => this.apply(b)), { windowMs: 150 });
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly controller: TestItems,
    private readonly log: Logger,
  ) {}

  /** Finds the test files the first time it is asked (the Test Explorer opened, a test file opened, a run). */
  start(): Promise<void> {
    return (this.started ??= this.begin());
  }

  /** Finds every test file again (the Test Explorer's refresh): one gone since is removed. */
  refresh(): Promise<void> {
    return this.enqueue(() => this.findAll());
  }

  /** Waits for what is pending (a run reads the items as they are after the last edit). */
  async settled(): Promise<void> {
    this.batch.flushNow();
    await this.queue;
  }

  private async begin(): Promise<void> {
    const watcher = vscode.workspace.createFileSystemWatcher(TEST_FILE_GLOB);
    const changed = (change: Change) => (uri: vscode.Uri) => this.batch.add(uri.toString(), change);
    this.disposables.push(
      watcher,
      watcher.onDidCreate(changed('read')),
      watcher.onDidChange(changed('read')),
      watcher.onDidDelete(changed('gone')),
      // Edits not saved yet move the ranges too, so the gutter stays on the right lines.
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.controller.items.get(e.document.uri.toString())) this.batch.add(e.document.uri.toString(), 'read');
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.refresh()),
    );
    await this.enqueue(() => this.findAll());
  }

  /** Batches are applied one after another, never interleaved. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work).catch((err: unknown) => this.log.error(`trigger tests: ${String(err)}`));
    return this.queue;
  }

  private async findAll(): Promise<void> {
    const uris = await vscode.workspace.findFiles(TEST_FILE_GLOB, SKIPPED_BY_SEARCHES);
    const found = new Set(uris.map((u) => u.toString()));
    const gone: string[] = [];
    this.controller.items.forEach((item) => {
      if (!found.has(item.id)) gone.push(item.id);
    });
    for (const key of gone) this.remove(key);
    await this.apply(new Map(uris.map((u) => [u.toString(), 'read' as const])));
    this.log.info(`trigger tests: ${uris.length} test files`);
  }

  private async apply(batch: ReadonlyMap<string, Change>): Promise<void> {
    for (const [key, change] of batch) {
      const uri = vscode.Uri.parse(key, true);
      if (change === 'gone' || !isTriggerTestFile(uri.path)) {
        this.remove(key);
        continue;
      }
      const read = await readWorkspaceText(uri);
      this.upsert(uri, read.ok ? read.text : undefined, read.ok ? undefined : read.reason);
    }
  }

  private remove(key: string): void {
    this.controller.items.delete(key);
    this.index.delete(key);
  }

  private upsert(uri: vscode.Uri, text: string | undefined, unreadable: string | undefined): void {
    const key = uri.toString();
    const outline: TestOutline =
      text === undefined
        ? { expectations: [], trigger: undefined, file: undefined, problems: [] }
        : outlineTestFile(text);
    const item =
      this.controller.items.get(key) ??
      this.controller.createTestItem(key, uri.path.slice(uri.path.lastIndexOf('/') + 1), uri);
    const folder = uri.with({ path: uri.path.slice(0, uri.path.lastIndexOf('/')) });
    item.description = vscode.workspace.asRelativePath(folder, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
    item.sortText = vscode.workspace.asRelativePath(uri, true);
    item.error =
      unreadable !== undefined
        ? vscode.l10n.t('The test file cannot be read: {0}', unreadable)
        : outline.problems.length > 0
          ? outline.problems.map((p) => p.message).join('\n')
          : undefined;
    const starts = lineStarts(text ?? '');
    const at = (offset: number) => {
      const p = positionOf(starts, offset);
      return new vscode.Position(p.line, p.character);
    };
    item.children.replace(
      outline.expectations.map((e) => {
        const label = safeLabel(e.name);
        const child = item.children.get(e.id) ?? this.controller.createTestItem(e.id, label, uri);
        // A name edited in the file keeps its item (same id) but shows the new words.
        child.label = label;
        child.range = new vscode.Range(at(e.start), at(e.end));
        return child;
      }),
    );
    const triggerPath = triggerPathFor(uri.path, outline.trigger);
    this.index.set(key, triggerPath === undefined ? undefined : uri.with({ path: triggerPath }).toString());
    this.controller.items.add(item);
  }

  dispose(): void {
    this.batch.clear();
    for (const d of this.disposables) d.dispose();
  }
}
