// The Datasets view: a TreeDataProvider over the plain model (datasetTree.ts), the view's header (the
// connection it shows), its context keys, and its filter. Loading shows progress in the view.
import * as vscode from 'vscode';
import { safeLabel, tooltipMarkdown } from '../core/text';
import { connectionLabel } from '../connections';
import type { DatasetTreeModel } from './datasetTree';
import { nodeId, type TreeNode } from './nodes';
import { present, type Presentation } from './presentation';
import type { RecipientDirectory } from '../core/recipients';
import type { TreeDriftSource, TriggerFileState } from '../sync';
import type { ExpandedNodes } from './expandedNodes';

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
  if (p.icon)
    item.iconPath = new vscode.ThemeIcon(p.icon.id, p.icon.color ? new vscode.ThemeColor(p.icon.color) : undefined);
  if (p.command) item.command = { command: p.command.id, title: p.command.title, arguments: p.command.args };
  return item;
}

/** What a trigger row showed of drift when drawn: redrawn when that changes. */
const driftKey = (d: TriggerFileState | undefined): string => (d === undefined ? '' : JSON.stringify(d));

export class DatasetsTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subs: { dispose(): void }[];
  private drift: TreeDriftSource | undefined;
  /** The drift each trigger row was drawn with, by node id. */
  private readonly drawnDrift = new Map<string, string>();

  constructor(
    private readonly model: DatasetTreeModel,
    private readonly recipients: RecipientsNow = () => undefined,
    /** The rows the user left open, drawn open again (after Refresh, a reconnect, a reload). */
    private readonly expanded?: ExpandedNodes,
  ) {
    this.subs = [
      model.onDidChange((node) => {
        // The whole tree is drawn anew: what its rows were drawn with is forgotten with them.
        if (node === undefined) this.drawnDrift.clear();
        this.changed.fire(node);
      }),
      model.onDidChangeLoading(
        (loading) => void vscode.commands.executeCommand('setContext', 'obs.tree.loading', loading),
      ),
    ];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const filtering = this.model.filter !== undefined;
    const known = this.model.itemCount(node);
    // Under a filter a loaded group says how many of its items match; otherwise its last known count.
    const matching =
      filtering && node.kind === 'group' && node.group !== 'burnAlerts' ? this.model.countVisible(node) : undefined;
    const counts = matching ?? (known === undefined ? undefined : { visible: known, total: known });
    const drift = this.driftOf(node);
    if (node.kind === 'trigger') this.drawnDrift.set(nodeId(node), driftKey(drift));
    const p = present(node, {
      counts,
      filtering,
      language: vscode.env.language,
      slos: this.model.sloCount(node),
      drift,
    });
    const open = p.collapsible === 'collapsed' && this.leftOpen(node);
    return toTreeItem(node, open ? { ...p, collapsible: 'expanded' } : p);
  }

  private leftOpen(node: TreeNode): boolean {
    return 'connectionId' in node && this.expanded?.isExpanded(node.connectionId, nodeId(node)) === true;
  }

  /** The user opened or closed a row: remembered for its connection. */
  noteExpanded(node: TreeNode, expanded: boolean): void {
    if (this.expanded === undefined || !('connectionId' in node)) return;
    void this.expanded.set(node.connectionId, nodeId(node), expanded);
  }

  /** Drift on the trigger rows: each row whose state changed is redrawn, and only those (no service call). */
  useDrift(source: TreeDriftSource): { dispose(): void } {
    this.drift = source;
    const sub = source.onDidChange(() => {
      const changed = this.model.loadedNodes().filter((n) => {
        const drawn = n.kind === 'trigger' ? this.drawnDrift.get(nodeId(n)) : undefined;
        return drawn !== undefined && drawn !== driftKey(this.driftOf(n));
      });
      if (changed.length > 0) this.changed.fire(changed);
    });
    return { dispose: () => sub.dispose() };
  }

  private driftOf(node: TreeNode): TriggerFileState | undefined {
    return node.kind === 'trigger' ? this.drift?.stateOf(node.connectionId, node.trigger.id) : undefined;
  }

  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    // VS Code resolves a tooltip once per drawing of the row: "3 hours ago" counts from that first hover,
    // and the exact UTC time beside it stays right.
    const recipients = this.recipients();
    const shown = { language: vscode.env.language, now: Date.now(), drift: this.driftOf(node) };
    const tooltip = present(node, { ...shown, ...(recipients ? { recipients } : {}) }).tooltip;
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

  private readonly subs: vscode.Disposable[];

  constructor(
    readonly model: DatasetTreeModel,
    recipients?: RecipientsNow,
    expanded?: ExpandedNodes,
  ) {
    this.provider = new DatasetsTreeProvider(model, recipients, expanded);
    this.treeView = vscode.window.createTreeView<TreeNode>(VIEW_ID, {
      treeDataProvider: this.provider,
      showCollapseAll: true,
    });
    this.subs = [
      this.treeView.onDidExpandElement((e) => this.provider.noteExpanded(e.element, true)),
      this.treeView.onDidCollapseElement((e) => this.provider.noteExpanded(e.element, false)),
    ];
    void vscode.commands.executeCommand('setContext', 'obs.tree.filtered', false);
    void vscode.commands.executeCommand('setContext', 'obs.tree.loading', false);
  }

  /** Shows on each trigger row whether a trigger file of the workspace holds it and matches it. */
  useDrift(source: TreeDriftSource): vscode.Disposable {
    const sub = this.provider.useDrift(source);
    return new vscode.Disposable(() => sub.dispose());
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
    for (const s of this.subs) s.dispose();
    this.treeView.dispose();
    this.provider.dispose();
  }
}
