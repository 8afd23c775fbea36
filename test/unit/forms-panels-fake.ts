// The forms' panels in plain Node: the in-memory `vscode` module (vscode-fake.ts) with what the form panels
// touch besides it: webview panels that record what the host posts and let the test speak for the page,
// the editor's tabs as VS Code keeps them (a tab for each webview panel, a diff tab for each `vscode.diff`,
// closing a panel's tab disposes the panel), notifications that answer as the test says, a clipboard, and
// connections the test removes and adds again. The fakes only report what VS Code would; what the forms do
// with it is the code's. Import this file before any module that imports `vscode`.
import { EventEmitter, Uri, fake, vscode } from './vscode-fake';
import type { ServiceClient } from '../../src/api/client';
import type { ConnectionProfile } from '../../src/extension/connections';
import type { FormConnections } from '../../src/extension/forms/panels';

export { fake };

export class FakeWebviewPanel {
  title: string;
  disposed = false;
  revealed = 0;
  /** What the host posted to the page, in order. */
  readonly posted: Record<string, unknown>[] = [];
  private readonly received = new EventEmitter<unknown>();
  private readonly disposing = new EventEmitter<void>();
  readonly webview = {
    options: {} as unknown,
    html: '',
    cspSource: 'vscode-webview://fake',
    asWebviewUri: (uri: Uri): Uri => uri,
    postMessage: (message: unknown): Promise<boolean> => {
      this.posted.push(structuredClone(message) as Record<string, unknown>);
      return Promise.resolve(true);
    },
    onDidReceiveMessage: this.received.event,
  };
  readonly onDidDispose = this.disposing.event;
  /** A panel opens active (createWebviewPanel shows it); `focus` moves the focus as the user would. */
  active = true;
  private readonly viewStates = new EventEmitter<{ webviewPanel: FakeWebviewPanel }>();
  readonly onDidChangeViewState = this.viewStates.event;

  constructor(
    readonly viewType: string,
    title: string,
  ) {
    this.title = title;
  }

  /** A message from the page to the host. */
  fromPage(message: unknown): void {
    this.received.fire(message);
  }

  ofType(type: string): Record<string, unknown>[] {
    return this.posted.filter((m) => m.type === type);
  }

  reveal(): void {
    this.revealed++;
  }

  /** The panel gains or loses the focus: VS Code fires onDidChangeViewState. */
  focus(active: boolean): void {
    this.active = active;
    this.viewStates.fire({ webviewPanel: this });
  }

