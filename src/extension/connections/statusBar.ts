// The active connection, always visible in the status bar; click to switch.
import * as vscode from 'vscode';
import type { ConnectionManager } from './connectionManager';
import { connectionLabel, looksLikeProduction, type ConnectionProfile } from './profiles';
import { connectionTooltip } from './connectionTooltip';

export function createConnectionStatusBar(manager: ConnectionManager): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('obs.connection', vscode.StatusBarAlignment.Left, 50);
  item.name = vscode.l10n.t('Observability Connection');
  item.command = 'obs.connection.switch';

  const update = (profile: ConnectionProfile | undefined): void => {
    if (!profile) {
      item.text = `$(debug-disconnect) ${vscode.l10n.t('Obs: no connection')}`;
      item.tooltip = vscode.l10n.t('No observability connection. Click to add or switch.');
      item.backgroundColor = undefined;
    } else {
      item.text = `$(plug) ${vscode.l10n.t('Obs: {0}', connectionLabel(profile.name))}`;
      const md = new vscode.MarkdownString(connectionTooltip(profile), false);
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
  return vscode.Disposable.from(item, sub);
}
