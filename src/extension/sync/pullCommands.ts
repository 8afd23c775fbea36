// Pull from the Datasets view: a dataset's triggers, the environment-wide ones, or everything, written
// as canonical trigger files under a folder the user picks. Progress with cancel, bounded and paced
// list calls (triggerFiles/pool.ts), and a file that differs locally is overwritten only after a yes.
import * as vscode from 'vscode';
import type { ServiceClient } from '../../api/client';
import { namedAsSet } from './pullRecipients';
import {
  applyPull,
  collectTriggers,
  PacedPool,
  planPull,
  triggersByTarget,
  scanExisting,
  type DatasetListing,
  type EntryKind,
  type PullFileSystem,
  type PullReport,
} from '../../triggerFiles';
import { nodeFileSystem } from '../../triggerFiles/nodeFs';
import { connectionLabel, type ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import type { Settings } from '../core/settings';
import { outsideWorkspace, settingFolder } from './pullFolder';
import { approveUpdates, pullReportText, updateQuestion, type UpdateAnswer } from './pullPlanText';
import type { PullScope } from './pullScope';

export interface PullDeps {
  connections: Pick<ConnectionManager, 'requireActive' | 'connectionFor'>;
  settings: Settings;
  feedback: Feedback;
  /** The datasets the Datasets view shows for a connection (added by the user). */
  datasets: (connectionId: string) => string[];
  /** Lists read by the pull, handed to drift so it need not read them again. */
  onListed: (connectionId: string, dataset: string, listing: DatasetListing) => void;
  /** After a pull: compare the workspace again. */
  onPulled: () => void;
}

/** A FileSystemError's code (`FileNotFound`, `FileExists`...), undefined for any other error. */
const fsCode = (err: unknown) => (err instanceof vscode.FileSystemError ? err.code : undefined);

function kindOf(type: vscode.FileType): EntryKind {
  if ((type & vscode.FileType.SymbolicLink) !== 0) return 'link';
  if (type === vscode.FileType.File) return 'file';
  return type === vscode.FileType.Directory ? 'folder' : 'other';
}

/**
 * The workspace's file system under a folder: node's for local folders (links resolved, hard-linked
 * creates), else VS Code's. There a new file is written to a temporary name and renamed without
 * overwriting, so nothing that appeared meanwhile is replaced; links are not resolved, so pull leaves them alone.
 */
export function fileSystemAt(root: vscode.Uri): { fs: PullFileSystem; root: string } {
  if (root.scheme === 'file') return { fs: nodeFileSystem, root: root.fsPath.split('\\').join('/') };
  const at = (path: string) => vscode.Uri.joinPath(root, ...path.split('/').filter((p) => p !== ''));
  const absent = async <T>(read: () => Thenable<T>): Promise<T | undefined> => {
    try {
      return await read();
    } catch (err) {
      if (fsCode(err) === 'FileNotFound') return undefined;
      throw err;
    }
  };
  const fs: PullFileSystem = {
    list: async (dir) =>
      (await absent(() => vscode.workspace.fs.readDirectory(at(dir))))?.map(([name, type]) => ({
        name,
        kind: kindOf(type),
      })),
    read: async (path) => {
      const bytes = await absent(() => vscode.workspace.fs.readFile(at(path)));
      return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
    },
    async create(path, text) {
      const temp = at(`${path}.${Math.random().toString(16).slice(2, 10).padEnd(8, '0')}.tmp`);
      await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(text));
      try {
        await vscode.workspace.fs.rename(temp, at(path), { overwrite: false });
      } catch (err) {
        await vscode.workspace.fs.delete(temp).then(undefined, () => undefined);
        throw fsCode(err) === 'FileExists' ? Object.assign(new Error(fsCode(err)), { code: 'EEXIST' }) : err;
      }
    },
    async replace(path, text) {
      await vscode.workspace.fs.writeFile(at(path), new TextEncoder().encode(text));
    },
  };
  return { fs, root: '' };
}

