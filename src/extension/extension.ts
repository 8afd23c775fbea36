// Activation: builds each feature and wires them together. Features share nothing but core/ and what is
// handed to them here; every event that crosses features (connection switched, settings changed, a key
// remembered) is connected in this file. activate() reads as the list of features: each register function
// returns what the others need and one disposable for everything it made, which VS Code releases at
// deactivation. The extension exports nothing (see testSeam.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerAgents, type RegisteredAgents } from './agents/registerAgents';
import { ApplyLocks } from './core/applyLocks';
import { loadClientModule } from './connections/clientLoader';
import { registerConnectionCommands } from './connections/connectionCommands';
import { ConnectionManager, type ActiveConnection } from './connections/connectionManager';
import { ConnectionStore } from './connections/connectionStore';
import { SecretStore } from './connections/secretStore';
import { createConnectionStatusBar } from './connections/statusBar';
import { vscodeConfiguration } from './core/configuration';
import { EnvironmentsWatcher, environmentsForSync, type EnvironmentsFileReader } from './core/environmentsWatcher';
import { AccountRecipients } from './core/accountRecipients';
import { Feedback } from './core/feedback';
import type { SavedSlo } from '../triggerFiles';
import { configureL10n } from './core/l10nSetup';
import { createLogger } from './core/logger';
import { Settings } from './core/settings';
import { WorkspaceEnvironments } from './core/workspaceEnvironments';
import { seenTextOf } from './core/workspaceText';
import { registerLint, type RegisteredLint, type WorkerLint } from './diagnostics/registerLint';
import { TriggerFileMatcher } from './diagnostics/triggerFiles';
import { registerForms, type RegisteredForms } from './forms/registerForms';
import { registerQueries, type RegisteredQueries } from './queries/registerQueries';
import { registerSandboxCommands, SandboxController } from './sandbox/sandboxController';
import { registerSync, type RegisteredSync } from './sync/registerSync';
import { publishTestSeam } from './testSeam';
import { VIEW_ID } from './tree/datasetsView';
import { registerTree, type DatasetsTree } from './tree/registerTree';
import { registerTriggerCommands } from './triggers/triggerCommands';
import { registerTriggerTests } from './triggerTests/registerTriggerTests';
import { registerNoise } from './noise/registerNoise';
import type { QueryServices, QuerySession } from './queries';
import type { FolderEnvironments } from './sync';
import { TRIGGER_SCHEME, TriggerDocumentProvider } from './triggers/triggerDocuments';

/** What a register function made: what other features need, and one disposable for all of it. */
type Registered<T = object> = T & { readonly disposable: vscode.Disposable };

/** What every feature is given: the log channel, the settings, a Feedback per module. */
interface Host {
  readonly channel: vscode.LogOutputChannel;
  readonly settings: Settings;
  feedbackFor(module: string): Feedback;
}

interface Connections {
  readonly manager: ConnectionManager;
  /** The workspace's environments files: which environment each connection is. */
  readonly environments: WorkspaceEnvironments;
  readonly feedback: Feedback;
}

interface Account {
  /** The active connection's recipients (GET /1/recipients, once per connection until Refresh). */
  readonly recipients: AccountRecipients;
}

/** Kept for deactivate(), which closes the sandbox's server. */
let sandbox: SandboxController | undefined;

export function activate(context: vscode.ExtensionContext): void {
  configureL10n();
  const keep = <T extends Registered>(registered: T): T => {
    context.subscriptions.push(registered.disposable);
    return registered;
  };
  const seamGate = { env: process.env, testMode: context.extensionMode === vscode.ExtensionMode.Test };
  const host = keep(registerHost());
  const connections = keep(registerConnectionFeature(context, host));
  const account = keep(registerAccount(host, connections.manager));
  const tree = keep(registerTreeFeature(context, host, connections.manager, account));
  keep(registerConnectionActions(connections, tree));
  const lint = keep(registerLintFeature(context, host, connections, account, tree));
  // One apply at a time per service, across the editor's Apply and the agents' apply tool.
  const applyLocks = new ApplyLocks();
  const sync = keep(registerTriggersAsCode(context, host, connections, tree, { lint: lint.lint, account, applyLocks }));
  keep(registerServiceTriggers(host, connections.manager, sync));
  const queries = keep(registerPreviews(context, host, connections));
  keep(registerTriggerTestFeature(context, host, connections, queries.services));
  keep(registerNoiseFeature(context, host, connections, queries.services));
  const forms = keep(registerFormFeature(context, host, connections.manager, tree, sync));
  const sandboxFeature = keep(registerSandbox(context, host, connections.manager));
  const agents = keep(
    registerAgentTools(context, host, connections.manager, {
      sync,
      lint: lint.lint,
      sessionFor: (connection) => queries.services().sessionFor(connection),
      account,
      applyLocks,
      environments: environmentsForSync(connections.environments, host.settings).environments,
    }),
  );
  keep(registerCrossFeatureEvents(connections.manager, tree, account));
  sandbox = sandboxFeature.controller;
  keep({
    disposable: publishTestSeam(seamGate, () => ({
      context,
      log: host.channel,
      connections: connections.manager,
      keys: tree.keys,
      tree: tree.model,
      view: tree.view.treeView,
      diagnostics: lint.diagnostics,
      sandbox: sandboxFeature.controller,
      formPanels: () => forms.panels(),
      agents: () => agents.loaded(),
      mcpServers: agents.mcpServers,
    })),
  });
  host.channel.info('obs-vscode activated');
}

