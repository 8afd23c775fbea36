// Registers the triggers-as-code commands at activation and loads what runs them (dist/sync-host.js:
// drift, Compare with Service, pull, with the schemas they need) after activation or on first use.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoadedSync, SyncDeps } from './syncHost';

export interface RegisteredSync {
  disposables: vscode.Disposable[];
  /** The canonical trigger file's text of a trigger (loads the bundle). */
  fileText(trigger: unknown): string;
}

export function registerSync(deps: SyncDeps, extensionUri: vscode.Uri): RegisteredSync {
  let loaded: LoadedSync | undefined;
  const load = (): LoadedSync => {
    // A runtime require of the separate bundle: esbuild leaves a non-literal require alone.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose
    loaded ??= (require(path.join(extensionUri.fsPath, 'dist', 'sync-host.js')) as { createSync: (d: SyncDeps) => LoadedSync }).createSync(deps);
    return loaded;
  };
  const f = deps.feedback;
  // Drift shows on its own (badges, lenses, the Drift view): started once activation is done.
  const timer = setTimeout(() => {
    try {
      load();
    } catch (err) {
      void f.reportError(vscode.l10n.t('start comparing trigger files with the service'), err);
    }
  }, 0);
  const disposables = [
    new vscode.Disposable(() => clearTimeout(timer)),
    f.registerCommand('obs.drift.refresh', vscode.l10n.t('compare the trigger files with the service'), () => load().refresh()),
    f.registerCommand('obs.drift.compare', vscode.l10n.t('compare the trigger file with the service'), (arg) => load().compare(arg)),
    f.registerCommand('obs.drift.openServiceTrigger', vscode.l10n.t("open the service's trigger"), (arg) => load().openServiceTrigger(arg)),
    f.registerCommand('obs.pull.dataset', vscode.l10n.t("pull the dataset's triggers"), (arg) => load().pull('dataset', arg)),
    f.registerCommand('obs.pull.environment', vscode.l10n.t('pull the environment-wide triggers'), (arg) => load().pull('environment', arg)),
    f.registerCommand('obs.pull.all', vscode.l10n.t('pull every trigger'), (arg) => load().pull('everything', arg)),
    f.registerCommand('obs.apply.workspace', vscode.l10n.t('apply the trigger files to the service'), (...args) => load().apply('workspace', args)),
    f.registerCommand('obs.apply.toConnection', vscode.l10n.t('apply the trigger files to a connection'), (...args) => load().apply('workspaceToConnection', args)),
    f.registerCommand('obs.apply.file', vscode.l10n.t('apply the trigger file to the service'), (...args) => load().apply('file', args)),
    f.registerCommand('obs.apply.delete', vscode.l10n.t('delete the trigger from the service'), (...args) => load().apply('delete', args)),
    new vscode.Disposable(() => loaded?.dispose()),
  ];
  return { disposables, fileText: (trigger) => load().fileText(trigger) };
}
