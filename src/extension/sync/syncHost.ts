// Entry point of dist/sync-host.js: triggers as code in the editor (drift of the workspace's trigger, burn
// alert and definitions files, Compare with Service, pull from the Datasets view). Loaded by registerSync.ts
// when something needs it (such a file with an active connection, the Drift view, a command), never by
// activation itself. It holds no zod: the pull commands' arguments are read in the activation bundle (pullScope.ts).
import * as vscode from 'vscode';
import { triggerFileText, type RecipientLister } from '../../triggerFiles';
import { connectionLabel, type ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import type { Settings } from '../core/settings';
import type { RecipientDirectory } from '../core/recipients';
import type { SavedSlo } from '../../triggerFiles';
import { workspaceName } from '../core/triggerFileAccess';
import { DriftModel } from './driftModel';
import type { AwayEnvironment } from '../core/workspaceEnvironments';
import { AsSeenDocuments, showAsEnvironmentSees, type EnvironmentsOfFile } from './asSeenDocuments';
import {
  DriftDecorations,
  DriftLenses,
  DriftTree,
  ServiceTriggerDocuments,
  workspacePath,
  type DriftViewSurface,
} from './driftViews';
import type { TriggerFileState } from './treeDrift';
import { pull, type PullDeps } from './pullCommands';
import { pullSloFiles } from './sloPullCommands';
import { compareSloFile, ServiceSloDocuments } from './sloCompare';
import type { SloKind } from './sloPullText';
import type { ApplyLocks } from '../core/applyLocks';
import { ApplyCommands, type ApplyCommand } from './applyCommands';
import { localTriggerFile } from './applyTargets';
import type { FolderEnvironments } from './applyDestination';
import { PlanPanel, type PlanMessageParser, type PlanViewSurface } from './planPanel';
import type { Linter } from './applyPlan';
import type { PullScope } from './pullScope';
import { configureL10n } from '../core/l10nSetup';
import { isDriftFile, DRIFT_FILE_GLOB } from './syncIds';
import { SKIPPED_BY_SEARCHES } from '../../triggerFiles/searchRules';

export interface SyncDeps {
  connections: ConnectionManager;
  settings: Settings;
  feedback: Feedback;
  datasets: (connectionId: string) => string[];
  /** The active connection's recipients when known: drift and the apply plan name the recipient ids of a difference. */
  recipients?: () => RecipientDirectory | undefined;
  /** A workspace folder's environments file, when it reads without a mistake (Apply to Connection offers them). */
  environments?: (folder: vscode.WorkspaceFolder) => FolderEnvironments | undefined;
  /**
   * For a connection (by name), the environment other than the home one it is for a file (by uri), as the
   * workspace's environments files name it; undefined when it is none for any folder. Drift compares as it sees.
   */
  environmentOf?: (connectionName: string) => ((uri: string) => AwayEnvironment | undefined) | undefined;
  /** The environments other than the home one of a file's folder, by name (Show as an Environment Sees It). */
  environmentsOfFile?: EnvironmentsOfFile;
  /** The environments files changed: drift compares again. */
  onEnvironmentsChanged?: (listener: () => void) => { dispose(): void };
  /** Where drift lists a connection's recipients: the account's one listing, shared with the tree. */
  teamOf?: (connectionId: string) => RecipientLister;
  /** Lints a trigger file's text with given columns (the lint worker): the gate of an apply. */
  lint: Linter;
  /** Trigger writes reached a connection: the Datasets tree reads it again. */
  onTriggersWritten: (connectionId: string) => void;
  /** One apply at a time per service, shared with the agents' apply tool. */
  applyLocks: ApplyLocks;
}

/** What registerSync.ts made at activation and hands over: the Drift view to fill, and the plan view's checks. */
export interface SyncHost {
  view: DriftViewSurface;
  extensionUri: vscode.Uri;
  /** Checks a message of the plan view's page (the protocol's zod schema, in the activation bundle). */
  parsePlanMessage: PlanMessageParser;
}

export interface LoadedSync {
  model: DriftModel;
  /** The Drift view's items (the view registerSync.ts made asks them of this). */
  tree: DriftTree;
  /** The service's triggers shown for Compare (registerSync.ts's content provider reads them here). */
  documents: ServiceTriggerDocuments;
  refresh(): Promise<void>;
  compare(arg: unknown): Promise<void>;
  openServiceTrigger(arg: unknown): Promise<void>;
  pull(scope: PullScope, connectionId: string | undefined): Promise<void>;
  /** Compare with Service on a burn alert or definitions file. */
  compareSlo(arg: unknown): Promise<void>;
  /** The service's side of such a comparison, while it is kept. */
  sloText(uri: vscode.Uri): string | undefined;
  /** Pulls burn alert or definitions files (docs/SLO-FILES.md). */
  pullSlo(kind: SloKind, scope: PullScope, connectionId: string | undefined): Promise<void>;
  apply(command: ApplyCommand, args: readonly unknown[]): Promise<void>;
  /** The canonical trigger file's text (export). */
  fileText(trigger: unknown): string;
  /** Trigger files as an environment other than the home one sees them (read-only documents). */
  asSeen: AsSeenDocuments;
  /** "Show as an Environment Sees It..." on a trigger file. */
  showAsSeen(arg: unknown): Promise<void>;
  /** Trigger writes reached a connection elsewhere (an agent's apply): its lists are read again. */
  triggersWritten(connectionId: string): void;
  /** A burn alert or definitions were saved to a connection in a form: drift keeps the service's answer as its read. */
  sloSaved(connectionId: string, saved: SavedSlo): void;
  /** What the Datasets tree shows of drift on a service trigger (read on each change of `model`). */
  triggerFileState(connectionId: string, triggerId: string): TriggerFileState | undefined;
  dispose(): void;
}

/**
 * The argument of Compare: a drift item or lens ({ uri, index }), an Explorer or editor uri, or nothing (the
 * active editor); on the service's side of a diff already open, the file on its other side.
 */
function compareTarget(arg: unknown): { uri: string; index?: number } | undefined {
  const local = (uri: vscode.Uri): string => (localTriggerFile(uri) ?? uri).toString();
  if (arg instanceof vscode.Uri) return { uri: local(arg) };
  if (typeof arg === 'object' && arg !== null && typeof (arg as { uri?: unknown }).uri === 'string') {
    const index = (arg as { index?: unknown }).index;
    return {
      uri: local(vscode.Uri.parse((arg as { uri: string }).uri)),
      ...(typeof index === 'number' ? { index } : {}),
    };
  }
  const doc = vscode.window.activeTextEditor?.document;
  return doc === undefined ? undefined : { uri: local(doc.uri) };
}

/** The drift model over the workspace's trigger, burn alert and definitions files and the active connection. */
function createDriftModel(deps: SyncDeps): DriftModel {
  const log = deps.feedback.log;
  return new DriftModel({
    workspace: {
      list: async () =>
        (await vscode.workspace.findFiles(DRIFT_FILE_GLOB, SKIPPED_BY_SEARCHES)).map((u) => u.toString()),
      read: async (uri) => {
        try {
          return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(uri)));
        } catch {
          return undefined;
        }
      },
      name: (uri) => workspaceName(vscode.Uri.parse(uri)),
    },
    connection: async () => {
      const active = await deps.connections.getActive();
      if (active === undefined) return undefined;
      const { id, name } = active.profile;
      const environmentOf = deps.environmentOf?.(name);
      return {
        id,
        name: connectionLabel(name),
        api: active.client,
        team: deps.teamOf?.(id),
        ...(environmentOf === undefined ? {} : { environmentOf }),
      };
    },
    concurrency: () => deps.settings.concurrency(),
    log: (m) => log.info(m),
  });
}