export async function deactivate(): Promise<void> {
  // Disposables registered on the context are released by VS Code; the sandbox server is closed here.
  const running = sandbox;
  sandbox = undefined;
  await running?.close();
}

function registerHost(): Registered<Host> {
  const channel = vscode.window.createOutputChannel('Observability', { log: true });
  const showLogs = (): void => channel.show(true);
  const settings = new Settings(vscodeConfiguration());
  return {
    channel,
    settings,
    feedbackFor: (module) => new Feedback(createLogger(channel, module), showLogs),
    disposable: vscode.Disposable.from(channel, settings, vscode.commands.registerCommand('obs.showLogs', showLogs)),
  };
}

/** Connections: profiles in globalState, their keys in SecretStorage only; the active one in the status bar. */
function registerConnectionFeature(context: vscode.ExtensionContext, host: Host): Registered<Connections> {
  const store = new ConnectionStore(context.globalState);
  const secrets = new SecretStore(context.secrets);
  const feedback = host.feedbackFor('connections');
  const manager = new ConnectionManager(store, secrets, host.settings, feedback.log, () =>
    loadClientModule(context.extensionPath),
  );
  const environments = new WorkspaceEnvironments();
  const watcher = new EnvironmentsWatcher(host.settings, environments, () => loadEnvironmentsReader(context));
  // "Show as an Environment Sees It..." shows where there is such an environment.
  const showsEnvironments = environments.onDidChange(
    () => void vscode.commands.executeCommand('setContext', 'obs.hasEnvironments', environments.anyOtherThanHome()),
  );
  return {
    manager,
    feedback,
    environments,
    disposable: vscode.Disposable.from(
      secrets,
      manager,
      watcher,
      showsEnvironments,
      environments,
      createConnectionStatusBar(manager, environments),
    ),
  };
}

/** The environments file's reader, from its own bundle, loaded when a workspace first has such a file. */
function loadEnvironmentsReader(context: vscode.ExtensionContext): EnvironmentsFileReader {
  // A runtime require of the separate bundle: esbuild leaves a non-literal require alone.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose
  const bundle = require(path.join(context.extensionPath, 'dist', 'environments-host.js')) as {
    readEnvironmentsFile: EnvironmentsFileReader;
  };
  return bundle.readEnvironmentsFile;
}

/** What the account holds that several features show: its recipients, by name, for the active connection. */
function registerAccount(host: Host, connections: ConnectionManager): Registered<Account> {
  const log = host.feedbackFor('account').log;
  const recipients = new AccountRecipients({
    connection: () => connections.activeProfile()?.id,
    client: async (id) => (await connections.connectionFor(id)).client,
    log: (m) => log.info(m),
  });
  return { recipients, disposable: recipients };
}

/** The Datasets tree and its commands; its tooltips name the account's recipients. */
function registerTreeFeature(
  context: vscode.ExtensionContext,
  host: Host,
  connections: ConnectionManager,
  account: Account,
): Registered<DatasetsTree> {
  const feedback = host.feedbackFor('tree');
  return registerTree({ context, connections, settings: host.settings, feedback, recipients: account.recipients });
}

/** The linter; its dataset check reads the tree's list of the connection's datasets (one call serves both). */
function registerLintFeature(
  context: vscode.ExtensionContext,
  host: Host,
  { manager: connections, environments }: Connections,
  account: Account,
  tree: DatasetsTree,
): Registered<RegisteredLint> {
  return registerLint({
    extensionUri: context.extensionUri,
    connections,
    environments,
    settings: host.settings,
    feedback: host.feedbackFor('lint'),
    recipients: account.recipients,
    datasets: async (connectionId) => {
      const { client } = await connections.connectionFor(connectionId);
      return tree.model.datasetSlugs(connectionId, client);
    },
    readOnlyScheme: TRIGGER_SCHEME,
  });
}

