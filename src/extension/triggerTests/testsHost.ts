// In dist/backtest-host.js (backtestHost.ts): the Test Explorer's trigger tests (finding the test files, running them,
// opening a window in the preview), loaded by registerTriggerTests.ts the first time the Test Explorer, a test
// file or a run needs them, so that activation does not pay for the backtest engine.
import type * as vscode from 'vscode';
import type { ConnectionManager } from '../connections';
import { configureL10n } from '../core/l10nSetup';
import type { Feedback } from '../core/feedback';
import type { QueryServices } from '../queries';
import { TestDiscovery } from './testDiscovery';
import { TestRuns } from './testRuns';

export interface TriggerTestDeps {
  controller: vscode.TestController;
  profile: vscode.TestRunProfile;
  connections: ConnectionManager;
  services: () => QueryServices;
  feedback: Feedback;
}

export interface LoadedTriggerTests extends vscode.Disposable {
  /** Finds the test files (once; later changes come from the watcher). */
  discover(): Promise<void>;
  refresh(): Promise<void>;
  run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void>;
  openPreview(arg: unknown): void;
}

export function createTriggerTests(deps: TriggerTestDeps): LoadedTriggerTests {
  // This bundle has its own copy of @vscode/l10n (see core/l10nSetup.ts).
  configureL10n();
  const discovery = new TestDiscovery(deps.controller, deps.feedback.log);
  const runs = new TestRuns({ ...deps, discovery });
  return {
    discover: () => discovery.start(),
    refresh: async () => {
      await discovery.start();
      await discovery.refresh();
    },
    run: (request, token) => runs.handle(request, token),
    openPreview: (arg) => runs.openPreview(arg),
    dispose: () => {
      runs.dispose();
      discovery.dispose();
    },
  };
}
