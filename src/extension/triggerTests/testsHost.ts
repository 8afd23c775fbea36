// In dist/backtest-host.js (backtestHost.ts): the Test Explorer's trigger tests (finding the test files, running them,
// opening a window in the preview, recording windows and previewing recorded ones), loaded by
// registerTriggerTests.ts the first time the Test Explorer, a test file or a run needs them, so that activation
// does not pay for the backtest engine.
import * as vscode from 'vscode';
import { TRIGGER_RECORDING_SUFFIX } from '../../backtest';
import type { ConnectionManager } from '../connections';
import { configureL10n } from '../core/l10nSetup';
import type { Feedback } from '../core/feedback';
import type { QueryServices } from '../queries';
import type { SeenText } from '../core/workspaceText';
import { RecordingCommands } from './recordingCommands';
import { TestDiscovery } from './testDiscovery';
import { TestRuns } from './testRuns';

export interface TriggerTestDeps {
  controller: vscode.TestController;
  profile: vscode.TestRunProfile;
  connections: ConnectionManager;
  services: () => QueryServices;
  feedback: Feedback;
  /** A trigger file's text as the connection's environment sees it, when it is one (docs/ENVIRONMENTS.md). */
  seenText: SeenText;
  /** The lenses over recorded tests show what the recordings hold now. */
  refreshLenses(): void;
}

export interface LoadedTriggerTests extends vscode.Disposable {
  /** Finds the test files (once; later changes come from the watcher). */
  discover(): Promise<void>;
  refresh(): Promise<void>;
  run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void>;
  openPreview(arg: unknown): void;
  record(arg: unknown): Promise<void>;
  previewRecorded(arg: unknown, id?: unknown): Promise<void>;
  recordedLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]>;
}

export function createTriggerTests(deps: TriggerTestDeps): LoadedTriggerTests {
  // This bundle has its own copy of @vscode/l10n (see core/l10nSetup.ts).
  configureL10n();
  const discovery = new TestDiscovery(deps.controller, deps.feedback.log);
  const runs = new TestRuns({ ...deps, discovery });
  const recordings = new RecordingCommands({ ...deps, runs });
  // A recording written, pulled or deleted changes which tests the lenses offer to preview.
  const watcher = vscode.workspace.createFileSystemWatcher(`**/*${TRIGGER_RECORDING_SUFFIX}`);
  const refresh = () => deps.refreshLenses();
  const watching = [watcher, watcher.onDidCreate(refresh), watcher.onDidChange(refresh), watcher.onDidDelete(refresh)];
  return {
    discover: () => discovery.start(),
    refresh: async () => {
      await discovery.start();
      await discovery.refresh();
    },
    run: (request, token) => runs.handle(request, token),
    openPreview: (arg) => runs.openPreview(arg),
    record: (arg) => recordings.record(arg),
    previewRecorded: (arg, id) => recordings.previewRecorded(arg, id),
    recordedLenses: (doc) => recordings.lenses(doc),
    dispose: () => {
      for (const d of watching) d.dispose();
      runs.dispose();
      discovery.dispose();
    },
  };
}
