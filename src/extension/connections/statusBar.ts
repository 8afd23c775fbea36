// The active connection, always visible in the status bar, with the environment the workspace's environments
// file maps it to; click to switch.
import * as vscode from 'vscode';
import { environmentNames, type WorkspaceEnvironments } from '../core/workspaceEnvironments';
import type { ConnectionManager } from './connectionManager';
import { connectionLabel, looksLikeProduction, type ConnectionProfile } from './profiles';
import { connectionTooltip } from './connectionTooltip';

export function createConnectionStatusBar(
  manager: ConnectionManager,
  environments: WorkspaceEnvironments,
): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('obs.connection', vscode.StatusBarAlignment.Left, 50);
  item.name = vscode.l10n.t('Observability Connection');
  item.command = 'obs.connection.switch';

  const update = (profile: ConnectionProfile | undefined): void => {
    if (!profile) {
      item.text = `$(debug-disconnect) ${vscode.l10n.t('Obs: no connection')}`;
      item.tooltip = vscode.l10n.t('No observability connection. Click to add or switch.');
      item.backgroundColor = undefined;
    } else {
      const label = connectionLabel(profile.name);
      const environment = environmentNames(environments.environmentsOfConnection(profile.name));
      item.text =
        environment === undefined
          ? `$(plug) ${vscode.l10n.t('Obs: {0}', label)}`
          : `$(plug) ${vscode.l10n.t('Obs: {0} ({1})', label, environment)}`;
      const tooltip = connectionTooltip(profile);
      const named = vscode.l10n.t('Environment: {0} (the environments file names this connection)', environment ?? '');
      const md = new vscode.MarkdownString(environment === undefined ? tooltip : `${tooltip}\n\n${named}`, false);
      md.isTrusted = false;
      md.supportHtml = false;
      item.tooltip = md;
      item.backgroundColor = looksLikeProduction(profile.name)
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    }
    item.show();
  };

  update(manager.activeProfile());
  const sub = manager.onDidChangeActive(update);
  const files = environments.onDidChange(() => update(manager.activeProfile()));
  return vscode.Disposable.from(item, sub, { dispose: files.dispose });
}
