// Reads each workspace folder's environments file (the setting obs.environmentsFile) into WorkspaceEnvironments,
// again when it is created, changed or deleted (a burst of events read once), when the setting changes and when
// folders come and go; each mistake of a file is shown in it at its place, as `obs lint` shows it.
import * as vscode from 'vscode';
import { Batch } from './batch';
import { errorText } from './errors';
import type { Settings } from './settings';
import type { EnvironmentsFileRead } from './environmentsReader';
import type { EnvironmentsFileState, WorkspaceEnvironments } from './workspaceEnvironments';

/** Reads an environments file's text (environmentsReader.ts, loaded when a workspace first has such a file). */
export type EnvironmentsFileReader = (text: string) => EnvironmentsFileRead;

/** Long enough to read a branch switch's create, change and delete of one file once. */
const READ_WINDOW_MS = 150;

/** The file's text, undefined when there is none, or why it cannot be read. */
async function readText(uri: vscode.Uri): Promise<{ text: string | undefined } | { unreadable: string }> {
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (err) {
    // workspace.fs says a file is missing by a FileSystemError's code.
    if (err instanceof Error && 'code' in err && err.code === 'FileNotFound') return { text: undefined };
    return { unreadable: vscode.l10n.t('The environments file cannot be read: {0}', errorText(err)) };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { unreadable: vscode.l10n.t('The environments file is not UTF-8 text.') };
  }
}

function diagnosticsOf(read: EnvironmentsFileRead): vscode.Diagnostic[] {
  return read.diagnostics.map((d) => {
    const { start, end } = d.range;
    const range = new vscode.Range(start.line, start.character, end.line, end.character);
    const diagnostic = new vscode.Diagnostic(range, d.message, vscode.DiagnosticSeverity.Error);
    diagnostic.source = 'obs';
    diagnostic.code = d.rule;
    return diagnostic;
  });
}

/** A mistake of the whole file, shown on its first line. */
function wholeFile(message: string): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), message, vscode.DiagnosticSeverity.Error);
  diagnostic.source = 'obs';
  return diagnostic;
}

export class EnvironmentsWatcher implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('obs-environments');
  /** Reads one after another, so that an older read never lands after a newer one. */
  private reading: Promise<void> = Promise.resolve();
  private readonly batch = new Batch<string, vscode.WorkspaceFolder>(
    (b) => {
      this.reading = this.reading.then(() => this.read([...b.values()]));
    },
    { windowMs: READ_WINDOW_MS },
  );
  private watchers: vscode.Disposable[] = [];
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly settings: Settings,
    private readonly environments: WorkspaceEnvironments,
    private readonly reader: () => EnvironmentsFileReader,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.watch()),
      { dispose: settings.onDidChange((names) => names.has('environmentsFile') && this.watch()).dispose },
    ];
    this.watch();
  }

  /** Watches the file of each folder, and reads them all now. */
  private watch(): void {
    for (const w of this.watchers) w.dispose();
    this.collection.clear();
    const folders = vscode.workspace.workspaceFolders ?? [];
    this.environments.keepOnly(new Set(folders.map((f) => f.uri.toString())));
    const file = this.settings.environmentsFile();
    this.watchers = folders.map((folder) => {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, file));
      const changed = (): void => this.batch.add(folder.uri.toString(), folder);
      return vscode.Disposable.from(
        watcher,
        watcher.onDidCreate(changed),
        watcher.onDidChange(changed),
        watcher.onDidDelete(changed),
      );
    });
    for (const folder of folders) this.batch.add(folder.uri.toString(), folder);
  }

  private async read(folders: readonly vscode.WorkspaceFolder[]): Promise<void> {
    const name = this.settings.environmentsFile();
    const states = new Map<string, EnvironmentsFileState>();
    for (const folder of folders) {
      const uri = vscode.Uri.joinPath(folder.uri, name);
      const read = await this.readFile(uri);
      this.collection.set(uri, 'unreadable' in read ? [wholeFile(read.unreadable)] : diagnosticsOf(read.file));
      states.set(
        folder.uri.toString(),
        'unreadable' in read ? { kind: 'broken', problems: [{ path: [], message: read.unreadable }] } : read.file.state,
      );
    }
    this.environments.update(states);
  }

  /** The file read (a missing one read as absent), or why it cannot be. */
  private async readFile(uri: vscode.Uri): Promise<{ file: EnvironmentsFileRead } | { unreadable: string }> {
    const read = await readText(uri);
    if ('unreadable' in read) return read;
    if (read.text === undefined) return { file: { state: { kind: 'absent' }, diagnostics: [] } };
    try {
      return { file: this.reader()(read.text) };
    } catch (err) {
      return { unreadable: vscode.l10n.t('The environments file cannot be read: {0}', errorText(err)) };
    }
  }

  dispose(): void {
    this.batch.clear();
    for (const d of [...this.watchers, ...this.subscriptions, this.collection]) d.dispose();
  }
}

/**
 * What triggers as code reads of the environments files: drift compares a folder's files as the active
 * connection's environment there sees them (not the home's), again when a file changes; Apply to Connection offers
 * a folder's environments, its file named as plans name files.
 */
export function environmentsForSync(environments: WorkspaceEnvironments, settings: Settings) {
  return {
    environmentOf: (connectionName: string) => {
      const byFolder = environments.overlaysOfConnection(connectionName);
      if (byFolder.size === 0) return undefined;
      return (uri: string) => {
        const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri));
        return folder === undefined ? undefined : byFolder.get(folder.uri.toString());
      };
    },
    onEnvironmentsChanged: (listener: () => void) => environments.onDidChange(listener),
    environmentsOfFile: (file: vscode.Uri) => {
      const folder = vscode.workspace.getWorkspaceFolder(file);
      const read = folder === undefined ? undefined : environments.environmentsOf(folder.uri.toString());
      return new Map([...(read?.environments ?? [])].filter(([name]) => name !== read?.home));
    },
    environments: (folder: vscode.WorkspaceFolder) => {
      const read = environments.environmentsOf(folder.uri.toString());
      const uri = vscode.Uri.joinPath(folder.uri, settings.environmentsFile());
      const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
      return read && { read, file: vscode.workspace.asRelativePath(uri, several) };
    },
  };
}
