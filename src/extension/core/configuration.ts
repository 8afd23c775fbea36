// The settings' view of vscode.workspace configuration (see settings.ts, which holds every rule).
import * as vscode from 'vscode';
import type { ConfigurationSource } from './settings';

export function vscodeConfiguration(): ConfigurationSource {
  return {
    get: (key) => vscode.workspace.getConfiguration().get<unknown>(key),
    inspect: (key) => vscode.workspace.getConfiguration().inspect<unknown>(key),
    update: (key, value, target) =>
      vscode.workspace
        .getConfiguration()
        .update(
          key,
          value,
          target === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global,
        ),
    onDidChange: (listener) =>
      vscode.workspace.onDidChangeConfiguration((e) => listener((key) => e.affectsConfiguration(key))),
  };
}