  /** Disposed (by the extension, or its tab closed): the panel's tab goes, and onDidDispose fires once. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    editor.tabs = editor.tabs.filter((t) => !(t.input instanceof TabInputWebview && t.input.panel === this));
    this.disposing.fire();
  }
}

export class TabInputTextDiff {
  constructor(
    readonly original: Uri,
    readonly modified: Uri,
  ) {}
}

/** A webview panel's tab (VS Code's TabInputWebview, which also names the panel's view type). */
export class TabInputWebview {
  constructor(readonly panel: FakeWebviewPanel) {}
  get viewType(): string {
    return this.panel.viewType;
  }
}

export interface FakeTab {
  readonly input: TabInputWebview | TabInputTextDiff;
  /** What the tab shows: a panel's title, a diff's title. */
  readonly label: string;
}

/** The editor's one tab group: its tabs in order, and the tabs the extension closed through tabGroups.close. */
export const editor = {
  tabs: [] as FakeTab[],
  closedByExtension: [] as FakeTab[],
  /** The tab of a panel; a disposed panel has none. */
  tabOf(panel: FakeWebviewPanel): FakeTab | undefined {
    return editor.tabs.find((t) => t.input instanceof TabInputWebview && t.input.panel === panel);
  },
  /** The diff tabs open, as [original, modified] uri strings. */
  diffs(): [string, string][] {
    return editor.tabs.flatMap((t) =>
      t.input instanceof TabInputTextDiff
        ? [[t.input.original.toString(), t.input.modified.toString()] as [string, string]]
        : [],
    );
  },
  /** The user closes a tab (its X): a panel's tab disposes the panel, which cannot refuse. */
  userCloses(tab: FakeTab | undefined): void {
    if (tab === undefined) throw new Error('no such tab is open');
    closeTab(tab);
  },
};

function closeTab(tab: FakeTab): void {
  if (tab.input instanceof TabInputWebview) tab.input.panel.dispose();
  else editor.tabs = editor.tabs.filter((t) => t !== tab);
}

export const panels: FakeWebviewPanel[] = [];
/** Modal and non-modal questions asked, with their choices; `answer` picks the reply (undefined: dismissed). */
export const asked: { kind: 'info' | 'warning'; message: string; choices: string[] }[] = [];
export const clipboard: string[] = [];
export const answers: { answer: (message: string, choices: string[]) => string | undefined } = {
  answer: () => undefined,
};

function ask(kind: 'info' | 'warning') {
  return (message: string, ...rest: unknown[]): Promise<string | undefined> => {
    const choices = rest.filter((r): r is string => typeof r === 'string');
    asked.push({ kind, message, choices });
    return Promise.resolve(answers.answer(message, choices));
  };
}

Object.assign(vscode.window, {
  createWebviewPanel: (viewType: string, title: string): FakeWebviewPanel => {
    const panel = new FakeWebviewPanel(viewType, title);
    panels.push(panel);
    editor.tabs.push({
      input: new TabInputWebview(panel),
      get label() {
        return panel.title;
      },
    });
    return panel;
  },
  registerWebviewPanelSerializer: () => ({ dispose: () => undefined }),
  showInformationMessage: ask('info'),
  showWarningMessage: ask('warning'),
  tabGroups: {
    get all() {
      return [{ tabs: editor.tabs }];
    },
    close: (closing: FakeTab[]) => {
      editor.closedByExtension.push(...closing);
      closing.forEach(closeTab);
      return Promise.resolve(true);
    },
  },
});

/** `vscode.diff` opens a diff tab of its two documents, titled as asked. */
export function openDiffTab(original: Uri, modified: Uri, title = ''): void {
  editor.tabs.push({ input: new TabInputTextDiff(original, modified), label: title });
}

fake.commands.set('vscode.diff', (original, modified, title) => {
  if (!(original instanceof Uri) || !(modified instanceof Uri)) throw new Error('vscode.diff takes two uris');
  openDiffTab(original, modified, typeof title === 'string' ? title : '');
});

Object.assign(vscode, {
  TabInputTextDiff,
  TabInputWebview,
  ViewColumn: { Active: -1, Beside: -2 },
  env: {
    language: 'en',
    clipboard: {
      writeText: (text: string): Promise<void> => {
        clipboard.push(text);
        return Promise.resolve();
      },
    },
  },
});

/** One connection (the sandbox's) that the test removes and adds again, each time with a new client. */
export class FakeConnections implements FormConnections {
  private readonly changed = new EventEmitter<void>();
  readonly store = { onDidChange: this.changed.event };
  private client: ServiceClient | undefined;

  constructor(
    readonly profile: ConnectionProfile,
    private readonly makeClient: () => ServiceClient,
  ) {
    this.client = makeClient();
  }

  /** Stop Local Sandbox: the connection is removed and its client closed. */
  async remove(): Promise<void> {
    const closing = this.client;
    this.client = undefined;
    this.changed.fire();
    await closing?.close();
  }

  /** Try the Local Sandbox again: the same connection id, a new client. */
  addAgain(): void {
    this.client = this.makeClient();
    this.changed.fire();
  }

  list(): ConnectionProfile[] {
    return this.client ? [this.profile] : [];
  }

  connectionFor(id: string): Promise<{ profile: ConnectionProfile; client: ServiceClient }> {
    if (!this.client || id !== this.profile.id)
      return Promise.reject(
        Object.assign(new Error('the connection of this item was removed'), { kind: 'connection-gone' }),
      );
    return Promise.resolve({ profile: this.profile, client: this.client });
  }

  async clientFor(profile: ConnectionProfile): Promise<ServiceClient> {
    return (await this.connectionFor(profile.id)).client;
  }

  requireActive(): Promise<{ profile: ConnectionProfile; client: ServiceClient }> {
    return this.connectionFor(this.profile.id);
  }

  getActive(): Promise<{ profile: ConnectionProfile; client: ServiceClient } | undefined> {
    return this.client ? this.connectionFor(this.profile.id) : Promise.resolve(undefined);
  }
}

/**
 * Resolves once the promise jobs queued now, and those they queue, have run (setImmediate comes after them
 * all): every fake here answers at once, so what the extension does with an answer is done by then.
 */
export const jobsDone = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