/** The connection commands; removing a connection also forgets what the tree remembered of it (and its open rows). */
function registerConnectionActions(connections: Connections, tree: DatasetsTree): Registered {
  const onRemoved = async (id: string): Promise<void> => {
    await tree.keys.forgetConnection(id);
    await tree.remembered.forgetConnection(id);
    await tree.expanded.forgetConnection(id);
  };
  return {
    disposable: vscode.Disposable.from(
      ...registerConnectionCommands(connections.manager, connections.feedback, { onRemoved }),
    ),
  };
}

/**
 * Triggers as code: drift of the workspace's trigger files, pull, apply and the canonical file format, from their
 * own bundle. An apply's gate lints in the lint worker (the sync bundle holds no linter); its writes refresh the tree,
 * whose trigger rows show drift. Drift and the plan name recipient ids with the account's recipients.
 */
function registerTriggersAsCode(
  context: vscode.ExtensionContext,
  host: Host,
  { manager: connections, environments }: Connections,
  tree: DatasetsTree,
  shared: { lint: WorkerLint; account: Account; applyLocks: ApplyLocks },
): Registered<RegisteredSync> {
  const { lint, account } = shared;
  const deps = {
    connections,
    ...environmentsForSync(environments, host.settings),
    settings: host.settings,
    feedback: host.feedbackFor('sync'),
    // The datasets the Datasets view shows: listed by the service, or added by the user.
    datasets: (id: string) => [...new Set([...tree.model.listedDatasets(id), ...tree.remembered.datasets(id)])],
    recipients: () => account.recipients.known(),
    teamOf: (id: string) => account.recipients.listerOf(id),
    lint,
    applyLocks: shared.applyLocks,
    onTriggersWritten: (id: string) => {
      if (connections.activeProfile()?.id === id) tree.model.refresh();
    },
  };
  const sync = registerSync(deps, context.extensionUri);
  // The tree's trigger rows say whether a trigger file holds the trigger and matches it, from drift's own reads.
  return { ...sync, disposable: vscode.Disposable.from(...sync.disposables, tree.view.useDrift(sync.drift)) };
}

/** Triggers read from the service as read-only documents, and their commands (open, export). */
function registerServiceTriggers(host: Host, connections: ConnectionManager, sync: RegisteredSync): Registered {
  const documents = new TriggerDocumentProvider(connections);
  return {
    disposable: vscode.Disposable.from(
      documents,
      vscode.workspace.registerTextDocumentContentProvider(TRIGGER_SCHEME, documents),
      ...registerTriggerCommands(documents, host.feedbackFor('triggers'), (trigger) => sync.fileText(trigger)),
    ),
  };
}

