// What an Apply command was run on, and the trigger files it plans: the Explorer's selection (folders
// searched) or the workspace, one file or trigger (CodeLens, Trigger Drift view, the active editor), or the
// delete of a trigger only on the service. The service's side of a Compare diff is never a file to plan: an
// Apply run there plans the local file on the diff's other side.
import * as vscode from 'vscode';
import { SKIPPED_BY_SEARCHES, TRIGGER_FILE_SUFFIX } from '../../triggerFiles';
import { planText, PlannedFiles, workspaceName } from '../core/triggerFileAccess';
import { leftOutMessage, splitInside } from '../core/workspaceContainment';
import type { PlanScope, SourceFile } from './applyPlan';
import { visible } from './applyPlanText';
import { SERVICE_TRIGGER_SCHEME } from './syncIds';

const READ_BATCH = 32;

/** The trigger files the plan reads, by the name the plan gives them (workspace-relative), and their uris. */
export class Sources extends PlannedFiles {
  /** Each file's saved text, and whether it is open with unsaved edits (then it is left out of the plan). */
  async read(uris: readonly vscode.Uri[]): Promise<SourceFile[]> {
    const dirty = new Set(vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()));
    const out: SourceFile[] = [];
    for (let i = 0; i < uris.length; i += READ_BATCH) {
      const batch = uris.slice(i, i + READ_BATCH);
      out.push(...(await Promise.all(batch.map((uri) => this.readOne(uri, dirty.has(uri.toString()))))));
    }
    return out;
  }

  private async readOne(uri: vscode.Uri, dirty: boolean): Promise<SourceFile> {
    const file = this.remember(uri);
    const read = await planText(uri);
    return read.ok ? { file, text: read.text, dirty } : { file, text: undefined, dirty, problem: read.reason };
  }
}

/**
 * What a command was run on: Explorer uris (none: the workspace), a drift item or lens (`{ uri, index }`), a
 * service-only row.
 */
export type Target =
  | { kind: 'files'; uris: vscode.Uri[] }
  | { kind: 'trigger'; uri: vscode.Uri; index?: number }
  | { kind: 'delete'; id: string; dataset: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The local file a uri stands for: itself, or for the service's version of a trigger (the left side of a
 * Compare diff), the file on the right of the diff that shows it; undefined when no diff shows it.
 */
export function localTriggerFile(uri: vscode.Uri): vscode.Uri | undefined {
  if (uri.scheme !== SERVICE_TRIGGER_SCHEME) return uri;
  const shown = uri.toString();
  for (const group of vscode.window.tabGroups.all) {
    // The active group's tab first: the diff the user is looking at.
    const tabs = group.activeTab === undefined ? group.tabs : [group.activeTab, ...group.tabs];
    for (const tab of tabs) {
      const input = tab.input;
      if (
        input instanceof vscode.TabInputTextDiff &&
        input.original.toString() === shown &&
        input.modified.scheme !== SERVICE_TRIGGER_SCHEME
      )
        return input.modified;
    }
  }
  return undefined;
}

/** The trigger file of an Apply on one file: its argument, else the active editor's (the local side of a diff). */
export function fileTarget(arg: unknown): Target | undefined {
  if (arg instanceof vscode.Uri) {
    const uri = localTriggerFile(arg);
    return uri === undefined ? undefined : { kind: 'trigger', uri };
  }
  if (isRecord(arg) && typeof arg.uri === 'string') {
    const index = typeof arg.index === 'number' ? arg.index : undefined;
    const uri = localTriggerFile(vscode.Uri.parse(arg.uri));
    return uri === undefined ? undefined : { kind: 'trigger', uri, ...(index === undefined ? {} : { index }) };
  }
  const doc = vscode.window.activeTextEditor?.document;
  const uri = doc === undefined ? undefined : localTriggerFile(doc.uri);
  return uri === undefined || !uri.path.endsWith(TRIGGER_FILE_SUFFIX) ? undefined : { kind: 'trigger', uri };
}

export function deleteTarget(arg: unknown): Target | undefined {
  const trigger = isRecord(arg) ? arg.trigger : undefined;
  if (!isRecord(trigger) || typeof trigger.id !== 'string' || !isRecord(arg) || typeof arg.dataset !== 'string')
    return undefined;
  return { kind: 'delete', id: trigger.id, dataset: arg.dataset };
}

/** The plan's scope of a target: a single file is named as the plan names it. */
export function scopeOf(target: Target): PlanScope {
  if (target.kind === 'files') return { kind: 'files' };
  if (target.kind === 'delete') return target;
  return {
    kind: 'trigger',
    file: workspaceName(target.uri),
    ...(target.index === undefined ? {} : { index: target.index }),
  };
}

/**
 * The trigger files under the Explorer's selection (folders searched), or every one of the workspace; those
 * that lie outside their workspace folder once links are resolved (the search follows links) are left out, said.
 */
export async function filesOf(selection: readonly vscode.Uri[]): Promise<vscode.Uri[]> {
  const found = new Map<string, vscode.Uri>();
  for (const uri of selection) {
    const stat = await vscode.workspace.fs.stat(uri);
    const files =
      (stat.type & vscode.FileType.Directory) !== 0
        ? await vscode.workspace.findFiles(
            new vscode.RelativePattern(uri, `**/*${TRIGGER_FILE_SUFFIX}`),
            SKIPPED_BY_SEARCHES,
          )
        : uri.path.endsWith(TRIGGER_FILE_SUFFIX)
          ? [uri]
          : [];
    for (const f of files) found.set(f.toString(), f);
  }
  const all =
    selection.length === 0
      ? await vscode.workspace.findFiles(`**/*${TRIGGER_FILE_SUFFIX}`, SKIPPED_BY_SEARCHES)
      : [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
  const { inside, leftOut } = await splitInside(all, (f) => vscode.workspace.getWorkspaceFolder(f)?.uri);
  if (leftOut.length > 0)
    void vscode.window.showWarningMessage(leftOutMessage(leftOut.map((f) => visible(workspaceName(f)))));
  return inside;
}

/** Explorer arguments: the clicked uri and the whole selection. */
export function explorerSelection(args: readonly unknown[]): vscode.Uri[] {
  const many = Array.isArray(args[1]) ? args[1].filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
  if (many.length > 0) return many;
  return args[0] instanceof vscode.Uri ? [args[0]] : [];
}
