// A small in-memory `vscode` module for unit tests of adapters (driftViews, syncHost, registerSync,
// triggerDiagnostics, lintCollection, lintCodeActions, datasetsView): importing this file first makes every later
// `require('vscode')` in this process return the fake. It holds only what those adapters touch, with real
// behaviour where the tests count work (events fired, Problems entries visited, files read) and inert
// answers elsewhere. The test drives it through `fake` (documents, files, events, what was registered).
import Module from 'node:module';
import type * as vs from 'vscode';
import { sep } from 'node:path';

type Listener<T> = (value: T) => unknown;

export class Disposable {
  constructor(private readonly fn: () => unknown) {}
  static from(...ds: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => ds.forEach((d) => d.dispose()));
  }
  dispose(): void {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  /** How often fire() was called (what a view's redraw count is). */
  fired = 0;
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(value: T): void {
    this.fired++;
    for (const l of [...this.listeners]) l(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query = '',
    readonly fragment = '',
  ) {}
  static parse(value: string): Uri {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (m === null) throw new Error(`not a uri: ${value}`);
    return new Uri(m[1] ?? '', m[2] ?? '', m[3] ?? '', m[4] ?? '', m[5] ?? '');
  }
  static file(path: string): Uri {
    return new Uri('file', '', path.split(sep).join('/'));
  }
  static from(parts: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(parts.scheme, parts.authority ?? '', parts.path ?? '', parts.query ?? '', parts.fragment ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(
      base.scheme,
      base.authority,
      [base.path.replace(/\/$/, ''), ...segments].join('/'),
      base.query,
      base.fragment,
    );
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(
      change.scheme ?? this.scheme,
      change.authority ?? this.authority,
      change.path ?? this.path,
      change.query ?? this.query,
      change.fragment ?? this.fragment,
    );
  }
  toJSON(): { scheme: string; authority: string; path: string; query: string; fragment: string } {
    return {
      scheme: this.scheme,
      authority: this.authority,
      path: this.path,
      query: this.query,
      fragment: this.fragment,
    };
  }
  toString(): string {
    const authority = this.scheme === 'file' || this.authority !== '' ? `//${this.authority}` : '';
    return `${this.scheme}:${authority}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
}

export class Position implements vs.Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
  compareTo(other: Position): number {
    return this.line === other.line ? this.character - other.character : this.line - other.line;
  }
  isBefore(other: Position): boolean {
    return this.compareTo(other) < 0;
  }
  isBeforeOrEqual(other: Position): boolean {
    return this.compareTo(other) <= 0;
  }
  isAfter(other: Position): boolean {
    return this.compareTo(other) > 0;
  }
  isAfterOrEqual(other: Position): boolean {
    return this.compareTo(other) >= 0;
  }
  isEqual(other: Position): boolean {
    return this.compareTo(other) === 0;
  }
  translate(lineOrChange?: number | { lineDelta?: number; characterDelta?: number }, characterDelta = 0): Position {
    const change = typeof lineOrChange === 'object' ? lineOrChange : { lineDelta: lineOrChange ?? 0, characterDelta };
    return new Position(this.line + (change.lineDelta ?? 0), this.character + (change.characterDelta ?? 0));
  }
  with(lineOrChange?: number | { line?: number; character?: number }, character?: number): Position {
    const change = typeof lineOrChange === 'object' ? lineOrChange : { line: lineOrChange, character };
    return new Position(change.line ?? this.line, change.character ?? this.character);
  }
}

export class Range implements vs.Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: number | Position, b: number | Position, c?: number, d?: number) {
    const start = typeof a === 'number' ? new Position(a, typeof b === 'number' ? b : 0) : a;
    const end = typeof a === 'number' ? new Position(c ?? 0, d ?? 0) : typeof b === 'number' ? start : b;
    [this.start, this.end] = start.isAfter(end) ? [end, start] : [start, end];
  }
  get isEmpty(): boolean {
    return this.start.isEqual(this.end);
  }
  get isSingleLine(): boolean {
    return this.start.line === this.end.line;
  }
  contains(positionOrRange: Position | Range): boolean {
    const r = positionOrRange instanceof Range ? positionOrRange : new Range(positionOrRange, positionOrRange);
    return this.start.isBeforeOrEqual(r.start) && this.end.isAfterOrEqual(r.end);
  }
  isEqual(other: Range): boolean {
    return this.start.isEqual(other.start) && this.end.isEqual(other.end);
  }
  intersection(other: Range): Range | undefined {
    const start = this.start.isAfter(other.start) ? this.start : other.start;
    const end = this.end.isBefore(other.end) ? this.end : other.end;
    return start.isAfter(end) ? undefined : new Range(start, end);
  }
  union(other: Range): Range {
    return new Range(
      this.start.isBefore(other.start) ? this.start : other.start,
      this.end.isAfter(other.end) ? this.end : other.end,
    );
  }
  with(startOrChange?: Position | { start?: Position; end?: Position }, end?: Position): Range {
    const change =
      startOrChange instanceof Position || startOrChange === undefined ? { start: startOrChange, end } : startOrChange;
    return new Range(change.start ?? this.start, change.end ?? this.end);
  }
}

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Range,
  ) {}
}

export class Diagnostic implements vs.Diagnostic {
  source?: string;
  code?: string | number | { value: string | number; target: Uri };
  tags?: vs.DiagnosticTag[];
  relatedInformation?: DiagnosticRelatedInformation[];
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity = 0,
  ) {}
}

export class DiagnosticRelatedInformation {
  constructor(
    readonly location: Location,
    readonly message: string,
  ) {}
}

export class CodeActionKind {
  static readonly Empty = new CodeActionKind('');
  static readonly QuickFix = new CodeActionKind('quickfix');
  static readonly Refactor = new CodeActionKind('refactor');
  static readonly Source = new CodeActionKind('source');
  static readonly SourceFixAll = new CodeActionKind('source.fixAll');
  constructor(readonly value: string) {}
  append(part: string): CodeActionKind {
    return new CodeActionKind(this.value === '' ? part : `${this.value}.${part}`);
  }
  contains(other: CodeActionKind): boolean {
    return this.value === '' || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
  intersects(other: CodeActionKind): boolean {
    return this.contains(other) || other.contains(this);
  }
}

export class CodeAction {
  edit?: WorkspaceEdit;
  diagnostics?: Diagnostic[];
  isPreferred?: boolean;
  constructor(
    readonly title: string,
    readonly kind?: CodeActionKind,
  ) {}
}

export class WorkspaceEdit {
  readonly edits: { uri: Uri; range: Range; newText: string }[] = [];
  replace(uri: Uri, range: Range, newText: string): void {
    this.edits.push({ uri, range, newText });
  }
}

export class ThemeColor {
  constructor(readonly id: string) {}
}
export class ThemeIcon {
  constructor(readonly id: string) {}
}
export class FileDecoration {
  constructor(
    readonly badge?: string,
    readonly tooltip?: string,
    readonly color?: ThemeColor,
  ) {}
}
export class TreeItem {
  id?: string;
  resourceUri?: Uri;
  description?: string;
  tooltip?: string;
  contextValue?: string;
  command?: unknown;
  iconPath?: unknown;
  constructor(
    readonly label: string,
    readonly collapsibleState = 0,
  ) {}
}
export class CodeLens {
  constructor(
    readonly range: Range,
    readonly command?: { title: string; command: string; arguments?: unknown[]; tooltip?: string },
  ) {}
}

/** How an MCP server is started: what McpServers lists and VS Code hands back to resolve. */
export class McpStdioServerDefinition {
  cwd?: Uri;
  constructor(
    readonly label: string,
    public command: string,
    public args: string[],
    public env: Record<string, string | number | null>,
    public version?: string,
  ) {}
}

export interface WorkspaceFolder {
  uri: Uri;
  name: string;
  index: number;
}

export class RelativePattern {
  readonly baseUri: Uri;
  constructor(
    base: WorkspaceFolder | Uri | string,
    readonly pattern: string,
  ) {
    this.baseUri = typeof base === 'string' ? Uri.file(base) : base instanceof Uri ? base : base.uri;
  }
}

/** `**` any folders, `*` any characters of one segment, `{a,b}` alternatives: enough for the extension's globs. */
function globRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? '';
    if (glob.startsWith('**/', i)) {
      out += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      out += '.*';
      i += 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '{') out += '(?:';
    else if (c === '}') out += ')';
    else if (c === ',') out += '|';
    else out += c.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

function matchesPattern(uri: Uri, pattern: string | RelativePattern): boolean {
  if (typeof pattern === 'string')
    return globRegExp(pattern.startsWith('**/') || pattern.startsWith('/') ? pattern : `**/${pattern}`).test(
      uri.path.replace(/^\//, ''),
    );
  const base = pattern.baseUri.path.replace(/\/$/, '');
  if (!uri.path.startsWith(`${base}/`)) return false;
  return globRegExp(pattern.pattern).test(uri.path.slice(base.length + 1));
}

/**
 * An open document. The fake addresses a document by offset: all of it is line 0, and a position's character
 * is its offset (positionAt, offsetAt and applyEdit agree on that).
 */
export class TextDocument implements vs.TextDocument {
  isClosed = false;
  /** Edited (applyEdit) and not saved since. */
  isDirty = false;
  readonly isUntitled = false;
  readonly encoding = 'utf8';
  readonly eol = 1;
  constructor(
    readonly uri: Uri,
    private text: string,
    public version = 1,
    readonly languageId = 'json',
  ) {}
  get fileName(): string {
    return this.uri.path;
  }
  get lineCount(): number {
    return 1;
  }
  lineAt(): vs.TextLine {
    const range = new Range(0, 0, 0, this.text.length);
    return {
      lineNumber: 0,
      text: this.text,
      range,
      rangeIncludingLineBreak: range,
      firstNonWhitespaceCharacterIndex: this.text.search(/\S|$/),
      isEmptyOrWhitespace: this.text.trim() === '',
    };
  }
  offsetAt(position: Position): number {
    return position.character;
  }
  getText(range?: Range): string {
    return range === undefined ? this.text : this.text.slice(range.start.character, range.end.character);
  }
  getWordRangeAtPosition(): Range | undefined {
    return undefined;
  }
  validateRange(range: Range): Range {
    return range;
  }
  validatePosition(position: Position): Position {
    return position;
  }
  /** An edit: new text, next version. */
  edit(text: string): void {
    this.text = text;
    this.version++;
  }
  positionAt(offset: number): Position {
    return new Position(0, offset);
  }
  /** Writes the text to `fake.files`. */
  save(): Promise<boolean> {
    fake.files.set(this.uri.toString(), this.text);
    this.isDirty = false;
    return Promise.resolve(true);
  }
}

/** The open document of the uri, opened from `fake.files` (or its scheme's content provider) when it is not open yet. */
function openDocument(uri: Uri): TextDocument {
  const open = fake.documents.find((d) => d.uri.toString() === uri.toString());
  if (open !== undefined) return open;
  const provider = fake.contentProviders.get(uri.scheme) as { provideTextDocumentContent(u: Uri): string } | undefined;
  const text = provider?.provideTextDocumentContent(uri) ?? fake.files.get(uri.toString());
  if (text === undefined) throw new Error(`no file ${uri.toString()}`);
  const doc = new TextDocument(uri, text);
  fake.documents.push(doc);
  return doc;
}

/** Problems entries by uri; counts the entries every call visits (forEach visits them all). */
export class DiagnosticCollection {
  readonly entries = new Map<string, { uri: Uri; diagnostics: readonly Diagnostic[] }>();
  /** Entries looked at by forEach, get and has. */
  visits = 0;
  constructor(readonly name: string) {}
  set(uri: Uri, diagnostics: readonly Diagnostic[] | undefined): void {
    if (diagnostics === undefined) this.entries.delete(uri.toString());
    else this.entries.set(uri.toString(), { uri, diagnostics });
    fake.events.diagnostics.fire({ uris: [uri] });
  }
  delete(uri: Uri): void {
    this.entries.delete(uri.toString());
    fake.events.diagnostics.fire({ uris: [uri] });
  }
  get(uri: Uri): readonly Diagnostic[] | undefined {
    this.visits++;
    return this.entries.get(uri.toString())?.diagnostics;
  }
  has(uri: Uri): boolean {
    this.visits++;
    return this.entries.has(uri.toString());
  }
  forEach(cb: (uri: Uri, diagnostics: readonly Diagnostic[], collection: this) => unknown): void {
    for (const { uri, diagnostics } of [...this.entries.values()]) {
      this.visits++;
      cb(uri, diagnostics, this);
    }
  }
  clear(): void {
    const uris = [...this.entries.values()].map((e) => e.uri);
    this.entries.clear();
    fake.events.diagnostics.fire({ uris });
  }
  dispose(): void {
    this.entries.clear();
  }
}

export class FileSystemWatcher {
  readonly created = new EventEmitter<Uri>();
  readonly changed = new EventEmitter<Uri>();
  readonly deleted = new EventEmitter<Uri>();
  readonly onDidCreate = this.created.event;
  readonly onDidChange = this.changed.event;
  readonly onDidDelete = this.deleted.event;
  disposed = false;
  constructor(
    readonly pattern: string | RelativePattern,
    readonly ignoreCreate = false,
    readonly ignoreChange = false,
    readonly ignoreDelete = false,
  ) {}
  dispose(): void {
    this.disposed = true;
  }
}

/** The two sides of a diff editor's tab (Compare with Service: the service's version, the file). */
export class TabInputTextDiff {
  constructor(
    readonly original: Uri,
    readonly modified: Uri,
  ) {}
}

/** An editor group's tabs, as window.tabGroups lists them. */
export interface TabGroupFake {
  activeTab?: { input: unknown };
  tabs: { input: unknown }[];
}

export interface TreeViewFake {
  readonly id: string;
  readonly provider: {
    getChildren(node?: unknown): unknown;
    getTreeItem(node: unknown): unknown;
    onDidChangeTreeData?: unknown;
  };
  message?: string;
  badge?: unknown;
  visible: boolean;
  readonly visibility: EventEmitter<{ visible: boolean }>;
  onDidChangeVisibility: (l: Listener<{ visible: boolean }>) => Disposable;
  /** The user opening and closing rows. */
  readonly expansion: { expand: EventEmitter<{ element: unknown }>; collapse: EventEmitter<{ element: unknown }> };
  onDidExpandElement: (l: Listener<{ element: unknown }>) => Disposable;
  onDidCollapseElement: (l: Listener<{ element: unknown }>) => Disposable;
  title?: string;
  description?: string;
  dispose(): void;
}

/** What the test drives and inspects. */
export const fake = {
  documents: [] as TextDocument[],
  folders: undefined as WorkspaceFolder[] | undefined,
  /** File contents by uri string (workspace.fs and findFiles read them). */
  files: new Map<string, string>(),
  /** Files whose bytes are not the UTF-8 of a text (read as they are; found by findFiles like the others). */
  bytes: new Map<string, Uint8Array>(),
  /** Entries of files or bytes that are not regular files (a FIFO): stat says so, and reading one fails the test. */
  special: new Set<string>(),
  reads: 0,
  events: {
    open: new EventEmitter<TextDocument>(),
    change: new EventEmitter<{ document: TextDocument; contentChanges: unknown[] }>(),
    save: new EventEmitter<TextDocument>(),
    close: new EventEmitter<TextDocument>(),
    folders: new EventEmitter<unknown>(),
    deleteFiles: new EventEmitter<{ files: Uri[] }>(),
    renameFiles: new EventEmitter<{ files: { oldUri: Uri; newUri: Uri }[] }>(),
    configuration: new EventEmitter<unknown>(),
    /** Problems changed (languages.onDidChangeDiagnostics): a collection's entries were set, deleted or cleared. */
    diagnostics: new EventEmitter<{ uris: readonly Uri[] }>(),
  },
  watchers: [] as FileSystemWatcher[],
  collections: [] as DiagnosticCollection[],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  /** executeCommand calls of commands not registered here (setContext, vscode.open...). */
  executed: [] as { command: string; args: unknown[] }[],
  treeViews: [] as TreeViewFake[],
  decorationProviders: [] as unknown[],
  codeLensProviders: [] as unknown[],
  codeActionProviders: [] as unknown[],
  contentProviders: new Map<string, unknown>(),
  /** Documents shown in an editor (showTextDocument), in order. */
  shownDocuments: [] as Uri[],
  /** The editor groups and their tabs (window.tabGroups.all). */
  tabGroups: [] as TabGroupFake[],
  messages: [] as string[],
  /** Every notification shown: its severity, text and action buttons (VS Code keeps an error with actions until closed). */
  shown: [] as { severity: 'info' | 'warning' | 'error'; text: string; actions: string[] }[],
  /** The button the user presses on a message that offers it (otherwise none: the message is dismissed). */
  answer: undefined as string | undefined,
  /** The options of every withProgress, in order. */
  progress: [] as unknown[],
  /** Every withProgress is cancelled (its Cancel pressed) when its task reports a message starting with this, or at once (''). */
  cancelProgressAt: undefined as string | undefined,
  /** Fires a watcher event on every live watcher whose pattern matches the uri. */
  fileEvent(kind: 'created' | 'changed' | 'deleted', uri: Uri): void {
    for (const w of fake.watchers) {
      if (w.disposed || !matchesPattern(uri, w.pattern)) continue;
      if (
        (kind === 'created' && w.ignoreCreate) ||
        (kind === 'changed' && w.ignoreChange) ||
        (kind === 'deleted' && w.ignoreDelete)
      )
        continue;
      w[kind].fire(uri);
    }
  },
  /** Forgets everything registered and every document, file and listener (between tests). */
  reset(): void {
    fake.documents = [];
    fake.folders = undefined;
    fake.files.clear();
    fake.bytes.clear();
    fake.special.clear();
    fake.reads = 0;
    for (const e of Object.values(fake.events)) e.dispose();
    fake.watchers = [];
    fake.collections = [];
    fake.commands.clear();
    fake.executed = [];
    fake.treeViews = [];
    fake.decorationProviders = [];
    fake.codeLensProviders = [];
    fake.codeActionProviders = [];
    fake.contentProviders.clear();
    fake.shownDocuments = [];
    fake.tabGroups = [];
    fake.messages = [];
    fake.shown = [];
    fake.answer = undefined;
    fake.progress = [];
    fake.cancelProgressAt = undefined;
  },
};

const registered = <T>(list: T[], item: T): Disposable => {
  list.push(item);
  return new Disposable(() => list.splice(list.indexOf(item), 1));
};

const message =
  (severity: 'info' | 'warning' | 'error') =>
  (text: string, ...rest: unknown[]): Promise<string | undefined> => {
    fake.messages.push(text);
    const actions = rest.filter((r): r is string => typeof r === 'string');
    fake.shown.push({ severity, text, actions });
    return Promise.resolve(fake.answer !== undefined && actions.includes(fake.answer) ? fake.answer : undefined);
  };

export const vscode = {
  Disposable,
  EventEmitter,
  Uri,
  Position,
  Range,
  Location,
  Diagnostic,
  DiagnosticRelatedInformation,
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  CodeActionKind,
  CodeAction,
  WorkspaceEdit,
  ThemeColor,
  ThemeIcon,
  FileDecoration,
  TreeItem,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  CodeLens,
  McpStdioServerDefinition,
  RelativePattern,
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
  TabInputTextDiff,
  FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
  ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  l10n: {
    bundle: undefined,
    t: (text: string, ...args: unknown[]): string =>
      text.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] === undefined ? m : String(args[Number(i)]))),
  },
  workspace: {
    get textDocuments(): TextDocument[] {
      return fake.documents;
    },
    get workspaceFolders(): WorkspaceFolder[] | undefined {
      return fake.folders;
    },
    getWorkspaceFolder(uri: Uri): WorkspaceFolder | undefined {
      return fake.folders?.find((f) => uri.path.startsWith(`${f.uri.path}/`));
    },
    onDidOpenTextDocument: fake.events.open.event,
    onDidChangeTextDocument: fake.events.change.event,
    onDidSaveTextDocument: fake.events.save.event,
    onDidCloseTextDocument: fake.events.close.event,
    onDidChangeWorkspaceFolders: fake.events.folders.event,
    onDidDeleteFiles: fake.events.deleteFiles.event,
    onDidRenameFiles: fake.events.renameFiles.event,
    onDidChangeConfiguration: fake.events.configuration.event,
    getConfiguration: () => ({
      get: (_key: string, fallback?: unknown) => fallback,
      inspect: () => undefined,
      update: () => Promise.resolve(),
    }),
    fs: {
      /** A regular file of its size, or an entry that is not one (fake.special); a path of neither is not found. */
      stat(uri: Uri): Promise<{ type: number; size: number; ctime: number; mtime: number }> {
        const key = uri.toString();
        const size =
          fake.bytes.get(key)?.length ??
          (fake.files.has(key) ? new TextEncoder().encode(fake.files.get(key)).length : undefined);
        if (size === undefined)
          return Promise.reject(Object.assign(new Error(`no file ${key}`), { code: 'FileNotFound' }));
        return Promise.resolve({ type: fake.special.has(key) ? 0 : 1, size, ctime: 0, mtime: 0 });
      },
      readFile(uri: Uri): Promise<Uint8Array> {
        if (fake.special.has(uri.toString()))
          throw new Error(`${uri.toString()} is not a regular file: reading it would block`);
        fake.reads++;
        const bytes = fake.bytes.get(uri.toString());
        if (bytes !== undefined) return Promise.resolve(bytes);
        const text = fake.files.get(uri.toString());
        return text === undefined
          ? Promise.reject(Object.assign(new Error(`no file ${uri.toString()}`), { code: 'FileNotFound' }))
          : Promise.resolve(new TextEncoder().encode(text));
      },
    },
    findFiles(include: string | RelativePattern, _exclude?: unknown, maxResults?: number): Promise<Uri[]> {
      const found = [...fake.files.keys(), ...fake.bytes.keys()]
        .map((u) => Uri.parse(u))
        .filter((u) => matchesPattern(u, include));
      return Promise.resolve(maxResults === undefined ? found : found.slice(0, maxResults));
    },
    createFileSystemWatcher(
      pattern: string | RelativePattern,
      ignoreCreate?: boolean,
      ignoreChange?: boolean,
      ignoreDelete?: boolean,
    ): FileSystemWatcher {
      const w = new FileSystemWatcher(pattern, ignoreCreate, ignoreChange, ignoreDelete);
      fake.watchers.push(w);
      return w;
    },
    openTextDocument(uri: Uri): Promise<TextDocument> {
      try {
        return Promise.resolve(openDocument(uri));
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    },
    /** Replaces each range (offsets, see TextDocument.positionAt) in its document, which is then unsaved. */
    applyEdit(edit: WorkspaceEdit): Promise<boolean> {
      for (const e of edit.edits) {
        const doc = openDocument(e.uri);
        const text = doc.getText();
        doc.edit(text.slice(0, e.range.start.character) + e.newText + text.slice(e.range.end.character));
        doc.isDirty = true;
      }
      return Promise.resolve(true);
    },
    registerTextDocumentContentProvider(scheme: string, provider: unknown): Disposable {
      fake.contentProviders.set(scheme, provider);
      return new Disposable(() => fake.contentProviders.delete(scheme));
    },
    asRelativePath(uri: Uri | string): string {
      const path = typeof uri === 'string' ? uri : uri.path;
      const base = fake.folders?.[0]?.uri.path.replace(/\/$/, '');
      return base !== undefined && path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
    },
  },
  languages: {
    createDiagnosticCollection(name: string): DiagnosticCollection {
      const c = new DiagnosticCollection(name);
      fake.collections.push(c);
      return c;
    },
    match(
      selector: { pattern?: string | RelativePattern; language?: string; scheme?: string }[],
      doc: TextDocument,
    ): number {
      return selector.some(
        (f) =>
          (f.language === undefined || f.language === doc.languageId) &&
          (f.scheme === undefined || f.scheme === doc.uri.scheme) &&
          (f.pattern === undefined || matchesPattern(doc.uri, f.pattern)),
      )
        ? 10
        : 0;
    },
    onDidChangeDiagnostics: fake.events.diagnostics.event,
    registerCodeActionsProvider: (_selector: unknown, provider: unknown) =>
      registered(fake.codeActionProviders, provider),
    registerCodeLensProvider: (_selector: unknown, provider: unknown) => registered(fake.codeLensProviders, provider),
  },
  window: {
    activeTextEditor: undefined,
    createTreeView(id: string, options: { treeDataProvider: TreeViewFake['provider'] }): TreeViewFake {
      const visibility = new EventEmitter<{ visible: boolean }>();
      const expansion = {
        expand: new EventEmitter<{ element: unknown }>(),
        collapse: new EventEmitter<{ element: unknown }>(),
      };
      const view: TreeViewFake = {
        id,
        provider: options.treeDataProvider,
        visible: false,
        visibility,
        onDidChangeVisibility: visibility.event,
        expansion,
        onDidExpandElement: expansion.expand.event,
        onDidCollapseElement: expansion.collapse.event,
        dispose: () => fake.treeViews.splice(fake.treeViews.indexOf(view), 1),
      };
      fake.treeViews.push(view);
      return view;
    },
    registerFileDecorationProvider: (provider: unknown) => registered(fake.decorationProviders, provider),
    withProgress<T>(
      options: unknown,
      task: (
        progress: { report(v: unknown): void },
        token: { isCancellationRequested: boolean; onCancellationRequested: (l: () => void) => Disposable },
      ) => Promise<T>,
    ): Promise<T> {
      fake.progress.push(options);
      const listeners: (() => void)[] = [];
      const token = {
        isCancellationRequested: false,
        onCancellationRequested: (l: () => void) => registered(listeners, l),
      };
      const cancel = () => {
        if (token.isCancellationRequested) return;
        token.isCancellationRequested = true;
        for (const l of [...listeners]) l();
      };
      const at = fake.cancelProgressAt;
      if (at === '') cancel();
      const report = (v: unknown) => {
        const message = typeof v === 'object' && v !== null ? (v as { message?: unknown }).message : undefined;
        if (at && typeof message === 'string' && message.startsWith(at)) cancel();
      };
      return task({ report }, token);
    },
    tabGroups: {
      get all(): TabGroupFake[] {
        return fake.tabGroups;
      },
    },
    showTextDocument(doc: TextDocument | Uri): Promise<TextDocument> {
      const opened = doc instanceof Uri ? openDocument(doc) : doc;
      fake.shownDocuments.push(opened.uri);
      return Promise.resolve(opened);
    },
    showInformationMessage: message('info'),
    showWarningMessage: message('warning'),
    showErrorMessage: message('error'),
    /** The first item is picked, as a user pressing Enter does. */
    showQuickPick: <T>(items: readonly T[] | Promise<readonly T[]>): Promise<T | undefined> =>
      Promise.resolve(items).then((list) => list[0]),
  },
  /** English, as a test run without a language pack. */
  env: { language: 'en' },
  commands: {
    registerCommand(id: string, run: (...args: unknown[]) => unknown): Disposable {
      fake.commands.set(id, run);
      return new Disposable(() => fake.commands.delete(id));
    },
    executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
      const run = fake.commands.get(command);
      if (run !== undefined) return Promise.resolve(run(...args));
      fake.executed.push({ command, args });
      return Promise.resolve(undefined);
    },
  },
};

const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const load = loader._load;
loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};

/** Resolves when `shown` holds: at once, or after the Problems change that makes it hold (none: the test's timeout fails it). */
export function whenProblems(shown: () => boolean): Promise<void> {
  if (shown()) return Promise.resolve();
  return new Promise((resolve) => {
    const sub = fake.events.diagnostics.event(() => {
      if (!shown()) return;
      sub.dispose();
      resolve();
    });
  });
}

/** A trigger file's uri under the fake workspace folder `/w`. */
export const fileUri = (path: string): Uri => Uri.parse(`file:///w/${path}`);

/** Resolves after pending timers of `ms` and the promise jobs they started. */
export const settle = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once the promise jobs queued now, and those they queue, have run (setImmediate comes after them
 * all): the fake editor answers at once (its files are in memory), so what the code does with an answer is
 * done by then. No wall time: nothing here waits for a quiet spell.
 */
export const jobsDone = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
