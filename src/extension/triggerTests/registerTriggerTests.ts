// Registers the Test Explorer's controller for trigger test files at activation (its run profile, with
// Continuous Run), the commands that open a test's window in the preview and record windows, and the lens over
// recorded tests; what finds and runs the tests (dist/backtest-host.js, with the backtest engine) loads the first
// time the Test Explorer, a test file or a run needs it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SeenText } from '../core/workspaceText';
import { isTriggerTestFile, TRIGGER_TEST_SUFFIX } from '../../backtest/testPaths';
import type { ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import type { QueryServices } from '../queries';
import type { LoadedTriggerTests, TriggerTestDeps } from './testsHost';

const TEST_CONTROLLER_ID = 'obs.triggerTests';

export interface TriggerTestFeatureDeps {
  extensionUri: vscode.Uri;
  connections: ConnectionManager;
  services: () => QueryServices;
  feedback: Feedback;
  seenText: SeenText;
}

export function registerTriggerTests(deps: TriggerTestFeatureDeps): vscode.Disposable[] {
  const controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, vscode.l10n.t('Trigger Tests'));
  const lensesChanged = new vscode.EventEmitter<void>();
  let loaded: LoadedTriggerTests | undefined;
  const load = (): LoadedTriggerTests => {
    // A runtime require of the separate bundle: esbuild leaves a non-literal require alone.
    /* eslint-disable @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose */
    loaded ??= (
      require(path.join(deps.extensionUri.fsPath, 'dist', 'backtest-host.js')) as {
        createTriggerTests: (d: TriggerTestDeps) => LoadedTriggerTests;
      }
    ).createTriggerTests({ ...deps, controller, profile, refreshLenses: () => lensesChanged.fire() });
    /* eslint-enable @typescript-eslint/no-require-imports */
    return loaded;
  };
  const profile = controller.createRunProfile(
    vscode.l10n.t('Run'),
    vscode.TestRunProfileKind.Run,
    (request, token) => load().run(request, token),
    true,
    undefined,
    true,
  );
  controller.resolveHandler = async (item) => {
    if (item === undefined) await load().discover();
  };
  controller.refreshHandler = () => load().refresh();
  // A test file open in an editor shows its results in the gutter: its items are needed before the Test Explorer opens.
  const discoverFor = (doc: vscode.TextDocument) => {
    if (isTriggerTestFile(doc.uri.path)) void load().discover();
  };
  vscode.workspace.textDocuments.forEach(discoverFor);
  // "Preview the Recorded Window" over each test whose window the file's recording holds.
  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensesChanged.event,
    provideCodeLenses: (doc) => (isTriggerTestFile(doc.uri.path) ? load().recordedLenses(doc) : []),
  };
  return [
    controller,
    lensesChanged,
    vscode.workspace.onDidOpenTextDocument(discoverFor),
    vscode.languages.registerCodeLensProvider({ pattern: `**/*${TRIGGER_TEST_SUFFIX}` }, lenses),
    deps.feedback.registerCommand(
      'obs.triggerTests.openPreview',
      vscode.l10n.t("open the test's window in the preview"),
      (arg) => load().openPreview(arg),
    ),
    deps.feedback.registerCommand('obs.triggerTests.record', vscode.l10n.t('record the window'), (arg) =>
      load().record(arg),
    ),
    deps.feedback.registerCommand(
      'obs.triggerTests.previewRecorded',
      vscode.l10n.t('preview the recorded window'),
      (arg, id) => load().previewRecorded(arg, id),
    ),
    { dispose: () => loaded?.dispose() },
  ];
}
