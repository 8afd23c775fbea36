// The plumbing every form webview shares: panels with a strict CSP, one panel per form key, each wired
// to its vscode-free controller, serializers that bring a form back after a window reload, and the
// connection a form works on.
import * as vscode from 'vscode';
import type { ServiceClient } from '../../api/client';
import type { ActiveConnection, ConnectionManager } from '../connections';
import { errorText } from '../core/errors';
import type { Feedback } from '../core/feedback';
import type { SavedSlo } from '../../triggerFiles';
import type { KeyRegistry } from '../tree';
import { pageL10n } from '../core/pageL10nSetup';
import { makeNonce, renderWebviewPage } from '../core/webviewPage';
import { renderNoticePage } from './html';
import type { ReviewDocuments } from './reviewDocuments';
import { PANEL_TEXT } from './formText';
import type { FormFilePatterns } from './formFiles';

export type FormScript = 'apiKeyForm' | 'burnAlertForm' | 'datasetDefinitionsForm';

/** What a panel needs of a form controller. */
export interface PanelController {
  receive(raw: unknown): Promise<void>;
  whenIdle(): Promise<void>;
  /** The form's connection was removed, or is there again (the sandbox stopped, started again). */
  connectionChanged(available: boolean): void;
  /** Calls `listener` when the form turns dirty or clean (at once if it is dirty already). */
  onDirtyChange(listener: (dirty: boolean) => void): void;
  /** The page's unsaved edits, kept when the panel closes; undefined when there are none. */
  readonly unsavedState: unknown;
  dispose(): void;
}

/** Edits kept from a form closed without saving them, and when. */
export interface KeptEdits {
  state: unknown;
  savedAt: number;
}

/** What a panel does when it closes, besides keeping unsaved edits. */
export interface AttachOptions {
  /** Runs once the panel is gone (the API key form keeps an uncopied secret reachable). */
  onClosed?: (controller: PanelController) => Promise<void>;
  /** Opens the same form again (the notification's "Reopen" after a close with unsaved edits). */
  reopen?: () => void;
}

/** Webview panels have no dirty state of their own: the title carries it, as an editor tab's dot does. */
const DIRTY_MARK = '\u25CF ';
const untitled = (title: string): string => (title.startsWith(DIRTY_MARK) ? title.slice(DIRTY_MARK.length) : title);

/** What the forms use of the connections: their profiles, a connection's client by id, and word when they change. */
export type FormConnections = Pick<
  ConnectionManager,
  'list' | 'getActive' | 'requireActive' | 'connectionFor' | 'clientFor'
> & {
  readonly store: Pick<ConnectionManager['store'], 'onDidChange'>;
};

export interface FormsDeps {
  extensionUri: vscode.Uri;
  connections: FormConnections;
  keys: KeyRegistry;
  feedback: Feedback;
  refreshTree(): void;
  /** A burn alert or a dataset's definitions were saved to a connection: drift keeps the service's answer. */
  onSloSaved(connectionId: string, saved: SavedSlo): void;
  /** The `obs-form-review:` documents, registered at activation so a diff tab restored after a reload finds its provider. */
  reviews: ReviewDocuments;
  /** Where the burn alert and definitions files are (Open as File looks there). */
  filePatterns: FormFilePatterns;
}

/** Restores a form's panel after a window reload. */
export type Restorer = (panel: vscode.WebviewPanel, state: unknown) => Promise<void>;

/** What a form offers: its commands (by id) and the restorers of its panels (by view type). */
export interface FormHandlers {
  commands: Record<string, (arg: unknown) => Promise<void>>;
  restorers: Record<string, Restorer>;
}

/** A form that cannot open or be restored; its message is shown as it is. */
export class FormOpenError extends Error {
  readonly kind = 'form-open';
}

