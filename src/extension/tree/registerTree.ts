// The Datasets tree at activation: the datasets and SLOs the service lists, with what the user told it per
// connection (datasets, SLO ids, API keys), and its commands. Refresh reads the account's lists again.
import * as vscode from 'vscode';
import { Limiter } from '../../api/limiter';
import type { ConnectionManager } from '../connections';
import type { AccountRecipients } from '../core/accountRecipients';
import type { Feedback } from '../core/feedback';
import type { Settings } from '../core/settings';
import { registerColumnCommands } from './columnCommands';
import { registerDatasetCommands } from './datasetCommands';
import { DatasetsView } from './datasetsView';
import { DatasetTreeModel } from './datasetTree';
import { ExpandedNodes } from './expandedNodes';
import { KeyRegistry } from './keyRegistry';
import { RememberedItems } from './rememberedItems';
import { registerViewCommands } from './viewCommands';

/** What the tree hands the other features at activation (extension.ts wires them). */
export interface DatasetsTree {
  readonly model: DatasetTreeModel;
  readonly view: DatasetsView;
  readonly keys: KeyRegistry;
  readonly remembered: RememberedItems;
  readonly expanded: ExpandedNodes;
}

export interface TreeDeps {
  readonly context: Pick<vscode.ExtensionContext, 'globalState' | 'workspaceState'>;
  readonly connections: ConnectionManager;
  readonly settings: Settings;
  readonly feedback: Feedback;
  /** The active connection's recipients, which the tooltips name. */
  readonly recipients: AccountRecipients;
}

export function registerTree(deps: TreeDeps): DatasetsTree & { readonly disposable: vscode.Disposable } {
  const { context, connections, settings, feedback, recipients } = deps;
  const keys = new KeyRegistry(context.globalState);
  const remembered = new RememberedItems(context.globalState);
  // What the user left open is the workspace's view state, like VS Code's own.
  const expanded = new ExpandedNodes(context.workspaceState);
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
    onFailure: (failure) => feedback.log.error(`${failure.operation} failed: ${failure.message}`),
    // The tooltips name recipients: their list is read with the tree.
    onRootLoad: () => recipients.want(),
  });
  const view = new DatasetsView(model, () => recipients.known(), expanded);
  const disposable = vscode.Disposable.from(
    view,
    model,
    keys,
    remembered,
    ...registerViewCommands(view, feedback, () => recipients.refresh()),
    ...registerDatasetCommands({ view, connections, remembered, keys, settings, feedback }),
    ...registerColumnCommands(view, connections, feedback),
    keys.onDidChange(() => {
      const id = connections.activeProfile()?.id;
      if (id !== undefined) model.refresh({ kind: 'apiKeys', connectionId: id });
    }),
    settings.onDidChange((names) => {
      if (names.has('concurrency')) limiter.setConcurrency(settings.concurrency());
      if (names.has('metricsDatasets')) model.refresh();
    }),
  );
  return { model, view, keys, remembered, expanded, disposable };
}