/** Where to pull: the folder, and the workspace folder it must stay in when it came from the setting (not from the dialog). */
export interface PullTarget {
  folder: vscode.Uri;
  insideOf?: vscode.Uri;
}

/** A folder setting and the words of its picker: `obs.pullFolder` for trigger files. */
export interface FolderSetting {
  name: string;
  value: string;
  title: string;
  placeHolder: string;
}

/** The choice of the setting's folder in one workspace folder, or why it is refused. */
function settingChoice(
  f: vscode.WorkspaceFolder,
  setting: FolderSetting,
  many: boolean,
): vscode.QuickPickItem & { target?: PullTarget; refused?: string } {
  const found = settingFolder(
    setting.value,
    { trusted: vscode.workspace.isTrusted, localDisk: f.uri.scheme === 'file' },
    setting.name,
  );
  const description = vscode.l10n.t('folder from the "{0}" setting', setting.name);
  if (found.kind === 'refused')
    return { label: `$(error) ${setting.value}`, description, detail: found.reason, refused: found.reason };
  const folder =
    found.kind === 'absolute' ? vscode.Uri.file(found.path) : vscode.Uri.joinPath(f.uri, ...found.segments);
  return { label: vscode.workspace.asRelativePath(folder, many), description, target: { folder, insideOf: f.uri } };
}

/** The folder to pull into: the setting's folder in a workspace folder (the first choice), or one the user picks. */
export async function pickFolder(setting: FolderSetting, feedback: Feedback): Promise<PullTarget | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const choices: (vscode.QuickPickItem & { target?: PullTarget; refused?: string })[] = folders.map((f) =>
    settingChoice(f, setting, folders.length > 1),
  );
  choices.push({ label: `$(folder-opened) ${vscode.l10n.t('Choose Another Folder...')}` });
  const picked =
    folders.length === 0
      ? choices[0]
      : await vscode.window.showQuickPick(choices, {
          title: setting.title,
          placeHolder: setting.placeHolder,
        });
  if (picked === undefined) return undefined;
  if (picked.refused !== undefined) {
    void feedback.reportRefusal(picked.refused);
    return undefined;
  }
  if (picked.target !== undefined) return picked.target;
  const chosen = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: vscode.l10n.t('Pull Here'),
    defaultUri: folders[0]?.uri,
  });
  return chosen?.[0] === undefined ? undefined : { folder: chosen[0] };
}

/** Why the setting's folder may not be written once links are resolved (local folders only), or undefined. */
export async function targetProblem(target: PullTarget, setting: string): Promise<string | undefined> {
  if (target.insideOf === undefined || target.folder.scheme !== 'file' || target.insideOf.scheme !== 'file')
    return undefined;
  return outsideWorkspace(target.folder.fsPath, target.insideOf.fsPath, (p) => nodeFileSystem.realPath(p), setting);
}

/** The buttons of the overwrite question: translated labels, each mapped back to its answer. */
export function askButtons(): { answer: UpdateAnswer; label: string }[] {
  return [
    { answer: 'Overwrite', label: vscode.l10n.t('Overwrite') },
    { answer: 'Skip', label: vscode.l10n.t('Skip') },
    { answer: 'Overwrite All', label: vscode.l10n.t('Overwrite All') },
    { answer: 'Skip All', label: vscode.l10n.t('Skip All') },
  ];
}

/** Files open with unsaved edits are never overwritten: the user's edits would be lost or in conflict. */
export function unsavedUnder(root: vscode.Uri): (path: string) => string | undefined {
  const dirty = new Set(vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()));
  return (path) =>
    dirty.has(vscode.Uri.joinPath(root, ...path.split('/')).toString())
      ? 'it has unsaved changes in the editor'
      : undefined;
}

/** Every file written, skipped, not written or removed, in the log. */
export function logReport(log: Feedback['log'], shownFolder: string, report: PullReport): void {
  for (const p of [...report.created, ...report.updated]) log.info(`pull: wrote ${shownFolder}/${p}`);
  for (const s of report.skipped) log.info(`pull: skipped ${shownFolder}/${s.path}: ${s.reason}`);
  for (const f of report.failed) log.error(`pull: could not write ${shownFolder}/${f.path}: ${f.message}`);
  for (const p of report.removed)
    log.info(`pull: removed ${shownFolder}/${p}, a temporary file an interrupted pull left`);
}

