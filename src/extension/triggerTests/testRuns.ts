// Running trigger tests from the Test Explorer: the run's items enqueued, each started and finished as the
// engine gets to it (passed; failed with expected against actual; failed when not testable, with the reason;
// errored), the waits for the service's 10 queries a minute in the run's output and the status bar, the
// run's cancel stopping it between queries. Continuous Run runs again what a saved test or trigger file
// affects, and only that. A finished window opens in the preview from the failure or the test's menu, and a
// recorded one from its recording (the lens over the expectation). Each test file's recording, beside it, is
// read for every run; a run that records hands back what it recorded.
import * as vscode from 'vscode';
import { utcSpan, type ExpectationOutcome } from '../../backtest';
import type { ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import { workspaceName } from '../core/triggerFileAccess';
import { readWorkspaceText, type SeenText } from '../core/workspaceText';
import type { QueryServices } from '../queries';
import type { TestDiscovery, TestItems } from './testDiscovery';
import { resultView } from './testResults';
import { outsideFolder } from './triggerLocation';
import { readRecordingBeside } from './testRecordings';
import {
  runTestFiles,
  type FileToRun,
  type RanAgainst,
  type RecordedFile,
  type RecordingRead,
  type RunHooks,
  type TriggerRead,
} from './runTests';

/** The context value of a failure whose window opens in the preview (package.json's testing/message/context menu). */
const PREVIEWABLE_MESSAGE = 'obs.triggerTest.window';

export interface TestRunDeps {
  controller: TestItems & Pick<vscode.TestController, 'createTestRun' | 'invalidateTestResults'>;
  profile: vscode.TestRunProfile;
  discovery: TestDiscovery;
  connections: Pick<ConnectionManager, 'getActive'>;
  services: () => QueryServices;
  feedback: Pick<Feedback, 'log'>;
  /** A trigger file's text as the connection's environment sees it, when it is one (docs/ENVIRONMENTS.md). */
  seenText: SeenText;
}

interface Watch {
  include: readonly vscode.TestItem[] | undefined;
  exclude: readonly vscode.TestItem[] | undefined;
}

const keyOf = (file: string, id: string) => `${file}\u0000${id}`;

export class TestRuns implements vscode.Disposable {
  /** The last evaluated outcome of each test, to open its window in the preview. */
  private readonly finished = new Map<string, { outcome: ExpectationOutcome; against: RanAgainst }>();
  private readonly watching = new Set<Watch>();
  private readonly saved: vscode.Disposable;

  constructor(private readonly deps: TestRunDeps) {
    this.saved = vscode.workspace.onDidSaveTextDocument((doc) => this.onSaved(doc.uri));
  }

  /** The run profile's handler: a run now, or (Continuous Run) a watch until its token is cancelled. */
  async handle(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    if (!request.continuous) {
      await this.run(request, token);
      return;
    }
    const watch: Watch = { include: request.include, exclude: request.exclude };
    this.watching.add(watch);
    token.onCancellationRequested(() => this.watching.delete(watch));
  }

  /** A saved test or trigger file: its tests' results are out of date, and each watch runs those it covers. */
  private onSaved(uri: vscode.Uri): void {
    const { controller, discovery, profile } = this.deps;
    const files = discovery.index.affectedBy(uri.toString()).flatMap((k) => controller.items.get(k) ?? []);
    if (files.length === 0) return;
    controller.invalidateTestResults(files);
    for (const w of this.watching) {
      const include =
        w.include === undefined
          ? files
          : w.include.filter((i) => files.some((f) => i.id === f.id || i.parent?.id === f.id));
      if (include.length > 0)
        void this.run(
          new vscode.TestRunRequest(include, w.exclude, profile, true),
          new vscode.CancellationTokenSource().token,
        );
    }
  }

  /** The test files of a request with the expectations asked for (a file: all of them), less those excluded. */
  private selection(request: vscode.TestRunRequest): Map<vscode.TestItem, vscode.TestItem[]> {
    const excluded = new Set((request.exclude ?? []).map((i) => keyOf(i.parent?.id ?? '', i.id)));
    const out = new Map<vscode.TestItem, vscode.TestItem[]>();
    const add = (file: vscode.TestItem, tests: vscode.TestItem[]) => {
      if (excluded.has(keyOf('', file.id))) return;
      const kept = tests.filter((t) => !excluded.has(keyOf(file.id, t.id)));
      out.set(file, [...new Set([...(out.get(file) ?? []), ...kept])]);
    };
    const all = (file: vscode.TestItem) => {
      const tests: vscode.TestItem[] = [];
      file.children.forEach((t) => tests.push(t));
      return tests;
    };
    if (request.include === undefined) this.deps.controller.items.forEach((file) => add(file, all(file)));
    for (const item of request.include ?? []) {
      // The request may hold items from before the file was read again: take the current ones by id.
      const file = this.deps.controller.items.get(item.parent?.id ?? item.id);
      if (!file) continue;
      const test = item.parent ? file.children.get(item.id) : undefined;
      add(file, item.parent ? (test ? [test] : []) : all(file));
    }
    return out;
  }

  /** Runs the tests of a request; with `record`, what the recordings do not hold is recorded and handed back, the run's progress told to it. */
  async run(
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
    record?: { report(message: string): void },
  ): Promise<RecordedFile[]> {
    await this.deps.discovery.start();
    await this.deps.discovery.settled();
    const selected = this.selection(request);
    const run = this.deps.controller.createTestRun(request, vscode.l10n.t('Trigger tests'));
    const items = new Map<string, vscode.TestItem>();
    for (const [file, tests] of selected) for (const t of tests) items.set(keyOf(file.id, t.id), t);
    for (const t of items.values()) run.enqueued(t);
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    if (token.isCancellationRequested) abort.abort();
    const pending = new Set(items.keys());
    let recorded: RecordedFile[] = [];
    try {
      const files = await this.filesOf(selected);
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Trigger tests') },
        async (progress) => {
          const hooks = this.hooks(run, items, pending, (message) => {
            progress.report({ message });
            record?.report(message);
          });
          const conn = await this.deps.connections.getActive();
          const connection = conn && {
            api: conn.client,
            session: this.deps.services().sessionFor(conn),
            name: conn.profile.name,
          };
          const seen = this.seenOn(conn?.profile.name, files, run, record !== undefined);
          if ('refused' in seen) {
            for (const k of pending) run.errored(items.get(k) as vscode.TestItem, new vscode.TestMessage(seen.refused));
            pending.clear();
            return;
          }
          const done = await runTestFiles({
            files,
            connection,
            ...seen,
            record: record !== undefined,
            hooks,
            signal: abort.signal,
            nowSeconds: Math.floor(Date.now() / 60_000) * 60,
          });
          if (done.cancelled) run.appendOutput(`${vscode.l10n.t('Cancelled: the tests not run yet are skipped.')}\r\n`);
          recorded = done.cancelled ? [] : done.recorded;
        },
      );
    } catch (err) {
      this.deps.feedback.log.error(`trigger tests: ${String(err)}`);
      for (const k of pending)
        run.errored(
          items.get(k) as vscode.TestItem,
          new vscode.TestMessage(
            vscode.l10n.t('The run failed: {0}', err instanceof Error ? err.message : String(err)),
          ),
        );
      pending.clear();
    } finally {
      cancel.dispose();
      for (const k of pending) run.skipped(items.get(k) as vscode.TestItem);
      run.end();
    }
    return recorded;
  }

  /**
   * How a run reads its files on a connection: a trigger as the connection's environment sees it, when it is one
   * other than the home one of the test file's folder, as obs test --env does; such a test runs against the
   * service, never from its recording (recordings hold the home's query results), and is never recorded.
   * Refused when a run that records would record for such an environment: each of its tests errors, saying why.
   */
  private seenOn(
    connection: string | undefined,
    files: readonly FileToRun[],
    run: vscode.TestRun,
    records: boolean,
  ): { refused: string } | Pick<Parameters<typeof runTestFiles>[0], 'readTrigger' | 'readRecording'> {
    const environmentOf = (f: Pick<FileToRun, 'key'>) =>
      connection === undefined
        ? undefined
        : this.deps.seenText(vscode.Uri.parse(f.key, true), connection, '').environment;
    const first = files.map(environmentOf).find((environment) => environment !== undefined);
    if (records && first !== undefined)
      return {
        refused: vscode.l10n.t(
          "Nothing was recorded: recordings hold the home environment's query results, and {0} is {1}. Record on the home environment's connection.",
          connection ?? '',
          first,
        ),
      };
    if (first !== undefined)
      run.appendOutput(
        `${vscode.l10n.t("Each trigger is tested as {0} sees it, against its service; its recordings (the home environment's) are not used.", first)}\r\n`,
      );
    return {
      readTrigger: async (f: FileToRun, path: string): Promise<TriggerRead> => {
        const read = await this.readTrigger(f, path);
        if (!read.ok || connection === undefined) return read;
        return {
          ...read,
          text: this.deps.seenText(vscode.Uri.parse(f.key, true).with({ path }), connection, read.text).text,
        };
      },
      readRecording: (f: FileToRun): Promise<RecordingRead> =>
        environmentOf(f) === undefined ? this.readRecording(f) : Promise.resolve({ ok: true, text: undefined }),
    };
  }

  /** One test run from its file's recording alone (no connection, no query): its outcome, for the preview. */
  async fromRecording(
    file: FileToRun,
  ): Promise<{ outcome: ExpectationOutcome; against: RanAgainst | undefined } | undefined> {
    let found: { outcome: ExpectationOutcome; against: RanAgainst | undefined } | undefined;
    const hooks: RunHooks = {
      started: () => undefined,
      finished: (_f, _id, outcome, against) => (found = { outcome, against }),
      output: () => undefined,
      progress: () => undefined,
    };
    const readRecording = (f: FileToRun) => this.readRecording(f);
    await runTestFiles({
      files: [file],
      connection: undefined,
      readTrigger: (f, path) => this.readTrigger(f, path),
      readRecording,
      hooks,
      signal: new AbortController().signal,
      nowSeconds: Math.floor(Date.now() / 60_000) * 60,
    });
    return found;
  }

  /** The recording beside a test file: read in a local workspace folder only, and only inside it. */
  readRecording(f: Pick<FileToRun, 'key'>): Promise<RecordingRead> {
    const uri = vscode.Uri.parse(f.key, true);
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return readRecordingBeside(uri.scheme === 'file' && folder ? folder.uri.fsPath : undefined, uri.fsPath);
  }

  private async filesOf(selected: Map<vscode.TestItem, vscode.TestItem[]>): Promise<FileToRun[]> {
    const files: FileToRun[] = [];
    for (const [file, tests] of selected) {
      if (!file.uri || tests.length === 0) continue;
      const read = await readWorkspaceText(file.uri);
      const tested = tests.map((t) => ({ id: t.id, name: t.label }));
      files.push(
        read.ok
          ? { key: file.id, path: file.uri.path, text: read.text, tests: tested }
          : { key: file.id, path: file.uri.path, text: '', unreadable: read.reason, tests: tested },
      );
    }
    return files;
  }

  private hooks(
    run: vscode.TestRun,
    items: ReadonlyMap<string, vscode.TestItem>,
    pending: Set<string>,
    status: (message: string) => void,
  ): RunHooks {
    const startedAt = new Map<string, number>();
    let lastShape = '';
    return {
      started: (file, id) => {
        const item = items.get(keyOf(file, id));
        startedAt.set(keyOf(file, id), Date.now());
        if (item) run.started(item);
      },
      finished: (file, id, outcome, against) => {
        const key = keyOf(file, id);
        const item = items.get(key);
        pending.delete(key);
        if (!item) return;
        if (outcome.preview && against) this.finished.set(key, { outcome, against });
        this.report(run, item, outcome, Date.now() - (startedAt.get(key) ?? Date.now()));
      },
      output: (line) => run.appendOutput(`${line}\r\n`),
      progress: (message) => {
        status(message);
        // A wait counts down every second: its first second goes to the output, not each one.
        const shape = message.replace(/\d+/g, '#');
        if (shape !== lastShape) run.appendOutput(`${message}\r\n`);
        lastShape = shape;
      },
    };
  }

  private report(run: vscode.TestRun, item: vscode.TestItem, outcome: ExpectationOutcome, ms: number): void {
    const view = resultView(outcome);
    const location = item.uri && item.range ? new vscode.Location(item.uri, item.range) : undefined;
    // With a location the line also shows in the editor, where only what did not pass needs saying.
    run.appendOutput(`${view.line.split('\n').join('\r\n')}\r\n`, view.state === 'passed' ? undefined : location, item);
    const message = (text: string) => {
      const m =
        view.state === 'failed' && view.expected !== undefined && view.actual !== undefined
          ? vscode.TestMessage.diff(text, view.expected, view.actual)
          : new vscode.TestMessage(text);
      if (location) m.location = location;
      if (outcome.preview) m.contextValue = PREVIEWABLE_MESSAGE;
      return m;
    };
    if (view.state === 'passed') run.passed(item, ms);
    else if (view.state === 'failed') run.failed(item, message(view.message), ms);
    else run.errored(item, message(view.message), ms);
  }

  /** The trigger file a test file names, read only inside the test file's workspace folder. */
  private async readTrigger(f: FileToRun, path: string): Promise<TriggerRead> {
    const testUri = vscode.Uri.parse(f.key, true);
    const uri = testUri.with({ path });
    const label = workspaceName(uri);
    const folder = vscode.workspace.getWorkspaceFolder(testUri);
    const outside = vscode.l10n.t('it lies outside the workspace folder of the test file, so it is not read');
    if (!folder || vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() !== folder.uri.toString())
      return { ok: false, reason: vscode.l10n.t('{0}: {1}', label, outside) };
    const refused = uri.scheme === 'file' ? await outsideFolder(folder.uri.fsPath, uri.fsPath) : undefined;
    if (refused !== undefined) return { ok: false, reason: vscode.l10n.t('{0}: {1}', label, refused) };
    const read = await readWorkspaceText(uri);
    return read.ok
      ? { ok: true, text: read.text, label }
      : { ok: false, reason: vscode.l10n.t('The trigger file {0}: {1}', label, read.reason) };
  }

  /** Opens a finished test's window in the preview: from a failure's button, or the test's menu. */
  openPreview(arg: unknown): void {
    const item = testItemOf(arg);
    const found = item?.parent ? this.finished.get(keyOf(item.parent.id, item.id)) : undefined;
    const preview = found?.outcome.preview;
    if (!item || !found || !preview) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Run the test first: its window opens in the preview once a run has evaluated it.'),
      );
      return;
    }
    const { outcome, against } = found;
    const span = utcSpan(preview.from, preview.to);
    this.deps.services().showPreviewWindow({
      key: `trigger-test:${keyOf(item.parent?.id ?? '', item.id)}`,
      name: against.triggerName,
      subtitle: vscode.l10n.t(
        '{0} · "{1}" · {2} to {3} · {4} on {5}',
        against.triggerLabel,
        outcome.name,
        span.from,
        span.to,
        preview.dataset,
        against.connection,
      ),
      summary: outcome.message,
      preview,
    });
  }

  dispose(): void {
    this.saved.dispose();
    this.watching.clear();
  }
}

/**
 * The test item of a command's argument: the item (its menus, inline button and gutter), or `{ test }` (a test
 * message's menu).
 */
export function testItemOf(arg: unknown): vscode.TestItem | undefined {
  const isItem = (v: unknown): v is vscode.TestItem =>
    typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' && 'children' in v;
  if (isItem(arg)) return arg;
  const test = typeof arg === 'object' && arg !== null ? (arg as { test?: unknown }).test : undefined;
  return isItem(test) ? test : undefined;
}
