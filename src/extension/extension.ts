// Activation: builds each feature and wires them together. Features share nothing but core/ and what is
// handed to them here; every event that crosses features (connection switched, settings changed, a key
// remembered) is connected in this file.
import * as vscode from 'vscode';
import { loadClientModule } from './connections/clientLoader';
import { registerConnectionCommands } from './connections/connectionCommands';
import { ConnectionManager } from './connections/connectionManager';
import { ConnectionStore } from './connections/connectionStore';
import { SecretStore } from './connections/secretStore';
import { createConnectionStatusBar } from './connections/statusBar';
import { vscodeConfiguration } from './core/configuration';
import { Feedback } from './core/feedback';
import { configureL10n } from './core/l10nSetup';
import { createLogger } from './core/logger';
import { Settings } from './core/settings';
import { LiveColumns } from './diagnostics/liveColumns';
import { registerLintCommands, TriggerDiagnostics } from './diagnostics/triggerDiagnostics';
import { TriggerFileMatcher } from './diagnostics/triggerFiles';
import type { FormsProbe } from './forms/panels';
import { registerForms } from './forms/registerForms';
import { registerQueries } from './queries/registerQueries';
import { registerSandboxCommands, SandboxController } from './sandbox/sandboxController';
import { registerSync } from './sync/registerSync';
import { registerColumnCommands } from './tree/columnCommands';
import { registerDatasetCommands } from './tree/datasetCommands';
import { DatasetsView, VIEW_ID } from './tree/datasetsView';
import { DatasetTreeModel } from './tree/datasetTree';
import { KeyRegistry } from './tree/keyRegistry';
import { Limiter } from '../api/limiter';
import { RememberedItems } from './tree/rememberedItems';
import { registerViewCommands } from './tree/viewCommands';
import { registerTriggerCommands } from './triggers/triggerCommands';
import { TRIGGER_SCHEME, TriggerDocumentProvider } from './triggers/triggerDocuments';

/** The public surface other extensions (and the in-host test suite) can reach. */
export interface ObsExtensionApi {
  readonly log: vscode.LogOutputChannel;
  readonly context: vscode.ExtensionContext;
  readonly settings: Settings;
  readonly connections: ConnectionManager;
  readonly keys: KeyRegistry;
  readonly tree: DatasetTreeModel;
  readonly view: vscode.TreeView<unknown>;
  readonly diagnostics: TriggerDiagnostics;
  readonly sandbox: SandboxController;
  /** Test hook for the in-host suite: hands messages to open form panels (see FormsProbe). */
  readonly forms: FormsProbe;
}

let sandbox: SandboxController | undefined;