/** Trigger writes reached a connection: its lists are read again (now, when it is the active one), and the Datasets tree is told. */
function triggersWrittenHandler(model: DriftModel, deps: SyncDeps): (connectionId: string) => void {
  return (connectionId) => {
    model.forgetLists(connectionId);
    if (model.connectionId() === connectionId) void model.refresh(true);
    deps.onTriggersWritten(connectionId);
  };
}

/** What a pull needs: the lists it reads go to the drift model, which compares again after it. */
function pullDepsOf(deps: SyncDeps, model: DriftModel): PullDeps {
  return {
    connections: deps.connections,
    settings: deps.settings,
    feedback: deps.feedback,
    datasets: deps.datasets,
    onListed: (connectionId, dataset, listing) => model.accept(connectionId, dataset, listing),
    onPulled: () => void model.refresh(false),
  };
}

/** Apply from the editor in the plan view, its writes reported through `written`. */
function createApplyCommands(
  deps: SyncDeps,
  written: (connectionId: string) => void,
  view: PlanViewSurface,
  drift: Omit<CompareDeps, 'connections'>,
): ApplyCommands {
  return new ApplyCommands({
    view,
    compare: (target, column) => compareWithService({ ...drift, connections: deps.connections }, target, column),
    openServiceTrigger: (triggerId, column) => openServiceTrigger(drift.model, drift.documents, { triggerId }, column),
    connections: deps.connections,
    settings: deps.settings,
    feedback: deps.feedback,
    lint: deps.lint,
    locks: deps.applyLocks,
    // The recipients known are the active connection's: another connection's plan shows ids as they are.
    recipients: (connectionId) =>
      deps.connections.activeProfile()?.id === connectionId ? deps.recipients?.() : undefined,
    onWritten: written,
    ...(deps.environments === undefined ? {} : { environments: deps.environments }),
  });
}

