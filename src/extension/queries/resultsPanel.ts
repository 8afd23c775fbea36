// The query results panel (webview): shows a ResultsModel, sends it again whenever the page (re)loads,
// and carries out what the page asks: copy or save the table, open a checked link, run again.
import * as vscode from 'vscode';
import {
  ResultsFromWebview,
  RESULTS_VIEW_TYPE,
  describeRefusalText,
  type ResultsModel,
  type ResultsToWebview,
  type SavedRun,
} from './resultsProtocol';
import type { Logger } from '../core/logger';
import { pageL10n } from '../core/pageL10nSetup';
import { showErrorUntilRead } from '../core/feedback';
import { makeNonce, renderWebviewPage } from '../core/webviewPage';

export interface PanelActions {
  /** The result's links, already checked against the connection's UI; undefined where refused. */
  links: { query?: vscode.Uri; graph?: vscode.Uri };
  rerun?: (withOptions: boolean) => Promise<void>;
}

export class ResultsPanel {
  private static readonly open = new Map<string, ResultsPanel>();
  private model: ResultsModel | undefined;
  private saved: SavedRun | undefined;
  private actions: PanelActions = { links: {} };

  /** The panel for `key` (one per query or trigger), revealed if it is open. */
  static for(
    key: string,
    title: string,
    extensionUri: vscode.Uri,
    log: Logger,
    column = vscode.ViewColumn.Active,
  ): ResultsPanel {
    const existing = ResultsPanel.open.get(key);
    if (existing) {
      existing.panel.title = title;
      existing.panel.reveal(undefined, true);
      return existing;
    }
    const assets = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    const webviewPanel = vscode.window.createWebviewPanel(
      RESULTS_VIEW_TYPE,
      title,
      { viewColumn: column, preserveFocus: false },
      { enableScripts: true, enableFindWidget: true, localResourceRoots: [assets] },
    );
    const panel = new ResultsPanel(key, webviewPanel, extensionUri, log);
    ResultsPanel.open.set(key, panel);
    return panel;
  }

  /** A panel VS Code brings back after a window reload; `key` (when known) lets a new run reuse it. */
  static adopt(
    webviewPanel: vscode.WebviewPanel,
    key: string | undefined,
    title: string,
    extensionUri: vscode.Uri,
    log: Logger,
  ): ResultsPanel {
    webviewPanel.title = title;
    webviewPanel.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
    };
    const panel = new ResultsPanel(key ?? `restored:${++ResultsPanel.restoredCount}`, webviewPanel, extensionUri, log);
    if (!ResultsPanel.open.has(panel.key)) ResultsPanel.open.set(panel.key, panel);
    return panel;
  }

  private static restoredCount = 0;

  private constructor(
    private readonly key: string,
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly log: Logger,
  ) {
    const assets = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    const webview = panel.webview;
    webview.html = renderWebviewPage({
      title: panel.title,
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, 'queryResults.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, 'queryResults.css')).toString(),
      l10n: pageL10n(),
      loading: vscode.l10n.t('Loading…'),
    });
    const sub = webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw));
    this.panel.onDidDispose(() => {
      sub.dispose();
      if (ResultsPanel.open.get(this.key) === this) ResultsPanel.open.delete(this.key);
    });
  }

  /**
   * Shows `model` (stamped with the time it was read, unless it has one) and keeps `saved`, how to run
   * it again, in the page's state so that a window reload brings the panel back.
   */
  show(model: ResultsModel, actions: PanelActions, saved?: SavedRun): void {
    this.model = model.ranAt === undefined ? { ...model, ranAt: Date.now() } : model;
    this.saved = saved;
    this.actions = actions;
    this.sendModel();
  }

  private sendModel(): void {
    if (!this.model) return;
    this.post({
      type: 'show',
      model: this.model,
      title: this.panel.title,
      ...(this.saved ? { saved: this.saved } : {}),
    });
  }

  busy(label: string | null): void {
    this.post({ type: 'busy', label });
  }

  private post(m: ResultsToWebview): void {
    this.panel.webview
      .postMessage(m)
      .then(undefined, (err: unknown) => this.log.warn(`results message not delivered: ${String(err)}`));
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = ResultsFromWebview.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`results panel: refused a message: ${describeRefusalText(parsed.error)}`);
      return;
    }
    const m = parsed.data;
    try {
      switch (m.type) {
        case 'ready':
          this.sendModel();
          return;
        case 'export':
          return await this.export(m.format, m.action, m.text);
        case 'openLink': {
          const uri = m.which === 'query' ? this.actions.links.query : this.actions.links.graph;
          if (uri) await vscode.env.openExternal(uri);
          return;
        }
        case 'rerun':
          await this.actions.rerun?.(m.withOptions);
          return;
      }
    } catch (err) {
      this.log.error(`results panel: ${m.type} failed: ${String(err)}`);
      const operation =
        m.type === 'export'
          ? vscode.l10n.t('export the table')
          : m.type === 'rerun'
            ? vscode.l10n.t('run it again')
            : vscode.l10n.t('open the link');
      void showErrorUntilRead(
        vscode.l10n.t('Could not {0}: {1}', operation, err instanceof Error ? err.message : String(err)),
      );
    }
  }

  private async export(format: 'csv' | 'json', action: 'copy' | 'save', text: string): Promise<void> {
    const what = format.toUpperCase();
    if (action === 'copy') {
      await vscode.env.clipboard.writeText(text);
      this.post({ type: 'exported', message: vscode.l10n.t('Copied the table as {0}.', what) });
      return;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${this.panel.title.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'results'}.${format}`;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: { [what]: [format] },
      saveLabel: vscode.l10n.t('Save {0}', what),
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    this.post({ type: 'exported', message: vscode.l10n.t('Saved the table as {0} to {1}.', what, target.fsPath) });
  }
}
