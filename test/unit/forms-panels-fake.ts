// The forms' panels in plain Node: the in-memory `vscode` module (vscode-fake.ts) with what the form panels
// touch besides it: webview panels that record what the host posts and let the test speak for the page,
// notifications that answer as the test says, a clipboard, and a connection manager whose connections the
// test removes and adds again. Import this file before any module that imports `vscode`.
import { EventEmitter, Uri, fake, vscode } from './vscode-fake';
import type { ServiceClient } from '../../src/api/client';
import type { ConnectionProfile } from '../../src/extension/connections';

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

  /** The user closes the tab (webview panels cannot refuse). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposing.fire();
  }
}

export class TabInputTextDiff {
  constructor(
    readonly original: Uri,
    readonly modified: Uri,
  ) {}
}

/** The editor's tabs (what tabGroups.all shows) and the tabs closed through tabGroups.close. */
export const tabs = { open: [] as { input: unknown }[], closed: [] as { input: unknown }[] };

export const panels: FakeWebviewPanel[] = [];
/** Modal and non-modal questions asked, with their choices; `answer` picks the reply (undefined: dismissed). */
export const asked: { kind: 'info' | 'warning'; message: string; choices: string[] }[] = [];
export const clipboard: string[] = [];
export const answers: { answer: (message: string, choices: string[]) => string | undefined } = { answer: () => undefined };

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
    return panel;
  },
  registerWebviewPanelSerializer: () => ({ dispose: () => undefined }),
  showInformationMessage: ask('info'),
  showWarningMessage: ask('warning'),
  tabGroups: {
    get all() {
      return [{ tabs: tabs.open }];
    },
    close: (closing: { input: unknown }[]) => {
      tabs.closed.push(...closing);
      tabs.open = tabs.open.filter((t) => !closing.includes(t));
      return Promise.resolve(true);
    },
  },
});
Object.assign(vscode, {
  TabInputTextDiff,
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
export class FakeConnections {
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
    if (!this.client || id !== this.profile.id) return Promise.reject(Object.assign(new Error('the connection of this item was removed'), { kind: 'connection-gone' }));
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

/** Resolves after pending timers and the promise jobs they started. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));
