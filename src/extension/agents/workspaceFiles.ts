// The workspace's files as the agent tools read them: every *.trigger.json of the workspace, and for drift and
// plan every *.burn-alert.json and *.definitions.json too (a folder stands for its files of every kind, as in
// the CLI), or those under the workspace-relative paths a tool was given (a file named is taken whatever its
// kind). A file open with
// unsaved edits is left out with the reason (a plan is of what is on disk), and so is one that lies outside its
// workspace folder once links are resolved (never read); a path outside the workspace is refused. Also the
// edits an apply makes: a created trigger's id written into its file.
import * as vscode from 'vscode';
import { ToolError, type FileKinds, type SourceFile } from '../../agentTools';
import {
  BURN_ALERT_FILE_SUFFIX,
  DEFINITIONS_FILE_SUFFIX,
  SKIPPED_BY_SEARCHES,
  TRIGGER_FILE_SUFFIX,
} from '../../triggerFiles';
import { planText, PlannedFiles, workspaceName } from '../core/triggerFileAccess';
import { leftOutReason, outsideItsFolder, splitInside } from '../core/workspaceContainment';

/** At most this many files are read for one tool call. */
const MAX_FILES = 2_000;
const READ_BATCH = 32;

/** The files a folder stands for, as a glob under it. */
const folderGlob = (kinds: FileKinds): string =>
  kinds === 'triggers'
    ? `**/*${TRIGGER_FILE_SUFFIX}`
    : `**/*{${TRIGGER_FILE_SUFFIX},${BURN_ALERT_FILE_SUFFIX},${DEFINITIONS_FILE_SUFFIX}}`;

const tooManyText = (kinds: FileKinds): string =>
  kinds === 'triggers'
    ? vscode.l10n.t('more than {0} trigger files lie under those paths: name folders that hold at most {0}', MAX_FILES)
    : vscode.l10n.t(
        'more than {0} trigger, burn alert and definitions files lie under those paths: name folders that hold at most {0}',
        MAX_FILES,
      );

/** Why a path given by a tool call may not be read: absolute, leaving the workspace, or a pattern. */
function outsideProblem(p: string): string | undefined {
  const parts = p.split(/[\\/]+/);
  if (p.startsWith('/') || p.startsWith('\\') || /^[a-zA-Z]:/.test(p))
    return vscode.l10n.t('{0} is absolute: give paths relative to the workspace', JSON.stringify(p));
  if (parts.includes('..')) return vscode.l10n.t('{0} leaves the workspace', JSON.stringify(p));
  if (/[*?[\]{}!]/.test(p)) return vscode.l10n.t('{0} is a pattern: name trigger files or folders', JSON.stringify(p));
  return undefined;
}

export class WorkspaceTriggerFiles extends PlannedFiles {
  private lastRead: readonly vscode.Uri[] = [];
  /** The files of the last read named on their own (by uri). */
  private named = new Set<string>();

  /** The files of those kinds under the paths (the whole workspace when none), each with its saved text or why it was left out. */
  async read(
    paths: readonly string[],
    kinds: FileKinds,
    signal: AbortSignal,
  ): Promise<{ files: SourceFile[]; problems: string[] }> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0)
      throw new ToolError(
        vscode.l10n.t('no folder is open in the editor: open the folder that holds the trigger files'),
      );
    const problems: string[] = [];
    const found = new Map<string, vscode.Uri>();
    const patterns =
      paths.length === 0
        ? folders.map((f) => ({ pattern: new vscode.RelativePattern(f, folderGlob(kinds)), named: false }))
        : await this.patternsOf(paths, folderGlob(kinds), folders, problems);
    // A file named on its own (not also found under a folder given) targets itself: a prune deletes nothing on its account.
    const walked = new Set<string>();
    const named = new Set<string>();
    // One more than the bound is asked for, to know when there are more: a plan of part of the files could
    // delete the triggers the rest hold, so past the bound nothing is read.
    for (const { pattern, named: byName } of patterns) {
      for (const uri of await vscode.workspace.findFiles(pattern, SKIPPED_BY_SEARCHES, MAX_FILES + 1)) {
        found.set(uri.toString(), uri);
        (byName ? named : walked).add(uri.toString());
      }
    }
    this.named = new Set([...named].filter((u) => !walked.has(u)));
    if (found.size > MAX_FILES) throw new ToolError(tooManyText(kinds));
    const uris = [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
    this.lastRead = uris;
    return { files: await this.readAll(uris, signal), problems };
  }

  /** The files of the last read, read again (an apply plans them anew), with the same rules. */
  readAgain(signal: AbortSignal): Promise<SourceFile[]> {
    return this.readAll(this.lastRead, signal);
  }

  private async readAll(uris: readonly vscode.Uri[], signal: AbortSignal): Promise<SourceFile[]> {
    const dirty = new Set(vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()));
    // The search follows links: what lies outside its workspace folder is named with the reason, never read.
    const outside = new Set((await splitInside(uris, (uri) => vscode.workspace.getWorkspaceFolder(uri)?.uri)).leftOut);
    const files: SourceFile[] = [];
    for (let i = 0; i < uris.length && !signal.aborted; i += READ_BATCH) {
      files.push(
        ...(await Promise.all(
          uris.slice(i, i + READ_BATCH).map((uri) => this.readOne(uri, dirty.has(uri.toString()), outside.has(uri))),
        )),
      );
    }
    return files;
  }

  /** A pattern per path: a folder's files (`glob`), or the file itself. Paths are relative to a workspace folder. */
  private async patternsOf(
    paths: readonly string[],
    glob: string,
    folders: readonly vscode.WorkspaceFolder[],
    problems: string[],
  ): Promise<{ pattern: vscode.RelativePattern; named: boolean }[]> {
    const out: { pattern: vscode.RelativePattern; named: boolean }[] = [];
    for (const p of paths) {
      const refusal = outsideProblem(p);
      if (refusal !== undefined) throw new ToolError(refusal);
      const relative = p
        .split('\\')
        .join('/')
        .replace(/^\.\/+/, '')
        .replace(/\/+$/, '');
      let matched = false;
      for (const folder of folders) {
        const uri = relative === '' || relative === '.' ? folder.uri : vscode.Uri.joinPath(folder.uri, relative);
        const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
        if (stat === undefined) continue;
        matched = true;
        if (await outsideItsFolder(uri, folder.uri)) {
          problems.push(
            vscode.l10n.t(
              '{0} lies outside the workspace folder once links are resolved: it is not read',
              JSON.stringify(p),
            ),
          );
          continue;
        }
        const isFolder = (stat.type & vscode.FileType.Directory) !== 0;
        out.push({
          pattern: new vscode.RelativePattern(isFolder ? uri : folder.uri, isFolder ? glob : relative),
          named: !isFolder,
        });
      }
      if (!matched) problems.push(vscode.l10n.t('{0} is not in the workspace', JSON.stringify(p)));
    }
    return out;
  }

  private async readOne(uri: vscode.Uri, dirty: boolean, outside: boolean): Promise<SourceFile> {
    // Not remembered either: an apply never reads or edits it.
    if (outside) return { file: workspaceName(uri), text: undefined, problem: leftOutReason() };
    const file = this.remember(uri);
    if (dirty)
      return {
        file,
        text: undefined,
        problem: vscode.l10n.t('it has unsaved changes in the editor: save the file first'),
      };
    const read = await planText(uri);
    const named = this.named.has(uri.toString()) ? { named: true } : {};
    return read.ok ? { file, text: read.text, ...named } : { file, text: undefined, problem: read.reason, ...named };
  }
}