export class FormPanels implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  private readonly controllers = new Map<vscode.WebviewPanel, { controller: PanelController; connectionId: string }>();
  private readonly watching: { dispose(): void };
  /** The title of each panel without its dirty mark. */
  private readonly titles = new Map<vscode.WebviewPanel, string>();
  /** Edits of forms closed without saving, by form key: in memory only, offered back when the same form opens. */
  private readonly kept = new Map<string, KeptEdits>();
  /** True once the forms are being disposed (the window closes): nothing is kept or reopened then. */
  private closing = false;

  constructor(readonly deps: FormsDeps) {
    // Every open form hears when its connection goes (the sandbox stopped) and comes back.
    this.watching = deps.connections.store.onDidChange(() => this.connectionsChanged());
  }

  get log(): Feedback['log'] {
    return this.deps.feedback.log;
  }

  dispose(): void {
    this.closing = true;
    this.watching.dispose();
    for (const panel of this.panels.values()) panel.dispose();
  }

  /** True while the forms are being disposed with the window. */
  get isClosing(): boolean {
    return this.closing;
  }

  /** The edits kept for this form (key) from a panel closed without saving, handed to the form that opens now. */
  takeKept(key: string): KeptEdits | undefined {
    const kept = this.kept.get(key);
    this.kept.delete(key);
    return kept;
  }

  /** A panel's title, the dirty mark kept as it is (a renamed key). */
  retitle(panel: vscode.WebviewPanel, title: string): void {
    const dirty = panel.title.startsWith(DIRTY_MARK);
    this.titles.set(panel, title);
    panel.title = dirty ? `${DIRTY_MARK}${title}` : title;
  }

  /**
   * A panel closed with edits not saved (webview panels cannot refuse to close): the edits are kept for
   * when the same form opens again, and a notification says so, with Reopen and Discard.
   */
  private keepEdits(key: string, title: string, state: unknown, reopen: (() => void) | undefined): void {
    const kept: KeptEdits = { state, savedAt: Date.now() };
    this.kept.set(key, kept);
    const choices = reopen ? [PANEL_TEXT.reopen, PANEL_TEXT.discard] : [PANEL_TEXT.discard];
    void vscode.window.showInformationMessage(PANEL_TEXT.closedWithEdits(title), ...choices).then((choice) => {
      if (this.kept.get(key) !== kept) return;
      if (choice === PANEL_TEXT.discard) this.kept.delete(key);
      else if (choice === PANEL_TEXT.reopen) reopen?.();
    });
  }

  /**
   * The client of a connection by its id, looked up at every request: a form keeps working when its
   * connection is removed and added again (a new client), and fails with ConnectionGoneError meanwhile.
   */
  clientSource(connectionId: string): () => Promise<ServiceClient> {
    return async () => (await this.deps.connections.connectionFor(connectionId)).client;
  }

  private connectionsChanged(): void {
    const present = new Set(this.deps.connections.list().map((p) => p.id));
    for (const { controller, connectionId } of this.controllers.values())
      controller.connectionChanged(present.has(connectionId));
  }

  /** The connection a tree item belongs to, or the active one when no item was given. */
  async connection(connectionId: string | undefined): Promise<ActiveConnection> {
    const connections = this.deps.connections;
    if (connectionId === undefined) return connections.requireActive();
    const active = await connections.getActive();
    if (active && active.profile.id === connectionId) return active;
    const profile = connections.list().find((p) => p.id === connectionId);
    if (!profile) throw new FormOpenError(PANEL_TEXT.connectionGone);
    return { profile, client: await connections.clientFor(profile) };
  }

  /**
   * The connection of a form being restored. When it is gone (the sandbox lives only as long as its
   * window), the error also says what the user had typed and not sent, so it is not lost without a word.
   */
  async restoredConnection(connectionId: string, unsaved: () => string | undefined): Promise<ActiveConnection> {
    try {
      return await this.connection(connectionId);
    } catch (err) {
      const described = unsaved();
      if (described === undefined || !(err instanceof Error)) throw err;
      throw new FormOpenError(`${err.message} ${described}`);
    }
  }

  /** Restores a form after a window reload, or says in the panel why it cannot. */
  restorer(viewType: string, restore: Restorer): Restorer {
    return async (panel, state) => {
      try {
        await restore(panel, state);
      } catch (err) {
        this.log.warn(`could not restore a form (${viewType}): ${errorText(err)}`);
        this.notice(panel, PANEL_TEXT.notRestored, errorText(err));
      }
    };
  }

  private webviewOptions(): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [vscode.Uri.joinPath(this.deps.extensionUri, 'dist', 'webview')],
    };
  }

  /** Reveals the panel already open for this key, if any. */
  reveal(key: string): boolean {
    const panel = this.panels.get(key);
    if (!panel) return false;
    panel.reveal();
    return true;
  }

  newPanel(viewType: string, title: string): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(viewType, title, vscode.ViewColumn.Active, this.webviewOptions());
  }

  /**
   * Loads the form page into the panel and connects it to its controller: every message goes to the
   * controller (which parses it), and the controller's messages go to the page while it exists.
   */
  attach(
    key: string,
    connectionId: string,
    panel: vscode.WebviewPanel,
    script: FormScript,
    make: (post: (message: unknown) => void) => PanelController,
    options: AttachOptions = {},
  ): void {
    const webview = panel.webview;
    webview.options = this.webviewOptions();
    const assets = vscode.Uri.joinPath(this.deps.extensionUri, 'dist', 'webview');
    let open = true;
    const controller = make((message) => {
      if (!open) return;
      webview
        .postMessage(message)
        .then(undefined, (err: unknown) => this.log.warn(`form message not delivered: ${errorText(err)}`));
    });
    webview.html = renderWebviewPage({
      title: panel.title,
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, `${script}.js`)).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, 'forms.css')).toString(),
      l10n: pageL10n(),
      loading: vscode.l10n.t('Loading…'),
    });
    this.panels.get(key)?.dispose();
    this.panels.set(key, panel);
    this.controllers.set(panel, { controller, connectionId });
    // A panel restored after a reload may carry the mark in its saved title.
    this.titles.set(panel, untitled(panel.title));
    controller.onDirtyChange((dirty) => {
      const title = this.titles.get(panel) ?? untitled(panel.title);
      panel.title = dirty ? `${DIRTY_MARK}${title}` : title;
    });
    const received = webview.onDidReceiveMessage((raw: unknown) => void controller.receive(raw));
    panel.onDidDispose(() => {
      open = false;
      received.dispose();
      const title = this.titles.get(panel) ?? untitled(panel.title);
      if (this.panels.get(key) === panel) this.panels.delete(key);
      this.controllers.delete(panel);
      this.titles.delete(panel);
      void (async () => {
        try {
          if (options.onClosed) await options.onClosed(controller);
        } finally {
          // Read after onClosed, which lets a request the service may have carried out finish (an API key
          // create): edits it sent and saved are not kept to be sent again.
          const state = controller.unsavedState;
          if (state !== undefined && !this.closing) this.keepEdits(key, title, state, options.reopen);
          controller.dispose();
        }
      })();
    });
  }

  /**
   * The controllers of the open forms by key: `create:<connection id>`, `update:<connection id>:<key id>`,
   * `burnAlert:<connection id>:<dataset>:<alert id>`, `definitions:<connection id>:<dataset>`. Read through
   * the test seam only (testSeam.ts), by the in-host tests, which cannot reach into a webview's page.
   */
  openControllers(): ReadonlyMap<string, PanelController> {
    const open = new Map<string, PanelController>();
    for (const [key, panel] of this.panels) {
      const controller = this.controllers.get(panel)?.controller;
      if (controller) open.set(key, controller);
    }
    return open;
  }

  private notice(panel: vscode.WebviewPanel, title: string, message: string): void {
    panel.webview.options = { enableScripts: false, localResourceRoots: [] };
    panel.webview.html = renderNoticePage(title, message, panel.webview.cspSource, vscode.env.language);
  }
}
