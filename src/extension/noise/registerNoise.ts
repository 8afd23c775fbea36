// The noise report's view (in the Observability container) and commands, registered at activation; the
// report itself (dist/backtest-host.js, with the backtest engine) loads the first time it is asked for. The view
// draws the rows the report made: plain data, so this bundle holds no engine.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SeenText } from '../core/workspaceText';
import type { ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import type { QueryServices } from '../queries';
import type { LoadedNoise, NoiseDeps } from './noiseHost';
import type { NoiseRow } from './noiseRows';

const NOISE_VIEW_ID = 'obs.noise';

class NoiseTree implements vscode.TreeDataProvider<NoiseRow>, vscode.Disposable {
  private rows: NoiseRow[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  show(rows: NoiseRow[]): void {
    this.rows = rows;
    this.changed.fire();
  }

  getChildren(row?: NoiseRow): NoiseRow[] {
    return row ? (row.children ?? []) : this.rows;
  }

  getTreeItem(row: NoiseRow): vscode.TreeItem {
    const item = new vscode.TreeItem(
      row.label,
      row.children && row.children.length > 0
        ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.id = row.id;
    item.description = row.description;
    // Plain text: names and reasons come from files and the service.
    item.tooltip = row.tooltip;
    item.iconPath = new vscode.ThemeIcon(row.icon);
    if (row.review) {
      item.command = {
        command: 'obs.noise.reviewSuggestion',
        title: vscode.l10n.t('Review the Suggested Change'),
        arguments: [row.review],
      };
      item.contextValue = 'obs.noise.suggestion';
    } else if (row.open !== undefined) {
      item.contextValue = 'obs.noise.trigger';
    }
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export interface NoiseFeatureDeps {
  extensionUri: vscode.Uri;
  connections: ConnectionManager;
  services: () => QueryServices;
  feedback: Feedback;
  maxPerWeek: () => number;
  seenText: SeenText;
}

export function registerNoise(deps: NoiseFeatureDeps): vscode.Disposable[] {
  let loaded: LoadedNoise | undefined;
  const load = (): LoadedNoise => {
    // A runtime require of the separate bundle: esbuild leaves a non-literal require alone.
    /* eslint-disable @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose */
    loaded ??= (
      require(path.join(deps.extensionUri.fsPath, 'dist', 'backtest-host.js')) as {
        createNoiseReport: (d: NoiseDeps) => LoadedNoise;
      }
    ).createNoiseReport(deps);
    /* eslint-enable @typescript-eslint/no-require-imports */
    return loaded;
  };
  const tree = new NoiseTree();
  const view = vscode.window.createTreeView(NOISE_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const show = async () => {
    await vscode.commands.executeCommand(`${NOISE_VIEW_ID}.focus`);
    const report = await load().run();
    if (!report) return;
    tree.show(report.rows);
    view.message = report.message;
  };
  const f = deps.feedback;
  return [
    tree,
    view,
    f.registerCommand('obs.noise.show', vscode.l10n.t('show the noise report'), show),
    f.registerCommand('obs.noise.refresh', vscode.l10n.t('show the noise report'), show),
    f.registerCommand('obs.noise.reviewSuggestion', vscode.l10n.t('review the suggested change'), (arg) =>
      load().review(arg),
    ),
    f.registerCommand('obs.noise.openFile', vscode.l10n.t('open the trigger file'), async (arg) => {
      const key = typeof arg === 'object' && arg !== null ? (arg as { open?: unknown }).open : undefined;
      const uri = typeof key === 'string' ? vscode.Uri.parse(key, true) : undefined;
      if (uri && vscode.workspace.getWorkspaceFolder(uri)) await vscode.window.showTextDocument(uri);
    }),
  ];
}
