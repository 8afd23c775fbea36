// The Datasets view: a TreeDataProvider over the plain model (model/datasetTree.ts). Loading shows
// progress in the view; a context key lets the view title offer "Cancel Loading" meanwhile.
import * as vscode from 'vscode';
import type { DatasetTreeModel } from './datasetTree';
import { present, type Presentation } from './presentation';
import { tooltipMarkdown } from '../core/text';
import { nodeId, type TreeNode } from './nodes';

export const VIEW_ID = 'obs.datasets';

const COLLAPSE = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
} as const;

/** A tooltip that can neither run commands nor render HTML; all service text in it is escaped. */
export function safeMarkdown(markdown: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(markdown, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/** The tree item without its tooltip: tooltips are built on hover (resolveTreeItem), which keeps a
 *  10,000-column expansion cheap. */
export function toTreeItem(node: TreeNode, p: Presentation): vscode.TreeItem {
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

  constructor(private readonly model: DatasetTreeModel) {
    this.subs = [
      model.onDidChange((node) => this.changed.fire(node)),
      model.onDidChangeLoading((loading) => void vscode.commands.executeCommand('setContext', 'obs.tree.loading', loading)),
    ];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const filtering = this.model.filter !== undefined;
    const counts = node.kind === 'group' ? this.model.countVisible(node) : undefined;
    return toTreeItem(node, present(node, { counts, filtering }));
  }

  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    const tooltip = present(node).tooltip;
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
