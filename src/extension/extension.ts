import * as vscode from 'vscode';
import { registerConnectionCommands } from './connections/connectionCommands';
import { loadClientModule } from './connections/clientLoader';
import { ConnectionManager } from './connections/connectionManager';
import { ConnectionStore } from './connections/connectionStore';
import { SecretStore } from './connections/secretStore';
import { createConnectionStatusBar } from './connections/statusBar';
import { TriggerDiagnostics } from './diagnostics/triggerDiagnostics';
import { registerForms, type FormsProbe } from './forms';
import { DatasetTreeModel } from './tree/datasetTree';
import { KeyRegistry } from './tree/keyRegistry';
import { Limiter } from './tree/limiter';
import { RememberedItems } from './tree/rememberedItems';
import { safeLabel } from './core/text';
import { SandboxController } from './sandbox/sandboxController';
import { reportError, runWithProgress, type Services } from './core/feedback';
import { DatasetsTreeProvider, VIEW_ID } from './tree/datasetsView';
import type { TreeNode } from './tree/nodes';
import { metricsDatasets, registerTreeCommands } from './tree/treeCommands';
import { TRIGGER_SCHEME, TriggerDocumentProvider } from './triggers/triggerDocuments';

/** The public surface other extensions (and the in-host test suite) can reach. */
export interface ObsExtensionApi {
  readonly log: vscode.LogOutputChannel;
  readonly services: Services;
  readonly tree: DatasetTreeModel;
  readonly diagnostics: TriggerDiagnostics;
  readonly sandbox: SandboxController;
  readonly view: vscode.TreeView<TreeNode>;
  /** Test hook for the in-host suite: hands messages to open form panels (see FormsProbe). */
  readonly forms: FormsProbe;
}

let sandbox: SandboxController | undefined;

function concurrencySetting(): number {
  return vscode.workspace.getConfiguration('obs').get<number>('concurrency') ?? 4;
}

export function activate(context: vscode.ExtensionContext): ObsExtensionApi {
  const log = vscode.window.createOutputChannel('Observability', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(vscode.commands.registerCommand('obs.showLogs', () => log.show(true)));

  // State: profiles, remembered datasets/SLOs and keys in globalState; keys' secrets in SecretStorage only.
  const store = new ConnectionStore(context.globalState);
  const secrets = new SecretStore(context.secrets);
  const keyRegistry = new KeyRegistry(context.globalState);
  const remembered = new RememberedItems(context.globalState);
  const connections = new ConnectionManager(store, secrets, log, () => loadClientModule(context.extensionPath));
  context.subscriptions.push(secrets, connections, { dispose: () => keyRegistry.dispose() }, { dispose: () => remembered.dispose() });

  // The tree.
  const limiter = new Limiter({ concurrency: concurrencySetting() });
  const model = new DatasetTreeModel({
    connection: async () => {
      const active = await connections.getActive();
      return active && { profile: active.profile, api: active.client, isCurrent: () => connections.isCurrent(active) };
    },
    remembered,
    keys: keyRegistry,
    metricsDatasets,
    limiter,
    onFailure: (failure) => log.error(`${failure.operation} failed: ${failure.message}`),
  });
  const provider = new DatasetsTreeProvider(model);
  const view = vscode.window.createTreeView<TreeNode>(VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  context.subscriptions.push(provider, view, { dispose: () => model.dispose() });

  // The view's header names the connection it shows, next to the status bar: nobody should act on
  // production believing it is staging.
  const setHasConnection = (): void => {
    const active = connections.activeProfile();
    void vscode.commands.executeCommand('setContext', 'obs.hasConnection', active !== undefined);
    void vscode.commands.executeCommand('setContext', 'obs.hasConnections', connections.list().length > 0);
    view.description = active ? safeLabel(active.name, 64) : undefined;
  };
  setHasConnection();
  void vscode.commands.executeCommand('setContext', 'obs.tree.filtered', false);
  void vscode.commands.executeCommand('setContext', 'obs.tree.loading', false);

  context.subscriptions.push(
    connections.onDidChangeActive(() => {
      setHasConnection();
      model.cancelLoading();
      model.refresh();
    }),
    // Adding or removing a connection that is not the active one changes only the welcome view.
    connections.store.onDidChange(() => setHasConnection()),
    keyRegistry.onDidChange(() => {
      const id = connections.activeProfile()?.id;
      if (id !== undefined) model.refresh({ kind: 'apiKeys', connectionId: id });
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('obs.concurrency')) limiter.setConcurrency(concurrencySetting());
      if (e.affectsConfiguration('obs.metricsDatasets')) model.refresh();
    }),
  );

  const services: Services = {
    context,
    log,
    connections,
    keyRegistry,
    refreshTree: () => model.refresh(),
    runWithProgress: (title, op) => runWithProgress(log, title, op),
  };

  const forms = registerForms(services);
  context.subscriptions.push(...forms.registrations);
  context.subscriptions.push(createConnectionStatusBar(connections));
  context.subscriptions.push(
    ...registerConnectionCommands(connections, log, {
      onRemoved: async (id) => {
        await keyRegistry.forgetConnection(id);
        await remembered.forgetConnection(id);
      },
    }),
  );

  const triggerDocs = new TriggerDocumentProvider(connections);
  context.subscriptions.push(triggerDocs, vscode.workspace.registerTextDocumentContentProvider(TRIGGER_SCHEME, triggerDocs));
  context.subscriptions.push(
    ...registerTreeCommands({ model, view, connections, remembered, keyRegistry, triggerDocs, log, runWithProgress: services.runWithProgress }),
  );

  // Task B: trigger files linted while editing.
  const diagnostics = new TriggerDiagnostics(log, context.extensionUri);
  context.subscriptions.push(
    diagnostics,
    vscode.commands.registerCommand('obs.lint.workspace', async () => {
      try {
        return await diagnostics.lintWorkspace();
      } catch (err) {
        await reportError(log, 'lint the trigger files', err);
        return undefined;
      }
    }),
  );

  // The local sandbox, loaded from its own bundle only when asked for.
  sandbox = new SandboxController(context.extensionPath, connections, remembered, log, () => model.refresh());
  const controller = sandbox;
  context.subscriptions.push(
    controller,
    vscode.commands.registerCommand('obs.sandbox.start', async () => {
      try {
        const handle = await controller.start();
        void vscode.window.showInformationMessage(`The local sandbox runs at ${handle.info.baseUrl} and is the active connection.`);
        return handle.info.baseUrl;
      } catch (err) {
        await reportError(log, 'start the local sandbox', err);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('obs.sandbox.stop', async () => {
      try {
        await controller.stop();
      } catch (err) {
        await reportError(log, 'stop the local sandbox', err);
      }
    }),
  );
  void controller.removeStaleConnection(context.globalState).catch((err: unknown) => log.warn(`could not remove the old sandbox connection: ${String(err)}`));

  log.info('obs-vscode activated');
  return { log, services, tree: model, diagnostics, sandbox: controller, view, forms: forms.probe };
}

export async function deactivate(): Promise<void> {
  // Disposables registered on the context are released by VS Code; the sandbox server is closed here.
  const running = sandbox;
  sandbox = undefined;
  await running?.close();
}