export function activate(context: vscode.ExtensionContext): ObsExtensionApi {
  configureL10n();
  const channel = vscode.window.createOutputChannel('Observability', { log: true });
  const showLogs = (): void => channel.show(true);
  const feedbackFor = (module: string): Feedback => new Feedback(createLogger(channel, module), showLogs);
  const settings = new Settings(vscodeConfiguration());
  context.subscriptions.push(channel, settings, vscode.commands.registerCommand('obs.showLogs', showLogs));

  // Connections: profiles in globalState, their keys in SecretStorage only.
  const store = new ConnectionStore(context.globalState);
  const secrets = new SecretStore(context.secrets);
  const connectionsFeedback = feedbackFor('connections');
  const connections = new ConnectionManager(store, secrets, settings, connectionsFeedback.log, () => loadClientModule(context.extensionPath));
  context.subscriptions.push(secrets, connections, createConnectionStatusBar(connections));

  // The tree, over what the user told it per connection (datasets, SLO ids, API keys).
  const keys = new KeyRegistry(context.globalState);
  const remembered = new RememberedItems(context.globalState);
  const treeFeedback = feedbackFor('tree');
  const limiter = new Limiter({ concurrency: settings.concurrency() });
  const model = new DatasetTreeModel({
    connection: async () => {
      const active = await connections.getActive();
      return active && { profile: active.profile, api: active.client, isCurrent: () => connections.isCurrent(active) };
    },
    remembered,
    keys,
    metricsDatasets: () => settings.metricsDatasets(),
    limiter,
    onFailure: (failure) => treeFeedback.log.error(`${failure.operation} failed: ${failure.message}`),
  });
  const view = new DatasetsView(model);
  context.subscriptions.push(view, { dispose: () => model.dispose() }, { dispose: () => keys.dispose() }, { dispose: () => remembered.dispose() });
  context.subscriptions.push(
    ...registerViewCommands(view, treeFeedback),
    ...registerDatasetCommands({ view, connections, remembered, keys, settings, feedback: treeFeedback }),
    ...registerColumnCommands(view, connections, treeFeedback),
    ...registerConnectionCommands(connections, connectionsFeedback, {
      onRemoved: async (id) => {
        await keys.forgetConnection(id);
        await remembered.forgetConnection(id);
      },
    }),
  );

  const showConnectionState = (): void => {
    const active = connections.activeProfile();
    void vscode.commands.executeCommand('setContext', 'obs.hasConnection', active !== undefined);
    void vscode.commands.executeCommand('setContext', 'obs.hasConnections', connections.list().length > 0);
    view.showConnection(active?.name);
  };
  showConnectionState();

  // Triggers as code: drift of the workspace's trigger files, pull and the canonical file format, from their own bundle.
  const sync = registerSync({ connections, settings, feedback: feedbackFor('sync'), datasets: (id) => remembered.datasets(id) }, context.extensionUri);
  context.subscriptions.push(...sync.disposables);

  // Triggers read from the service, and the linter over them and over trigger files.
  const triggerFeedback = feedbackFor('triggers');
  const triggerDocs = new TriggerDocumentProvider(connections);
  const lintFeedback = feedbackFor('lint');
  const diagnostics = new TriggerDiagnostics(lintFeedback.log, context.extensionUri, settings, TRIGGER_SCHEME);
  context.subscriptions.push(
    triggerDocs,
    vscode.workspace.registerTextDocumentContentProvider(TRIGGER_SCHEME, triggerDocs),
    ...registerTriggerCommands(triggerDocs, triggerFeedback, (trigger) => sync.fileText(trigger)),
    diagnostics,
    ...registerLintCommands(diagnostics, lintFeedback),
  );
  // Live columns lint: the columns a trigger names, checked against the active connection's datasets.
  const liveColumns = new LiveColumns({
    connection: () => connections.activeProfile()?.id,
    fetch: async (connectionId, dataset) => {
      const { client } = await connections.connectionFor(connectionId);
      try {
        const res = await client.listColumns(dataset);
        return { names: res.data.map((c) => c.key_name), hidden: res.data.filter((c) => c.hidden === true).map((c) => c.key_name) };
      } catch (err) {
        if ((err as { status?: unknown }).status === 404) return 'missing';
        throw err;
      }
    },
    log: (m) => lintFeedback.log.info(m),
  });
  context.subscriptions.push(
    diagnostics.useColumns(liveColumns),
    { dispose: () => liveColumns.dispose() },
    connections.onDidChangeActive(() => liveColumns.connectionChanged()),
  );

  // Query results and trigger previews; the preview lens shows on the same files the linter checks.
  const queriesDeps = { connections, feedback: feedbackFor('queries'), extensionUri: context.extensionUri };
  const previewFiles = new TriggerFileMatcher(() => settings.triggerFiles(), TRIGGER_SCHEME);
  const previews = registerQueries(queriesDeps, (doc) => previewFiles.matches(doc));
  context.subscriptions.push(
    ...previews.disposables,
    settings.onDidChange((names) => {
      if (!names.has('triggerFiles')) return;
      previewFiles.reload();
      previews.lenses.refresh();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      previewFiles.reload();
      previews.lenses.refresh();
    }),
  );


  const forms = registerForms({ extensionUri: context.extensionUri, connections, keys, feedback: feedbackFor('forms'), refreshTree: () => model.refresh() });
  context.subscriptions.push(...forms.registrations);

  // The local sandbox, loaded from its own bundle only when asked for.
  const sandboxFeedback = feedbackFor('sandbox');
  sandbox = new SandboxController({
    extensionPath: context.extensionPath,
    connections,
    remember: async (connectionId, datasets, slos) => {
      await remembered.addDatasets(connectionId, datasets);
      for (const [dataset, ids] of slos) await remembered.addSlos(connectionId, dataset, ids);
    },
    settings,
    log: sandboxFeedback.log,
  });
  const controller = sandbox;
  context.subscriptions.push(controller, ...registerSandboxCommands(controller, sandboxFeedback, VIEW_ID));
  void controller.removeStaleConnection(context.globalState).catch((err: unknown) => sandboxFeedback.log.warn(`could not remove the old sandbox connection: ${String(err)}`));

  // Events that cross features. The linter follows the settings itself (TriggerDiagnostics).
  context.subscriptions.push(
    connections.onDidChangeActive(() => {
      showConnectionState();
      model.cancelLoading();
      model.refresh();
    }),
    // Adding or removing a connection that is not the active one changes only the welcome view.
    connections.store.onDidChange(() => showConnectionState()),
    keys.onDidChange(() => {
      const id = connections.activeProfile()?.id;
      if (id !== undefined) model.refresh({ kind: 'apiKeys', connectionId: id });
    }),
    settings.onDidChange((names) => {
      if (names.has('concurrency')) limiter.setConcurrency(settings.concurrency());
      if (names.has('metricsDatasets')) model.refresh();
    }),
  );

  channel.info('obs-vscode activated');
  return { log: channel, context, settings, connections, keys, tree: model, view: view.treeView, diagnostics, sandbox: controller, forms: forms.probe };
}

export async function deactivate(): Promise<void> {
  // Disposables registered on the context are released by VS Code; the sandbox server is closed here.
  const running = sandbox;
  sandbox = undefined;
  await running?.close();
}
