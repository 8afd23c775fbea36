// Entry point of dist/sync-host.js: triggers as code in the editor (drift of the workspace's trigger
// files, Compare with Service, pull from the Datasets view). Loaded by registerSync.ts after activation,
// so that activation never pays for it.
import * as vscode from 'vscode';
import { TRIGGER_FILE_SUFFIX, triggerFileText, type DatasetListing } from '../../triggerFiles';
import type { ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import type { Settings } from '../core/settings';
import { DriftModel } from './driftModel';
import { DriftDecorations, DriftLenses, DriftTree, ServiceTriggerDocuments } from './driftViews';
import { pull } from './pullCommands';
import { ApplyCommands, type ApplyCommand } from './applyCommands';
import type { Linter } from './applyPlan';
import { scopeOf } from './pullPlanText';
import { configureL10n } from '../core/l10nSetup';
import { SERVICE_TRIGGER_SCHEME } from './serviceTriggerUri';

export interface SyncDeps {
  connections: ConnectionManager;
  settings: Settings;
  feedback: Feedback;
  datasets: (connectionId: string) => string[];
  /** Lints a trigger file's text with given columns (the lint worker): the gate of an apply. */
  lint: Linter;
  /** Trigger writes reached a connection: the Datasets tree reads it again. */
  onTriggersWritten: (connectionId: string) => void;
}

export interface LoadedSync {
  model: DriftModel;
  refresh(): Promise<void>;
  compare(arg: unknown): Promise<void>;
  openServiceTrigger(arg: unknown): Promise<void>;
  pull(command: 'dataset' | 'environment' | 'everything', arg: unknown): Promise<void>;
  apply(command: ApplyCommand, args: readonly unknown[]): Promise<void>;
  /** The canonical trigger file's text (export). */
  fileText(trigger: unknown): string;
  dispose(): void;
}

const EXCLUDE = '{**/node_modules/**,**/.git/**}';
const isTriggerFile = (uri: vscode.Uri): boolean => uri.path.endsWith(TRIGGER_FILE_SUFFIX) && uri.scheme !== SERVICE_TRIGGER_SCHEME;

/** The argument of Compare: a drift item or lens ({ uri, index }), an Explorer or editor uri, or nothing (the active editor). */
function compareTarget(arg: unknown): { uri: string; index?: number } | undefined {
  if (arg instanceof vscode.Uri) return { uri: arg.toString() };
  if (typeof arg === 'object' && arg !== null && typeof (arg as { uri?: unknown }).uri === 'string') {
    const index = (arg as { index?: unknown }).index;
    return { uri: (arg as { uri: string }).uri, ...(typeof index === 'number' ? { index } : {}) };
  }
  const doc = vscode.window.activeTextEditor?.document;
  return doc === undefined ? undefined : { uri: doc.uri.toString() };
}

export function createSync(deps: SyncDeps): LoadedSync {
  // This bundle has its own copy of @vscode/l10n (see core/l10nSetup.ts).
  configureL10n();
  const log = deps.feedback.log;
  const model = new DriftModel({
    workspace: {
      list: async () => (await vscode.workspace.findFiles(`**/*${TRIGGER_FILE_SUFFIX}`, EXCLUDE)).map((u) => u.toString()),
      read: async (uri) => {
        try {
          return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(uri)));
        } catch {
          return undefined;
        }
      },
    },
    connection: async () => {
      const active = await deps.connections.getActive();
      return active && { id: active.profile.id, name: active.profile.name, api: active.client };
    },
    concurrency: () => deps.settings.concurrency(),
    log: (m) => log.info(m),
  });
  const documents = new ServiceTriggerDocuments(model);
  const decorations = new DriftDecorations(model);
  const lenses = new DriftLenses(model);
  const tree = new DriftTree(model);
  const applying = new ApplyCommands({
    connections: deps.connections,
    settings: deps.settings,
    feedback: deps.feedback,
    lint: deps.lint,
    onWritten: (connectionId) => {
      model.forgetLists(connectionId);
      if (model.connectionId() === connectionId) void model.refresh(true);
      deps.onTriggersWritten(connectionId);
    },
  });
  const watcher = vscode.workspace.createFileSystemWatcher(`**/*${TRIGGER_FILE_SUFFIX}`);
  const changed = (uri: vscode.Uri): void => {
    // A file open with unsaved edits is compared when it is saved (onDidSaveTextDocument).
    if (isTriggerFile(uri)) void model.fileChanged(uri.toString()).catch((err: unknown) => log.warn(`drift: ${String(err)}`));
  };
  const disposables: { dispose(): unknown }[] = [
    model,
    documents,
    decorations,
    lenses,
    tree,
    applying,
    watcher,
    vscode.workspace.registerTextDocumentContentProvider(SERVICE_TRIGGER_SCHEME, documents),
    vscode.window.registerFileDecorationProvider(decorations),
    vscode.languages.registerCodeLensProvider([{ language: 'json', pattern: `**/*${TRIGGER_FILE_SUFFIX}` }, { language: 'jsonc', pattern: `**/*${TRIGGER_FILE_SUFFIX}` }], lenses),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (isTriggerFile(doc.uri)) void model.fileChanged(doc.uri.toString(), doc.getText()).catch((err: unknown) => log.warn(`drift: ${String(err)}`));
    }),
    watcher.onDidCreate(changed),
    watcher.onDidChange(changed),
    watcher.onDidDelete((uri) => model.fileDeleted(uri.toString())),
    deps.connections.onDidChangeActive(() => void model.refresh(false)),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void model.refresh(false)),
  ];
  void model.refresh(false);

  const pullDeps = {
    connections: deps.connections,
    settings: deps.settings,
    feedback: deps.feedback,
    datasets: deps.datasets,
    onListed: (connectionId: string, dataset: string, listing: DatasetListing) => model.accept(connectionId, dataset, listing),
    onPulled: () => void model.refresh(false),
  };

  return {
    model,
    refresh: () => model.refresh(true),
    async compare(arg) {
      const target = compareTarget(arg);
      if (target === undefined) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Open a trigger file to compare it with the service.'));
        return;
      }
      if (model.getState().kind !== 'ready') await model.refresh(false);
      const connection = model.connectionName();
      const connectionId = model.connectionId();
      if (connection === undefined || connectionId === undefined) {
        await deps.connections.requireActive();
        return;
      }
      const trigger = model.serviceTriggerOf(target.uri, target.index);
      if (trigger === undefined) {
        const drift = model.fileDrift(target.uri);
        const why = drift?.reason ?? drift?.triggers.find((t) => t.reason !== undefined)?.reason ?? vscode.l10n.t('it is not a trigger file of this workspace');
        void vscode.window.showWarningMessage(vscode.l10n.t('Nothing to compare on {0}: {1}.', connection, why));
        return;
      }
      const left = documents.uriOf(connectionId, trigger);
      const right = vscode.Uri.parse(target.uri);
      const name = right.path.slice(right.path.lastIndexOf('/') + 1);
      await vscode.commands.executeCommand('vscode.diff', left, right, `${name} (${connection}) ↔ ${name} (local)`, { preview: true });
    },
    async openServiceTrigger(arg) {
      const id = typeof arg === 'object' && arg !== null ? (arg as { triggerId?: unknown }).triggerId : undefined;
      const connectionId = model.connectionId();
      if (typeof id !== 'string' || connectionId === undefined) return;
      const trigger = model.serviceTrigger(connectionId, id);
      if (trigger === undefined) return;
      const doc = await vscode.workspace.openTextDocument(documents.uriOf(connectionId, trigger));
      if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
      await vscode.window.showTextDocument(doc, { preview: true });
    },
    async pull(command, arg) {
      const target = scopeOf(command, arg);
      if (target === undefined) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Pull a dataset from its item in the Datasets view, or pull everything.'));
        return;
      }
      await pull(pullDeps, target.scope, target.connectionId);
    },
    apply: (command, args) => applying.run(command, args),
    fileText: (trigger) => triggerFileText(trigger),
    dispose() {
      for (const d of disposables.reverse()) d.dispose();
    },
  };
}
