// A trigger file as an environment other than the home one sees it (docs/ENVIRONMENTS.md), shown read-only: its
// triggers made effective (the overlay's datasets, queries, recipients and overrides applied), the text the plan
// for that environment compares and writes. Opened beside the file ("Show as an Environment Sees It...") and on
// the right of Compare with Service on that environment's connection. Kept current as the file and the
// environments file change. The file is read as the editor holds it, saved or not (core/workspaceText.ts).
import * as vscode from 'vscode';
import { effectiveFile } from '../../triggerFiles/environmentPlan';
import type { Environment } from '../../triggerFiles/environments';
import { readWorkspaceText } from '../core/workspaceText';
import { AS_SEEN_SCHEME } from './syncIds';

/** The environments other than the home one of a file's folder, by name, as its environments file reads now. */
export type EnvironmentsOfFile = (file: vscode.Uri) => ReadonlyMap<string, Environment>;

/** The file an as-seen document shows, and the environment; undefined for another uri. */
export function asSeenOf(uri: vscode.Uri): { file: vscode.Uri; environment: string } | undefined {
  if (uri.scheme !== AS_SEEN_SCHEME) return undefined;
  const query = new URLSearchParams(uri.query);
  const file = query.get('file');
  const environment = query.get('env');
  return file === null || environment === null ? undefined : { file: vscode.Uri.parse(file), environment };
}

export class AsSeenDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** The documents handed out, by the file they show. */
  private readonly shown = new Map<string, Set<string>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly environmentsOf: EnvironmentsOfFile,
    onEnvironmentsChanged?: (listener: () => void) => { dispose(): void },
  ) {
    const fileChanged = (file: vscode.Uri): void => {
      for (const uri of this.shown.get(file.toString()) ?? []) this.changed.fire(vscode.Uri.parse(uri));
    };
    this.subscriptions = [
      this.changed,
      vscode.workspace.onDidChangeTextDocument((e) => fileChanged(e.document.uri)),
      vscode.workspace.onDidSaveTextDocument((d) => fileChanged(d.uri)),
      ...(onEnvironmentsChanged === undefined
        ? []
        : [new vscode.Disposable(onEnvironmentsChanged(() => this.allChanged()).dispose)]),
    ];
  }

  /** The document of `file` as `environment` sees it. */
  uriOf(file: vscode.Uri, environment: string): vscode.Uri {
    // The path ends as the file's does, so that the editor takes it for JSON and names its tab after the file.
    const query = new URLSearchParams({ file: file.toString(), env: environment }).toString();
    const uri = vscode.Uri.from({ scheme: AS_SEEN_SCHEME, path: file.path, query });
    const key = file.toString();
    this.shown.set(key, new Set([...(this.shown.get(key) ?? []), uri.toString()]));
    return uri;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const seen = asSeenOf(uri);
    if (seen === undefined) throw new Error(`not a file as an environment sees it: ${uri.toString()}`);
    const overlay = this.environmentsOf(seen.file).get(seen.environment);
    const name = vscode.workspace.asRelativePath(seen.file);
    // A JSON string, so the JSON editor shows the why without a problem of its own.
    const said = (text: string): string => `${JSON.stringify(text)}\n`;
    if (overlay === undefined)
      return said(
        vscode.l10n.t(
          'The environments file of {0} has no environment {1} other than the home one now (or it has mistakes).',
          name,
          seen.environment,
        ),
      );
    const read = await readWorkspaceText(seen.file);
    if (!read.ok) return said(vscode.l10n.t('{0} could not be read: {1}', name, read.reason));
    const effective = effectiveFile(read.text, overlay);
    if (effective === undefined) return said(vscode.l10n.t('{0} is not a trigger file that can be read.', name));
    const problems = [...effective.problems.values()].flat();
    if (problems.length > 0)
      return said(vscode.l10n.t('{0} cannot be taken to {1}: {2}', name, seen.environment, problems.join('; ')));
    return effective.text;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }

  private allChanged(): void {
    for (const uris of this.shown.values()) for (const uri of uris) this.changed.fire(vscode.Uri.parse(uri));
  }
}

/**
 * "Show as an Environment Sees It...": the file (the argument, else the active editor's) beside itself as an
 * environment other than the home one sees it, in a diff that shows what the environment changes. With several
 * such environments, asks which.
 */
export async function showAsEnvironmentSees(
  arg: unknown,
  documents: AsSeenDocuments,
  environmentsOf: EnvironmentsOfFile,
): Promise<void> {
  const file = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (file === undefined || file.scheme === AS_SEEN_SCHEME) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Open a trigger file to show it as an environment sees it.'),
    );
    return;
  }
  const names = [...environmentsOf(file).keys()];
  if (names.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        "{0} has no environment other than the home one: its folder's environments file names none, or has mistakes.",
        vscode.workspace.asRelativePath(file),
      ),
    );
    return;
  }
  const name =
    names.length === 1
      ? names[0]
      : await vscode.window.showQuickPick(names, {
          title: vscode.l10n.t('Show the File as Which Environment Sees It?'),
        });
  if (name === undefined) return;
  const base = file.path.slice(file.path.lastIndexOf('/') + 1);
  const title = vscode.l10n.t('{0} ↔ as {1} sees it', base, name);
  await vscode.commands.executeCommand('vscode.diff', file, documents.uriOf(file, name), title, { preview: true });
}
