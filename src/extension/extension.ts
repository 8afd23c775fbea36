import * as vscode from 'vscode';

/** The public surface other extensions (and the in-host test suite) can reach. */
export interface ObsExtensionApi {
  readonly log: vscode.LogOutputChannel;
}

export function activate(context: vscode.ExtensionContext): ObsExtensionApi {
  const log = vscode.window.createOutputChannel('Observability', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(vscode.commands.registerCommand('obs.showLogs', () => log.show(true)));
  log.info('obs-vscode activated');
  return { log };
}

export function deactivate(): void {
  // Disposables registered on the context are released by VS Code.
}
