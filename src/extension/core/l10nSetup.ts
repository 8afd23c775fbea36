// The vscode-free cores translate with @vscode/l10n (the same `t` as vscode.l10n.t, without vscode). Each
// esbuild bundle holds its own copy of that module, so every bundle entry point that runs in the extension
// host calls this once, before its first text: it hands over the bundle VS Code loaded for the display language.
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';

export function configureL10n(): void {
  const bundle = vscode.l10n.bundle;
  // No bundle: the display language is English (or has no translation); l10n.t then returns the English text.
  if (bundle !== undefined) l10n.config({ contents: bundle });
}
