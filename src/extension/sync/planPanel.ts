// The plan view: one webview panel for every Apply of trigger files, opened beside the editor the first time
// and reused (revealed where it is) for each plan after, never a new editor group per plan. It draws the model
// the host sends (webview/planView.ts) and hands on the page's messages once checked with the protocol's zod
// schema, which the activation bundle parses (this bundle holds no zod). A plan is not brought back after a
// window reload: it is a review of the files and the service as they were, made again by Apply.
import * as vscode from 'vscode';
import type { parsePlanMessage, PlanFromWebview, PlanToWebview, PlanViewModel } from '../../webview/protocol/planView';
import type { Logger } from '../core/logger';
import { pageL10n } from '../core/pageL10nSetup';
import { makeNonce, renderWebviewPage } from '../core/webviewPage';
import { PLAN_VIEW_TYPE } from './syncIds';

/** Checks a message of the page (the protocol's zod schema, run in the activation bundle). */
export type PlanMessageParser = typeof parsePlanMessage;

/** What the editor's Apply needs of the plan view. */
export interface PlanViewSurface {
  /** Shows the model, opening the view beside the editor when it is closed; `reveal` brings it to the front. */
  show(model: PlanViewModel, reveal: boolean): void;
  isOpen(): boolean;
  /** The page's messages, checked. */
  onMessage(listener: (m: PlanFromWebview) => void): { dispose(): void };
  /** The user closed the view. */
  onClosed(listener: () => void): { dispose(): void };
  /** The editor column beside the view, where the files and diffs it opens go (never over the plan). */
  besideColumn(): vscode.ViewColumn;
}

export class PlanPanel implements PlanViewSurface, vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private last: PlanViewModel | undefined;
  private readonly messages = new vscode.EventEmitter<PlanFromWebview>();
  private readonly closed = new vscode.EventEmitter<void>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly parse: PlanMessageParser,
    private readonly log: Logger,
  ) {}

  readonly onMessage = (listener: (m: PlanFromWebview) => void): vscode.Disposable => this.messages.event(listener);
  readonly onClosed = (listener: () => void): vscode.Disposable => this.closed.event(listener);

  isOpen(): boolean {
    return this.panel !== undefined;
  }

  show(model: PlanViewModel, reveal: boolean): void {
    this.last = model;
    const panel = this.panel ?? this.open();
    panel.title = vscode.l10n.t('Plan for {0}', model.connection);
    if (reveal) panel.reveal(panel.viewColumn, false);
    this.post({ type: 'show', model });
  }

  besideColumn(): vscode.ViewColumn {
    return this.panel?.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
  }

  dispose(): void {
    this.panel?.dispose();
    this.messages.dispose();
    this.closed.dispose();
  }

  private open(): vscode.WebviewPanel {
    const assets = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(
      PLAN_VIEW_TYPE,
      vscode.l10n.t('Plan'),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      { enableScripts: true, enableFindWidget: true, localResourceRoots: [assets] },
    );
    const webview = panel.webview;
    webview.html = renderWebviewPage({
      title: vscode.l10n.t('Plan'),
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, 'planView.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, 'planView.css')).toString(),
      l10n: pageL10n(),
      loading: vscode.l10n.t('Loading…'),
    });
    const sub = webview.onDidReceiveMessage((raw: unknown) => this.receive(raw));
    panel.onDidDispose(() => {
      sub.dispose();
      this.panel = undefined;
      this.last = undefined;
      this.closed.fire();
    });
    this.panel = panel;
    return panel;
  }

  private receive(raw: unknown): void {
    const parsed = this.parse(raw);
    if (!parsed.ok) {
      this.log.warn(`plan view: refused a message: ${parsed.reason}`);
      return;
    }
    // A page drawn anew (shown again after being hidden) asks for what it shows.
    if (parsed.message.type === 'ready') {
      if (this.last !== undefined) this.post({ type: 'show', model: this.last });
      return;
    }
    this.messages.fire(parsed.message);
  }

  private post(m: PlanToWebview): void {
    this.panel?.webview
      .postMessage(m)
      .then(undefined, (err: unknown) => this.log.warn(`plan view: message not delivered: ${String(err)}`));
  }
}