/** The drift's badges and lenses, shown on the trigger, burn alert and definitions files. */
function registerDriftProviders(decorations: DriftDecorations, lenses: DriftLenses): vscode.Disposable[] {
  return [
    vscode.window.registerFileDecorationProvider(decorations),
    vscode.languages.registerCodeLensProvider(
      [
        { language: 'json', pattern: DRIFT_FILE_GLOB },
        { language: 'jsonc', pattern: DRIFT_FILE_GLOB },
      ],
      lenses,
    ),
  ];
}

/** What makes the drift compare again: saves, files changed on disk, another connection, other workspace folders. */
function watchDriftSources(
  model: DriftModel,
  watcher: vscode.FileSystemWatcher,
  connections: ConnectionManager,
): vscode.Disposable[] {
  // Applied in batches (driftModel.ts): a branch switch redraws the views once.
  const changed = (uri: vscode.Uri): void => {
    // A file open with unsaved edits is compared when it is saved (onDidSaveTextDocument).
    if (isDriftFile(uri)) void model.fileChanged(uri.toString());
  };
  return [
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (isDriftFile(doc.uri)) void model.fileChanged(doc.uri.toString(), doc.getText());
    }),
    watcher.onDidCreate(changed),
    watcher.onDidChange(changed),
    watcher.onDidDelete((uri) => void model.fileDeleted(uri.toString())),
    connections.onDidChangeActive(() => void model.refresh(false)),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void model.refresh(false)),
  ];
}

/** Compare with Service: the service's trigger beside the local file in a diff editor. */
/** What Compare with Service reads: drift, the service's triggers shown, and the files as an environment sees them. */
interface CompareDeps {
  model: DriftModel;
  documents: ServiceTriggerDocuments;
  connections: ConnectionManager;
  asSeen: AsSeenDocuments;
}

async function compareWithService(
  { model, documents, connections, asSeen }: CompareDeps,
  arg: unknown,
  column?: vscode.ViewColumn,
): Promise<void> {
  const target = compareTarget(arg);
  if (target === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a trigger file to compare it with the service.'));
    return;
  }
  if (model.getState().kind !== 'ready') await model.refresh(false);
  const connection = model.connectionName();
  const connectionId = model.connectionId();
  if (connection === undefined || connectionId === undefined) {
    await connections.requireActive();
    return;
  }
  const trigger = model.serviceTriggerOf(target.uri, target.index);
  if (trigger === undefined) {
    const drift = model.fileDrift(target.uri);
    const why =
      drift?.reason ??
      drift?.triggers.find((t) => t.reason !== undefined)?.reason ??
      vscode.l10n.t('it is not a trigger file of this workspace');
    void vscode.window.showWarningMessage(vscode.l10n.t('Nothing to compare on {0}: {1}.', connection, why));
    return;
  }
  const left = documents.uriOf(connectionId, trigger);
  const file = vscode.Uri.parse(target.uri);
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  // On an environment's connection drift compared the file as the environment sees it: so does the diff.
  const environment = model.environmentOf(target.uri)?.name;
  const right = environment === undefined ? file : asSeen.uriOf(file, environment);
  const local =
    environment === undefined ? vscode.l10n.t('local') : vscode.l10n.t('local, as {0} sees it', environment);
  await vscode.commands.executeCommand('vscode.diff', left, right, `${name} (${connection}) ↔ ${name} (${local})`, {
    preview: true,
    ...(column === undefined ? {} : { viewColumn: column }),
  });
}

