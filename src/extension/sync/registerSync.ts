// Registers triggers as code at activation: its commands, the Drift view of trigger, burn alert and definitions
// files (its items come from the bundle) and the document provider of the service's triggers, and loads what
// runs them (dist/sync-host.js: drift, Compare with Service, pull, apply) only when something needs it: a
// command, the Drift view shown, or an active connection with a file drift compares in the workspace (there at
// start, opened, or created later). Without a connection drift shows nothing, so a window whose JSON files
// merely activated the extension never loads it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { scopeOf } from './pullScope';
import type { LoadedSync, SyncDeps, SyncHost } from './syncHost';
import {
  AS_SEEN_SCHEME,
  DRIFT_VIEW_ID,
  isDriftFile,
  SERVICE_SLO_SCHEME,
  SERVICE_TRIGGER_SCHEME,
  DRIFT_FILE_GLOB,
} from './syncIds';
import { SKIPPED_BY_SEARCHES } from '../../triggerFiles/searchRules';
import type { TreeDriftSource } from './treeDrift';
import type { SavedSlo } from '../../triggerFiles';
import { parsePlanMessage } from '../../webview/protocol/planView';

export interface RegisteredSync {
  disposables: vscode.Disposable[];
  /** The canonical trigger file's text of a trigger (loads the bundle). */
  fileText(trigger: unknown): string;
  /** Trigger writes reached a connection elsewhere (an agent's apply): drift (when loaded) and the tree read it again. */
  triggersWritten(connectionId: string): void;
  /** Drift for the Datasets tree's trigger rows. */
  drift: TreeDriftSource;
  /** A burn alert or definitions were saved to a connection in a form: drift (when loaded) keeps what was saved. */
  sloSaved(connectionId: string, saved: SavedSlo): void;
}

/** The Drift view's items and the service's trigger documents, answered by the bundle once loaded. */
class DeferredViews implements vscode.TreeDataProvider<unknown>, vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly treeChanged = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.treeChanged.event;
  readonly documentChanged = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.documentChanged.event;
  private forwarding: vscode.Disposable[] = [];

  constructor(
    private readonly loaded: () => LoadedSync | undefined,
    /** Loads the bundle when the view needs it (with an active connection; without one it shows its welcome). */
    private readonly load: () => LoadedSync | undefined,
    /** Loads the bundle, or throws why it could not. */
    private readonly loadNow: () => LoadedSync,
  ) {}

  /** The bundle loaded: its views' changes are this provider's. */
  attach(sync: LoadedSync): void {
    this.forwarding = [
      sync.tree.onDidChangeTreeData((e) => this.treeChanged.fire(e)),
      sync.documents.onDidChange((uri) => this.documentChanged.fire(uri)),
    ];
    this.treeChanged.fire(undefined);
  }

  getChildren(node?: unknown): vscode.ProviderResult<unknown[]> {
    const sync = this.loaded() ?? this.load();
    return sync === undefined ? [] : sync.tree.getChildren(node as Parameters<LoadedSync['tree']['getChildren']>[0]);
  }

  getTreeItem(node: unknown): vscode.TreeItem {
    const sync = this.loaded();
    if (sync === undefined) throw new Error('the Drift view has no items before drift is loaded');
    return sync.tree.getTreeItem(node as Parameters<LoadedSync['tree']['getTreeItem']>[0]);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.loadNow().documents.provideTextDocumentContent(uri);
  }

  dispose(): void {
    for (const d of this.forwarding) d.dispose();
    this.treeChanged.dispose();
    this.documentChanged.dispose();
  }
}

