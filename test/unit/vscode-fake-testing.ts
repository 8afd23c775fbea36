// The Testing API pieces the Test Explorer's adapters use, added to the fake editor (vscode-fake.ts) when this
// module loads: import it right after vscode-fake and before any adapter, which copies the module's members
// when it is imported. The shared fake stays as the other tests use it.
import { fake, vscode, type Uri } from './vscode-fake';

export class TestRunRequest<T = unknown> {
  constructor(
    readonly include?: readonly T[],
    readonly exclude?: readonly T[],
    readonly profile?: unknown,
    readonly continuous?: boolean,
  ) {}
}

export class CancellationTokenSource {
  private readonly listeners: (() => void)[] = [];
  readonly token = {
    isCancellationRequested: false,
    onCancellationRequested: (l: () => void) => {
      this.listeners.push(l);
      return { dispose: () => undefined };
    },
  };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.listeners.forEach((l) => l());
  }
}

export class TestMessage {
  location?: unknown;
  contextValue?: string;
  constructor(readonly message: string) {}
  static diff(message: string): TestMessage {
    return new TestMessage(message);
  }
}

Object.assign(vscode, { TestRunRequest, CancellationTokenSource, TestMessage });
Object.assign(vscode.workspace.fs, {
  stat: (uri: Uri) => {
    const text = fake.files.get(uri.toString());
    return text === undefined ? Promise.reject(new Error('no file')) : Promise.resolve({ size: text.length });
  },
});