export async function pull(deps: PullDeps, scope: PullScope, connectionId?: string): Promise<PullReport | undefined> {
  const active =
    connectionId === undefined
      ? await deps.connections.requireActive()
      : await deps.connections.connectionFor(connectionId);
  const target = await pickFolder(
    {
      name: 'obs.pullFolder',
      value: deps.settings.pullFolder(),
      title: vscode.l10n.t('Pull Triggers'),
      placeHolder: vscode.l10n.t('Write the trigger files into which folder?'),
    },
    deps.feedback,
  );
  if (target === undefined) return undefined;
  const outside = await targetProblem(target, 'obs.pullFolder');
  if (outside !== undefined) {
    void deps.feedback.reportRefusal(outside);
    return undefined;
  }
  const folder = target.folder;
  const client: ServiceClient = active.client;
  const cid = active.profile.id;
  const what =
    scope.kind === 'dataset'
      ? scope.slug
      : scope.kind === 'environment'
        ? vscode.l10n.t('the environment')
        : vscode.l10n.t('every dataset');
  const shownFolder = vscode.workspace.asRelativePath(folder, false);
  const log = deps.feedback.log;
  let failures = 0;
  const report = await deps.feedback.runWithProgress(
    vscode.l10n.t('Pulling the triggers of {0} from {1}', what, connectionLabel(active.profile.name)),
    async (signal, progress) => {
      const pool = new PacedPool({
        concurrency: deps.settings.concurrency(),
        onPause: (ms) => progress(vscode.l10n.t("Waiting {0} s for the service's rate limit", Math.ceil(ms / 1000))),
      });
      const datasets =
        scope.kind === 'dataset' ? [scope.slug] : scope.kind === 'environment' ? ['__all__'] : deps.datasets(cid);
      const collected = await collectTriggers(
        client,
        { datasets, everything: scope.kind === 'everything' },
        pool,
        signal,
        (dataset, listing) => {
          deps.onListed(cid, dataset, listing);
          if (listing.state === 'listed')
            progress(
              dataset === '__all__'
                ? vscode.l10n.t('Listed {0} triggers of the environment', listing.triggers.length)
                : vscode.l10n.t('Listed {0} triggers of {1}', listing.triggers.length, dataset),
            );
        },
      );
      for (const f of collected.failures) log.warn(`pull: could not list the triggers of ${f.dataset}: ${f.message}`);
      failures = collected.failures.length;
      const { fs, root } = fileSystemAt(folder);
      const form = deps.settings.pullRecipients();
      const items = await namedAsSet(form, client, collected.items, triggersByTarget, log, signal);
      const plan = planPull(items, await scanExisting(fs, root, items, signal));
      return applyPull(fs, root, plan, {
        signal,
        hold: unsavedUnder(folder),
        approve: (updates) =>
          approveUpdates(updates, async (u, left) => {
            const q = updateQuestion(u, left);
            const buttons = askButtons();
            const choice = await vscode.window.showWarningMessage(
              q.message,
              { modal: true, detail: q.detail },
              ...buttons.map((b) => b.label),
            );
            return buttons.find((b) => b.label === choice)?.answer;
          }),
        onProgress: (done, total) => progress(vscode.l10n.t('{0} of {1} files', done, total)),
      });
    },
  );
  if (report === undefined) return undefined;
  logReport(log, shownFolder, report);
  deps.onPulled();
  const text = pullReportText(what, connectionLabel(active.profile.name), shownFolder, report, failures);
  const problem = report.failed.length > 0 || failures > 0;
  const show = problem ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const showLogs = vscode.l10n.t('Show Logs');
  void show(text, showLogs).then((choice) => {
    if (choice === showLogs) void vscode.commands.executeCommand('obs.showLogs');
  });
  return report;
}
