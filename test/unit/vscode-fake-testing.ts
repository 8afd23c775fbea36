// The Testing API pieces the Test Explorer's adapters use, added to the fake editor (vscode-fake.ts) when this
// module loads: import it right after vscode-fake and before any adapter, which copies the module's members
// when it is imported. The shared fake stays as the other tests use it. Each piece implements vscode's type
// (what the adapters are handed is checked against it); the controller records its runs, in memory.
import type * as vs from 'vscode';
import { EventEmitter, fake, vscode, type Uri } from './vscode-fake';

export class TestRunRequest implements vs.TestRunRequest {
  constructor(
    readonly include: readonly vs.TestItem[] | undefined = undefined,
    readonly exclude: readonly vs.TestItem[] | undefined = undefined,
    readonly profile: vs.TestRunProfile | undefined = undefined,
    readonly continuous = false,
    readonly preserveFocus = true,
  ) {}
}

export class CancellationTokenSource implements vs.CancellationTokenSource {
  private readonly cancelled = new EventEmitter<void>();
  readonly token: vs.CancellationToken = {
    isCancellationRequested: false,
    onCancellationRequested: this.cancelled.event,
  };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.cancelled.fire();
  }
  dispose(): void {
    this.cancelled.dispose();
  }
}

export class TestMessage implements vs.TestMessage {
  location?: vs.Location;
  contextValue?: string;
  expectedOutput?: string;
  actualOutput?: string;
  constructor(readonly message: string) {}
  static diff(message: string, expected: string, actual: string): TestMessage {
    const m = new TestMessage(message);
    m.expectedOutput = expected;
    m.actualOutput = actual;
    return m;
  }
}

/** A run profile: the adapters only hand it on to the requests they make. */
export const runProfile: vs.TestRunProfile = {
  label: 'Run Trigger Tests',
  kind: 1,
  isDefault: true,
  onDidChangeDefault: new EventEmitter<boolean>().event,
  supportsContinuousRun: true,
  tag: undefined,
  configureHandler: undefined,
  runHandler: () => undefined,
  loadDetailedCoverage: undefined,
  loadDetailedCoverageForTest: undefined,
  dispose: () => undefined,
};

/** A test item as the controller makes it; the collection it is added to is its parent's children. */
export class FakeItem implements vs.TestItem {
  parent: FakeItem | undefined;
  readonly children: Items = new Items(this);
  tags: readonly vs.TestTag[] = [];
  canResolveChildren = false;
  busy = false;
  range: vs.Range | undefined;
  description?: string;
  sortText?: string;
  error: string | vs.MarkdownString | undefined;
  constructor(
    readonly id: string,
    public label: string,
    readonly uri: vs.Uri | undefined,
  ) {}
}

/** A TestItemCollection: items by id, in the order added; each knows its parent. */
export class Items implements vs.TestItemCollection {
  readonly map = new Map<string, FakeItem>();
  constructor(private readonly owner: FakeItem | undefined) {}
  get(id: string): FakeItem | undefined {
    return this.map.get(id);
  }
  add(item: vs.TestItem): void {
    if (!(item instanceof FakeItem)) throw new Error('an item the fake controller did not make');
    item.parent = this.owner;
    this.map.set(item.id, item);
  }
  delete(id: string): void {
    this.map.delete(id);
  }
  replace(items: readonly vs.TestItem[]): void {
    this.map.clear();
    for (const i of items) this.add(i);
  }
  forEach(fn: (item: vs.TestItem, collection: vs.TestItemCollection) => unknown): void {
    [...this.map.values()].forEach((item) => fn(item, this));
  }
  get size(): number {
    return this.map.size;
  }
  [Symbol.iterator](): Iterator<[string, vs.TestItem]> {
    return this.map.entries();
  }
}

/** One run of the fake controller: each state it was told, in order, as `<state> <test id>[: <message>]`. */
class FakeRun implements vs.TestRun {
  readonly log: string[] = [];
  readonly isPersisted = true;
  readonly token = new CancellationTokenSource().token;
  readonly onDidDispose = new EventEmitter<void>().event;
  private endedNow: () => void = () => undefined;
  /** Resolves when the run ends. */
  readonly ended = new Promise<void>((resolve) => (this.endedNow = resolve));
  constructor(
    readonly request: vs.TestRunRequest,
    readonly name: string | undefined,
  ) {}
  private record(what: string, item: vs.TestItem, message?: vs.TestMessage | readonly vs.TestMessage[]): void {
    const messages = message === undefined ? [] : 'message' in message ? [message] : message;
    const text = messages.map((m) => (typeof m.message === 'string' ? m.message : m.message.value)).join('; ');
    this.log.push(`${what} ${item.id}${text === '' ? '' : `: ${text}`}`);
  }
  enqueued(item: vs.TestItem): void {
    this.record('enqueued', item);
  }
  started(item: vs.TestItem): void {
    this.record('started', item);
  }
  skipped(item: vs.TestItem): void {
    this.record('skipped', item);
  }
  failed(item: vs.TestItem, message: vs.TestMessage | readonly vs.TestMessage[]): void {
    this.record('failed', item, message);
  }
  errored(item: vs.TestItem, message: vs.TestMessage | readonly vs.TestMessage[]): void {
    this.record('errored', item, message);
  }
  passed(item: vs.TestItem): void {
    this.record('passed', item);
  }
  /** What the run wrote to its output, each call's text. */
  readonly output: string[] = [];
  appendOutput(text: string): void {
    this.output.push(text);
  }
  addCoverage(): void {}
  end(): void {
    this.log.push('end');
    this.endedNow();
  }
}

/** What the Test Explorer's adapters use of a test controller, recording the runs made and the files invalidated. */
export class FakeTestController
  implements Pick<vs.TestController, 'items' | 'createTestItem' | 'createTestRun' | 'invalidateTestResults'>
{
  readonly items = new Items(undefined);
  readonly runs: FakeRun[] = [];
  readonly invalidated: string[] = [];
  createTestItem(id: string, label: string, uri?: vs.Uri): FakeItem {
    return new FakeItem(id, label, uri);
  }
  createTestRun(request: vs.TestRunRequest, name?: string): FakeRun {
    const run = new FakeRun(request, name);
    this.runs.push(run);
    return run;
  }
  invalidateTestResults(items?: vs.TestItem | readonly vs.TestItem[]): void {
    const list = items === undefined ? [] : 'id' in items ? [items] : items;
    this.invalidated.push(...list.map((i) => i.id));
  }
}

Object.assign(vscode, { TestRunRequest, CancellationTokenSource, TestMessage });
Object.assign(vscode.workspace.fs, {
  stat: (uri: Uri) => {
    const text = fake.files.get(uri.toString());
    return text === undefined ? Promise.reject(new Error('no file')) : Promise.resolve({ size: text.length });
  },
});