export function registerSync(deps: SyncDeps, extensionUri: vscode.Uri): RegisteredSync {
  const f = deps.feedback;
  let loaded: LoadedSync | undefined;
  const load = (): LoadedSync => {
    if (loaded !== undefined) return loaded;
    // A runtime require of the separate bundle: esbuild leaves a non-literal require alone.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose
    const bundle = require(path.join(extensionUri.fsPath, 'dist', 'sync-host.js')) as {
      createSync: (d: SyncDeps, h: SyncHost) => LoadedSync;
    };
    loaded = bundle.createSync(deps, host);
    untilLoaded.dispose();
    views.attach(loaded);
    driftChanges.push(
      loaded.model.onDidChange(() => driftChanged.fire()),
      loaded.asSeen.onDidChange((uri) => asSeenChanged.fire(uri)),
    );
    driftChanged.fire();
    return loaded;
  };
  const loadReported = (): LoadedSync | undefined => {
    try {
      return load();
    } catch (err) {
      void f.reportError(vscode.l10n.t('start comparing files with the service'), err);
      return undefined;
    }
  };
  const driftChanged = new vscode.EventEmitter<void>();
  const asSeenChanged = new vscode.EventEmitter<vscode.Uri>();
  const driftChanges: { dispose(): void }[] = [driftChanged, asSeenChanged];
  const drift: TreeDriftSource = {
    onDidChange: driftChanged.event,
    stateOf: (connectionId, triggerId) => {
      return loaded?.triggerFileState(connectionId, triggerId);
    },
  };
  const views = new DeferredViews(
    () => loaded,
    () => (deps.connections.activeProfile() === undefined ? undefined : loadReported()),
    load,
  );
  const view = vscode.window.createTreeView(DRIFT_VIEW_ID, { treeDataProvider: views, showCollapseAll: true });
  const host: SyncHost = { view, extensionUri, parsePlanMessage };
  const untilLoaded = loadWhenNeeded(deps, view, loadReported);
  const pull = (command: 'dataset' | 'environment' | 'everything') => (arg: unknown) => {
    const target = scopeOf(command, arg);
    if (target === undefined) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Pull a dataset from its item in the Datasets view, or pull everything.'),
      );
      return;
    }
    return load().pull(target.scope, target.connectionId);
  };
  // From a dataset's item, that dataset (the environment's item: its SLOs' alerts); from the palette, every dataset.
  const pullSlo = (kind: 'burn-alerts' | 'definitions') => (arg: unknown) => {
    const target = scopeOf(arg === undefined ? 'everything' : 'dataset', arg);
    if (target === undefined) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Pull a dataset from its item in the Datasets view, or pull everything.'),
      );
      return;
    }
    return load().pullSlo(kind, target.scope, target.connectionId);
  };
  const disposables = [
    untilLoaded,
    view,
    views,
    vscode.workspace.registerTextDocumentContentProvider(SERVICE_TRIGGER_SCHEME, views),
    // Registered here so that a comparison tab restored after a reload says what to do rather than failing.
    vscode.workspace.registerTextDocumentContentProvider(SERVICE_SLO_SCHEME, {
      provideTextDocumentContent: (uri) =>
        loaded?.sloText(uri) ??
        vscode.l10n.t('This comparison is no longer kept: compare the file with the service again.'),
    }),
    f.registerCommand('obs.drift.refresh', vscode.l10n.t('compare the files with the service'), () => load().refresh()),
    f.registerCommand('obs.drift.compare', vscode.l10n.t('compare the trigger file with the service'), (arg) =>
      load().compare(arg),
    ),
    f.registerCommand('obs.drift.openServiceTrigger', vscode.l10n.t("open the service's trigger"), (arg) =>
      load().openServiceTrigger(arg),
    ),
    // Registered here so that a tab restored after a reload finds its provider.
    vscode.workspace.registerTextDocumentContentProvider(AS_SEEN_SCHEME, {
      onDidChange: asSeenChanged.event,
      provideTextDocumentContent: (uri) => load().asSeen.provideTextDocumentContent(uri),
    }),
    f.registerCommand('obs.showAsEnvironmentSees', vscode.l10n.t('show the file as an environment sees it'), (arg) =>
      load().showAsSeen(arg),
    ),
    f.registerCommand('obs.slo.compare', vscode.l10n.t('compare the file with the service'), (arg) =>
      load().compareSlo(arg),
    ),
    f.registerCommand('obs.pull.dataset', vscode.l10n.t("pull the dataset's triggers"), pull('dataset')),
    f.registerCommand('obs.pull.environment', vscode.l10n.t('pull the environment-wide triggers'), pull('environment')),
    f.registerCommand('obs.pull.all', vscode.l10n.t('pull every trigger'), pull('everything')),
    f.registerCommand('obs.pull.burnAlerts', vscode.l10n.t('pull the burn alerts'), pullSlo('burn-alerts')),
    f.registerCommand('obs.pull.definitions', vscode.l10n.t('pull the dataset definitions'), pullSlo('definitions')),
    f.registerCommand('obs.apply.workspace', vscode.l10n.t('apply the trigger files to the service'), (...args) =>
      load().apply('workspace', args),
    ),
    f.registerCommand('obs.apply.toConnection', vscode.l10n.t('apply the trigger files to a connection'), (...args) =>
      load().apply('workspaceToConnection', args),
    ),
    f.registerCommand('obs.apply.file', vscode.l10n.t('apply the trigger file to the service'), (...args) =>
      load().apply('file', args),
    ),
    f.registerCommand('obs.apply.delete', vscode.l10n.t('delete the trigger from the service'), (...args) =>
      load().apply('delete', args),
    ),
    new vscode.Disposable(() => loaded?.dispose()),
    new vscode.Disposable(() => driftChanges.forEach((d) => d.dispose())),
  ];
  return {
    disposables,
    fileText: (trigger) => load().fileText(trigger),
    triggersWritten: (connectionId) =>
      loaded === undefined ? deps.onTriggersWritten(connectionId) : loaded.triggersWritten(connectionId),
    drift,
    // Before drift is loaded it has read nothing to read again.
    sloSaved: (connectionId, saved) => loaded?.sloSaved(connectionId, saved),
  };
}

/**
 * Calls `load` when drift is needed: an active connection and something to compare, a trigger, burn alert or
 * definitions file (in the workspace once activation is done, opened or created later) or the Drift view shown.
 * Looks once activation is done, off its path, then on each of those events; disposed once loaded.
 */
function loadWhenNeeded(deps: SyncDeps, view: vscode.TreeView<unknown>, load: () => unknown): vscode.Disposable {
  let done = false;
  const check = async (): Promise<void> => {
    if (done || deps.connections.activeProfile() === undefined) return;
    const wanted =
      view.visible ||
      vscode.workspace.textDocuments.some((d) => isDriftFile(d.uri)) ||
      (await vscode.workspace.findFiles(DRIFT_FILE_GLOB, SKIPPED_BY_SEARCHES, 1)).length > 0;
    if (!wanted || done || deps.connections.activeProfile() === undefined) return;
    // Tried once: a bundle that fails to load is reported once, and the commands say so again when run.
    done = true;
    load();
  };
  const later = (): void => void check().catch((err: unknown) => deps.feedback.log.warn(`drift: ${String(err)}`));
  const created = vscode.workspace.createFileSystemWatcher(DRIFT_FILE_GLOB, false, true, true);
  const timer = setTimeout(later, 0);
  return vscode.Disposable.from(
    new vscode.Disposable(() => clearTimeout(timer)),
    created,
    created.onDidCreate(later),
    vscode.workspace.onDidOpenTextDocument((doc) => {
      if (isDriftFile(doc.uri)) later();
    }),
    deps.connections.onDidChangeActive(later),
    view.onDidChangeVisibility((e) => {
      if (e.visible) later();
    }),
  );
}
