// The Datasets view: a TreeDataProvider over the plain model (datasetTree.ts), the view's header (the
// connection it shows), its context keys, and its filter. Loading shows progress in the view.
import * as vscode from 'vscode';
import { safeLabel, tooltipMarkdown } from '../core/text';
import { connectionLabel } from '../connections';
import type { DatasetTreeModel } from './datasetTree';
import { nodeId, type TreeNode } from './nodes';
import { present, type Presentation } from './presentation';
import type { RecipientDirectory } from '../core/recipients';

/** The active connection's recipients when known (tooltips name recipient ids with them). */
export type RecipientsNow = () => RecipientDirectory | undefined;

export const VIEW_ID = 'obs.datasets';
/** The view's name in package.json. */
const VIEW_TITLE = 'Datasets';

const COLLAPSE = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
} as const;

/** A tooltip that can neither run commands nor render HTML; all service text in it is escaped. */
function safeMarkdown(markdown: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(markdown, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/** The tree item without its tooltip: tooltips are built on hover (resolveTreeItem), which keeps a
 *  10,000-column expansion cheap. */
function toTreeItem(node: TreeNode, p: Presentation): vscode.TreeItem {
  const item = new vscode.TreeItem(p.label, COLLAPSE[p.collapsible]);
  item.id = nodeId(node);
  item.description = p.description;
  item.contextValue = p.contextValue;
  if (p.icon) item.iconPath = new vscode.ThemeIcon(p.icon.id, p.icon.color ? new vscode.ThemeColor(p.icon.color) : undefined);
  if (p.command) item.command = { command: p.command.id, title: p.command.title, arguments: p.command.args };
  return item;
}

export class DatasetsTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subs: { dispose(): void }[];

  constructor(
    private readonly model: DatasetTreeModel,
    private readonly recipients: RecipientsNow = () => undefined,
  ) {
    this.subs = [
      model.onDidChange((node) => this.changed.fire(node)),
      model.onDidChangeLoading((loading) => void vscode.commands.executeCommand('setContext', 'obs.tree.loading', loading)),
    ];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const filtering = this.model.filter !== undefined;
    const known = this.model.itemCount(node);
    // Under a filter a loaded group says how many of its items match; otherwise its last known count.
    const matching = filtering && node.kind === 'group' && node.group !== 'burnAlerts' ? this.model.countVisible(node) : undefined;
    const counts = matching ?? (known === undefined ? undefined : { visible: known, total: known });
    return toTreeItem(node, present(node, { counts, filtering, language: vscode.env.language, slos: this.model.sloCount(node) }));
  }

  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    // VS Code resolves a tooltip once per drawing of the row: "3 hours ago" counts from that first hover,
    // and the exact UTC time beside it stays right.
    const recipients = this.recipients();
    const tooltip = present(node, { language: vscode.env.language, now: Date.now(), ...(recipients ? { recipients } : {}) }).tooltip;
    if (tooltip) item.tooltip = safeMarkdown(tooltipMarkdown(tooltip));
    return item;
  }

  getChildren(node?: TreeNode): Thenable<TreeNode[]> {
    const cached = this.model.cachedChildren(node);
    if (cached) return this.model.getChildren(node);
    return vscode.window.withProgress({ location: { viewId: VIEW_ID } }, () => this.model.getChildren(node));
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}

/** The view as the commands and activation see it. */
export class DatasetsView implements vscode.Disposable {
  readonly treeView: vscode.TreeView<TreeNode>;
  private readonly provider: DatasetsTreeProvider;

  constructor(
    readonly model: DatasetTreeModel,
    recipients?: RecipientsNow,
  ) {
    this.provider = new DatasetsTreeProvider(model, recipients);
    this.treeView = vscode.window.createTreeView<TreeNode>(VIEW_ID, { treeDataProvider: this.provider, showCollapseAll: true });
    void vscode.commands.executeCommand('setContext', 'obs.tree.filtered', false);
    void vscode.commands.executeCommand('setContext', 'obs.tree.loading', false);
  }

  /**
   * The header names the connection the view shows, next to the status bar: nobody should act on
   * production believing it is staging. In the description beside the title (the container holds the
   * Drift view too, so the view has a header of its own that shows it): with the connection in the title,
   * the header cut it to "DATASETS — SAN..." at the default width.
   */
  showConnection(name: string | undefined): void {
    this.treeView.title = VIEW_TITLE;
    this.treeView.description = name === undefined ? undefined : connectionLabel(name);
  }

  /** Shows only items whose name contains `text` (undefined: everything), and says so in the view. */
  async setFilter(text: string | undefined): Promise<void> {
    this.model.setFilter(text);
    await vscode.commands.executeCommand('setContext', 'obs.tree.filtered', text !== undefined);
    this.treeView.message = text === undefined ? undefined : vscode.l10n.t('Filtered by "{0}"', safeLabel(text, 60));
  }

  /** Loads every dataset's children (bounded concurrency) so the filter searches all of them. */
  async loadEverythingForFilter(): Promise<void> {
    if (this.model.filter === undefined) return;
    await vscode.window.withProgress({ location: { viewId: VIEW_ID } }, () => this.model.loadAll());
    this.model.setFilter(this.model.filter);
  }

  dispose(): void {
    this.treeView.dispose();
    this.provider.dispose();
  }
}
