// The active connection, always visible in the status bar; click to switch.
import * as vscode from 'vscode';
import type { ConnectionManager } from './connectionManager';
import { looksLikeProduction, type ConnectionProfile } from './profiles';
import { capText, escapeMarkdown, safeLabel } from '../core/text';

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
      // A name is user text: `$(…)` would render as an icon, so it is made inert.
      item.text = `$(plug) ${vscode.l10n.t('Obs: {0}', safeLabel(profile.name, 40).replace(/\$\(/g, '$\u200B('))}`;
      const md = new vscode.MarkdownString(undefined, false);
      md.isTrusted = false;
      md.supportHtml = false;
      // Each text escaped and capped, as in the tree's tooltips.
      const shown = (text: string): string => escapeMarkdown(capText(text));
      md.appendMarkdown(`**${shown(profile.name)}**  \n`);
      md.appendMarkdown(`${shown(profile.baseUrl)}  \n${vscode.l10n.t('team {0}, environment {1}', shown(profile.team), shown(profile.environmentId))}\n\n`);
      md.appendMarkdown(vscode.l10n.t('Click to switch connection.'));
      item.tooltip = md;
      item.backgroundColor = looksLikeProduction(profile.name) ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    }
    item.show();
  };

  update(manager.activeProfile());
  const sub = manager.onDidChangeActive(update);
  return vscode.Disposable.from(item, sub);
}