/** Opens the service's trigger of a drift item ({ triggerId }) as read-only JSON. */
async function openServiceTrigger(
  model: DriftModel,
  documents: ServiceTriggerDocuments,
  arg: unknown,
  column?: vscode.ViewColumn,
): Promise<void> {
  const id = typeof arg === 'object' && arg !== null ? (arg as { triggerId?: unknown }).triggerId : undefined;
  const connectionId = model.connectionId();
  if (typeof id !== 'string' || connectionId === undefined) return;
  const trigger = model.serviceTrigger(connectionId, id);
  if (trigger === undefined) return;
  const doc = await vscode.workspace.openTextDocument(documents.uriOf(connectionId, trigger));
  if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
  await vscode.window.showTextDocument(doc, {
    preview: true,
    ...(column === undefined ? {} : { viewColumn: column }),
  });
}

export function createSync(deps: SyncDeps, host: SyncHost): LoadedSync {
  // This bundle has its own copy of @vscode/l10n (see core/l10nSetup.ts).
  configureL10n();
  const model = createDriftModel(deps);
  const documents = new ServiceTriggerDocuments(model);
  const environmentsOfFile = deps.environmentsOfFile ?? (() => new Map());
  const asSeen = new AsSeenDocuments(environmentsOfFile, deps.onEnvironmentsChanged);
  const decorations = new DriftDecorations(model);
  const lenses = new DriftLenses(model, deps.recipients);
  const tree = new DriftTree(model, host.view, deps.recipients);
  const written = triggersWrittenHandler(model, deps);
  const planView = new PlanPanel(host.extensionUri, host.parsePlanMessage, deps.feedback.log);
  const applying = createApplyCommands(deps, written, planView, { model, documents, asSeen });
  const watcher = vscode.workspace.createFileSystemWatcher(DRIFT_FILE_GLOB);
  const disposables: { dispose(): unknown }[] = [
    model,
    documents,
    decorations,
    lenses,
    tree,
    planView,
    applying,
    watcher,
    asSeen,
  ];
  disposables.push(
    ...registerDriftProviders(decorations, lenses),
    ...watchDriftSources(model, watcher, deps.connections),
    // An environment's overlay changed what each file is on its connection: everything is compared again.
    ...(deps.onEnvironmentsChanged === undefined ? [] : [deps.onEnvironmentsChanged(() => void model.refresh(false))]),
  );
  void model.refresh(false);
  const pullDeps = pullDepsOf(deps, model);
  const sloDocuments = new ServiceSloDocuments();

  return {
    model,
    tree,
    documents,
    refresh: () => model.refresh(true),
    compare: (arg) => compareWithService({ model, documents, connections: deps.connections, asSeen }, arg),
    asSeen,
    showAsSeen: (arg) => showAsEnvironmentSees(arg, asSeen, environmentsOfFile),
    openServiceTrigger: (arg) => openServiceTrigger(model, documents, arg),
    async pull(scope, connectionId) {
      await pull(pullDeps, scope, connectionId);
    },
    compareSlo: (arg) =>
      compareSloFile({ connections: deps.connections, feedback: deps.feedback, documents: sloDocuments }, arg),
    sloText: (uri) => sloDocuments.text(uri),
    async pullSlo(kind, scope, connectionId) {
      await pullSloFiles(pullDeps, kind, scope, connectionId);
      // The pull read the service afresh: the files it wrote are compared with what it read, not older reads.
      model.forgetSloReads(connectionId ?? model.connectionId());
      void model.refresh(false);
    },
    apply: (command, args) => applying.run(command, args),
    fileText: (trigger) => triggerFileText(trigger),
    triggersWritten: written,
    sloSaved: (connectionId, saved) => {
      model.sloSaved(connectionId, saved);
      if (model.connectionId() === connectionId) void model.refresh(false);
    },
    triggerFileState: (connectionId, triggerId) => model.triggerFileState(connectionId, triggerId, workspacePath),
    dispose() {
      for (const d of disposables.reverse()) d.dispose();
    },
  };
}