/** Query results and trigger previews; the preview lens shows on the same files the linter checks. */
function registerPreviews(
  context: vscode.ExtensionContext,
  host: Host,
  { manager: connections, environments }: Connections,
): Registered<Pick<RegisteredQueries, 'services'>> {
  const feedback = host.feedbackFor('queries');
  const deps = { connections, feedback, extensionUri: context.extensionUri, seenText: seenTextOf(environments) };
  const previewFiles = new TriggerFileMatcher(() => host.settings.triggerFiles(), TRIGGER_SCHEME);
  const previews = registerQueries(deps, (doc) => previewFiles.matches(doc));
  const reload = (): void => {
    previewFiles.reload();
    previews.lenses.refresh();
  };
  return {
    services: previews.services,
    disposable: vscode.Disposable.from(
      ...previews.disposables,
      host.settings.onDidChange((names) => {
        if (names.has('triggerFiles')) reload();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(reload),
    ),
  };
}

/** Trigger tests in the Test Explorer, run on the connection's query session (shared with the previews). */
function registerTriggerTestFeature(
  context: vscode.ExtensionContext,
  host: Host,
  { manager: connections, environments }: Connections,
  services: () => QueryServices,
): Registered {
  return {
    disposable: vscode.Disposable.from(
      ...registerTriggerTests({
        extensionUri: context.extensionUri,
        connections,
        services,
        feedback: host.feedbackFor('tests'),
        seenText: seenTextOf(environments),
      }),
    ),
  };
}

/** The noise report over the workspace's trigger files, on the same query session. */
function registerNoiseFeature(
  context: vscode.ExtensionContext,
  host: Host,
  { manager: connections, environments }: Connections,
  services: () => QueryServices,
): Registered {
  const deps = {
    extensionUri: context.extensionUri,
    connections,
    services,
    feedback: host.feedbackFor('noise'),
    maxPerWeek: () => host.settings.noiseMaxPerWeek(),
    seenText: seenTextOf(environments),
  };
  return { disposable: vscode.Disposable.from(...registerNoise(deps)) };
}

/** The forms (API keys, burn alerts, definitions): the forms load on first use; what a form saves, drift keeps. */
function registerFormFeature(
  context: vscode.ExtensionContext,
  host: Host,
  connections: ConnectionManager,
  tree: DatasetsTree,
  sync: Pick<RegisteredSync, 'sloSaved'>,
): Registered<RegisteredForms> {
  const forms = registerForms({
    extensionUri: context.extensionUri,
    connections,
    keys: tree.keys,
    feedback: host.feedbackFor('forms'),
    refreshTree: () => tree.model.refresh(),
    onSloSaved: (connectionId: string, saved: SavedSlo) => sync.sloSaved(connectionId, saved),
    filePatterns: {
      burnAlert: () => host.settings.burnAlertFiles(),
      definitions: () => host.settings.definitionsFiles(),
    },
  });
  return { ...forms, disposable: vscode.Disposable.from(...forms.registrations) };
}

/** The local sandbox, loaded from its own bundle only when asked for; the tree reads its listings like a service's. */
function registerSandbox(
  context: vscode.ExtensionContext,
  host: Host,
  connections: ConnectionManager,
): Registered<{ controller: SandboxController }> {
  const feedback = host.feedbackFor('sandbox');
  const controller = new SandboxController({
    extensionPath: context.extensionPath,
    connections,
    settings: host.settings,
    log: feedback.log,
  });
  void controller
    .removeStaleConnection(context.globalState)
    .catch((err: unknown) => feedback.log.warn(`could not remove the old sandbox connection: ${String(err)}`));
  return {
    controller,
    disposable: vscode.Disposable.from(controller, ...registerSandboxCommands(controller, feedback, VIEW_ID)),
  };
}

/** The tools AI agents get in the editor (the one that writes asks first) and `obs mcp` for the active connection. */
function registerAgentTools(
  context: vscode.ExtensionContext,
  host: Host,
  connections: ConnectionManager,
  shared: {
    sync: RegisteredSync;
    lint: WorkerLint;
    sessionFor: (connection: ActiveConnection) => QuerySession;
    account: Account;
    applyLocks: ApplyLocks;
    environments: (folder: vscode.WorkspaceFolder) => FolderEnvironments | undefined;
  },
): Registered<Pick<RegisteredAgents, 'loaded' | 'mcpServers'>> {
  const agents = registerAgents({
    extensionUri: context.extensionUri,
    connections,
    settings: host.settings,
    feedback: host.feedbackFor('agents'),
    lint: shared.lint,
    sessionFor: shared.sessionFor,
    onWritten: (connectionId) => shared.sync.triggersWritten(connectionId),
    recipients: () => shared.account.recipients.known(),
    applyLocks: shared.applyLocks,
    environments: shared.environments,
  });
  return {
    loaded: agents.loaded,
    mcpServers: agents.mcpServers,
    disposable: vscode.Disposable.from(...agents.disposables),
  };
}

/** What follows the active connection: the welcome views' keys, the view's header, the tree (the linter itself). */
function registerCrossFeatureEvents(connections: ConnectionManager, tree: DatasetsTree, account: Account): Registered {
  const showConnectionState = (): void => {
    const active = connections.activeProfile();
    void vscode.commands.executeCommand('setContext', 'obs.hasConnection', active !== undefined);
    void vscode.commands.executeCommand('setContext', 'obs.hasConnections', connections.list().length > 0);
    tree.view.showConnection(active?.name);
  };
  showConnectionState();
  return {
    disposable: vscode.Disposable.from(
      connections.onDidChangeActive(() => {
        showConnectionState();
        // A removed connection's recipients go (the sandbox's come back fresh when it starts again).
        account.recipients.keepOnly(connections.list().map((p) => p.id));
        tree.model.cancelLoading();
        tree.model.refresh();
      }),
      // Adding or removing a connection that is not the active one changes only the welcome view.
      connections.store.onDidChange(() => showConnectionState()),
    ),
  };
}
