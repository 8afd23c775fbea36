// Open as File on the burn alert and definitions forms: the workspace file that holds the form's alert (by its
// id and dataset) or dataset's definitions (by its dataset), among the files of the obs.burnAlertFiles /
// obs.definitionsFiles settings. A context key tells the form's title bar whether the active form has one.
import * as vscode from 'vscode';
import { burnAlertFilesOf, definitionsFilesOf, type FileText } from './formFileOf';
import { SKIPPED_BY_SEARCHES } from '../../triggerFiles/searchRules';
import { readWorkspaceText } from '../core/workspaceText';

/** Set while the active form's object has a file in the workspace (package.json's menus read it). */
export const FORM_FILE_FOUND = 'obs.form.fileFound';

export type FormFileTarget =
  | { kind: 'burn-alert'; dataset: string; alertId: string }
  | { kind: 'definitions'; dataset: string };

/** The glob patterns of each kind's files, as the settings say now. */
export interface FormFilePatterns {
  burnAlert(): string[];
  definitions(): string[];
}

/** What is followed of a form's panel (a vscode.WebviewPanel). */
export interface TrackedPanel {
  readonly active: boolean;
  onDidChangeViewState(listener: () => void): { dispose(): void };
  onDidDispose(listener: () => void): { dispose(): void };
}

export class FormFiles implements vscode.Disposable {
  private active: { panel: TrackedPanel; target: FormFileTarget } | undefined;

  constructor(private readonly patterns: FormFilePatterns) {}

  /** Follows a form's panel: while it is the active one, the context key says whether its file exists. */
  track(panel: TrackedPanel, target: FormFileTarget): void {
    const changed = (): void => {
      if (panel.active) {
        this.active = { panel, target };
        void this.refresh();
      } else if (this.active?.panel === panel) this.forget();
    };
    const viewState = panel.onDidChangeViewState(changed);
    panel.onDidDispose(() => {
      viewState.dispose();
      if (this.active?.panel === panel) this.forget();
    });
    changed();
  }

  /** The workspace files holding the target, sorted by path. */
  async filesOf(target: FormFileTarget): Promise<vscode.Uri[]> {
    const patterns = target.kind === 'burn-alert' ? this.patterns.burnAlert() : this.patterns.definitions();
    const found = new Map<string, vscode.Uri>();
    for (const pattern of patterns)
      for (const uri of await vscode.workspace.findFiles(pattern, SKIPPED_BY_SEARCHES)) found.set(uri.toString(), uri);
    const texts: FileText[] = [];
    for (const [path, uri] of found) {
      const read = await readWorkspaceText(uri);
      if (read.ok) texts.push({ path, text: read.text });
    }
    const paths =
      target.kind === 'burn-alert'
        ? burnAlertFilesOf(texts, target.dataset, target.alertId)
        : definitionsFilesOf(texts, target.dataset);
    return paths.flatMap((p) => found.get(p) ?? []);
  }

  /** Opens the active form's file (a choice when several hold it), or says that none does. */
  async openActive(): Promise<void> {
    const target = this.active?.target;
    if (target === undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a burn alert or definitions form first.'));
      return;
    }
    const files = await this.filesOf(target);
    if (files.length === 0) {
      void vscode.window.showInformationMessage(
        target.kind === 'burn-alert'
          ? vscode.l10n.t('No file of the workspace holds the burn alert {0}: pull it first.', target.alertId)
          : vscode.l10n.t('No file of the workspace holds the definitions of {0}: pull them first.', target.dataset),
      );
      if (this.active?.target === target) await vscode.commands.executeCommand('setContext', FORM_FILE_FOUND, false);
      return;
    }
    const picked =
      files.length === 1
        ? files[0]
        : (
            await vscode.window.showQuickPick(
              files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
              { placeHolder: vscode.l10n.t('Several files hold it: open which?') },
            )
          )?.uri;
    if (picked !== undefined) await vscode.window.showTextDocument(picked, { preview: false });
  }

  private async refresh(): Promise<void> {
    const active = this.active;
    if (active === undefined) return;
    const found = (await this.filesOf(active.target)).length > 0;
    // Another form may have become active meanwhile: only the latest answers.
    if (this.active === active) await vscode.commands.executeCommand('setContext', FORM_FILE_FOUND, found);
  }

  private forget(): void {
    this.active = undefined;
    void vscode.commands.executeCommand('setContext', FORM_FILE_FOUND, false);
  }

  dispose(): void {
    this.forget();
  }
}
