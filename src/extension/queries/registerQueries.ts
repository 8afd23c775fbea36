// Registers the query commands and the preview lens at activation, and loads what runs them
// (dist/queries-host.js: the runner, the preview, the results panel and their schemas) only on first use.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoadedQueries } from './queriesHost';
import { RESULTS_PANEL_VIEW_TYPE } from './queryIds';
import type { QueryFeatureDeps } from './queryCommands';
import type { QueryServices } from './queryServices';

/** "Preview: would it have fired?" at the top of every trigger file. */
class PreviewLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly isTriggerFile: (doc: vscode.TextDocument) => boolean) {}

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!this.isTriggerFile(doc)) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, {
        title: `$(pulse) ${vscode.l10n.t('Preview: would it have fired?')}`,
        tooltip: vscode.l10n.t('Evaluate this trigger, as it is in the editor, over the last 24 hours of data'),
        command: 'obs.trigger.preview',
        arguments: [{ uri: doc.uri.toString() }],
      }),
    ];
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export interface RegisteredQueries {
  lenses: { refresh(): void };
  disposables: vscode.Disposable[];
  /** For the trigger tests and the noise report: the connection's query session and the results panel (loads the bundle). */
  services: () => QueryServices;
}

export function registerQueries(
  deps: QueryFeatureDeps,
  isTriggerFile: (doc: vscode.TextDocument) => boolean,
): RegisteredQueries {
  let loaded: LoadedQueries | undefined;
  const load = (): LoadedQueries => {
    // A runtime require of the separate bundle: esbuild leaves a non-literal require alone.
    /* eslint-disable @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose */
    loaded ??= (
      require(path.join(deps.extensionUri.fsPath, 'dist', 'queries-host.js')) as {
        createQueries: (d: QueryFeatureDeps) => LoadedQueries;
      }
    ).createQueries(deps);
    /* eslint-enable @typescript-eslint/no-require-imports */
    return loaded;
  };
  const f = deps.feedback;
  const lenses = new PreviewLenses(isTriggerFile);
  return {
    lenses,
    services: () => load().services,
    disposables: [
      lenses,
      f.registerCommand('obs.query.run', vscode.l10n.t('run a saved query'), () => load().runs.runById()),
      f.registerCommand('obs.trigger.runQuery', vscode.l10n.t("run the trigger's query"), (arg) =>
        load().runs.runTrigger(arg, false),
      ),
      f.registerCommand('obs.trigger.runQueryWithOptions', vscode.l10n.t("run the trigger's query"), (arg) =>
        load().runs.runTrigger(arg, true),
      ),
      f.registerCommand('obs.trigger.preview', vscode.l10n.t('preview the trigger'), (arg) =>
        load().previews.fromArg(arg),
      ),
      vscode.languages.registerCodeLensProvider([{ language: 'json' }, { language: 'jsonc' }], lenses),
      // A results panel open at a window reload comes back with its last result (onWebviewPanel activation).
      vscode.window.registerWebviewPanelSerializer(RESULTS_PANEL_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state: unknown) => load().restore(panel, state),
      }),
    ],
  };
}
