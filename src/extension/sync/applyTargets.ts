// What an Apply command was run on, and the files it plans: the Explorer's selection (folders searched) or the
// workspace (trigger files, and the burn alert and definitions files of their settings' patterns), one file or
// trigger (CodeLens, Drift view, the active editor), or the delete of a trigger only on the service. The service's side of a Compare diff is never a file to plan: an
// Apply run there plans the local file on the diff's other side.
import * as vscode from 'vscode';
import {
  BURN_ALERT_FILE_SUFFIX,
  DEFINITIONS_FILE_SUFFIX,
  kindOfFile,
  SKIPPED_BY_SEARCHES,
  TRIGGER_FILE_SUFFIX,
} from '../../triggerFiles';
import { planText, PlannedFiles, workspaceName } from '../core/triggerFileAccess';
import { leftOutMessage, splitInside } from '../core/workspaceContainment';
import type { PlanScope, SourceFile } from './applyPlan';
import { visible } from './applyPlanText';
import { AS_SEEN_SCHEME, SERVICE_TRIGGER_SCHEME } from './syncIds';
import { asSeenOf } from './asSeenDocuments';

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
  // The file as an environment sees it stands for the file.
  if (uri.scheme === AS_SEEN_SCHEME) return asSeenOf(uri)?.file;
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
        return localTriggerFile(input.modified);
    }
  }
  return undefined;
}

/** The names of the files an Apply on the active editor plans. */
const PLANNED_SUFFIXES = [TRIGGER_FILE_SUFFIX, BURN_ALERT_FILE_SUFFIX, DEFINITIONS_FILE_SUFFIX];

/** The file of an Apply on one file: its argument, else the active editor's (the local side of a diff). */
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
  return uri === undefined || !PLANNED_SUFFIXES.some((s) => uri.path.endsWith(s))
    ? undefined
    : { kind: 'trigger', uri };
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

/** The settings' glob patterns (relative to each workspace folder) of the burn alert and definitions files. */
export interface SloFilePatterns {
  burnAlert: readonly string[];
  definitions: readonly string[];
}

/**
 * The burn alert and definitions files of the settings' patterns in every workspace folder, each kept only
 * when its name says its kind (the plan tells a file's kind by its name: another name would be planned as a
 * trigger file).
 */
async function sloFiles(patterns: SloFilePatterns): Promise<vscode.Uri[]> {
  const found = new Map<string, vscode.Uri>();
  const kinds = [
    ['burn-alert', patterns.burnAlert],
    ['definitions', patterns.definitions],
  ] as const;
  for (const folder of vscode.workspace.workspaceFolders ?? [])
    for (const [kind, list] of kinds)
      for (const p of list)
        for (const f of await vscode.workspace.findFiles(new vscode.RelativePattern(folder, p), SKIPPED_BY_SEARCHES))
          if (kindOfFile(f.path) === kind) found.set(f.toString(), f);
  return [...found.values()];
}

/** Whether a file is one of the selection, or lies under one of its folders. */
function selected(file: vscode.Uri, folders: readonly vscode.Uri[], files: ReadonlySet<string>): boolean {
  if (files.has(file.toString())) return true;
  const path = file.path;
  return folders.some(
    (d) => d.scheme === file.scheme && d.authority === file.authority && path.startsWith(`${d.path}/`),
  );
}

/** The folders of the Explorer's selection, and the trigger files under them or selected themselves. */
async function triggerFilesOf(
  selection: readonly vscode.Uri[],
): Promise<{ folders: vscode.Uri[]; triggers: vscode.Uri[] }> {
  const folders: vscode.Uri[] = [];
  const triggers: vscode.Uri[] = [];
  for (const uri of selection) {
    if (((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) === 0) {
      if (uri.path.endsWith(TRIGGER_FILE_SUFFIX)) triggers.push(uri);
      continue;
    }
    folders.push(uri);
    const pattern = new vscode.RelativePattern(uri, `**/*${TRIGGER_FILE_SUFFIX}`);
    triggers.push(...(await vscode.workspace.findFiles(pattern, SKIPPED_BY_SEARCHES)));
  }
  return { folders, triggers };
}

/**
 * The files under the Explorer's selection (folders searched), or every one of the workspace: trigger files,
 * and the burn alert and definitions files of the settings' patterns. Those that lie outside their workspace
 * folder once links are resolved (the search follows links) are left out, said.
 */
export async function filesOf(selection: readonly vscode.Uri[], patterns: SloFilePatterns): Promise<vscode.Uri[]> {
  const slo = await sloFiles(patterns);
  let all: vscode.Uri[];
  if (selection.length === 0) {
    all = [...(await vscode.workspace.findFiles(`**/*${TRIGGER_FILE_SUFFIX}`, SKIPPED_BY_SEARCHES)), ...slo];
  } else {
    const { folders, triggers } = await triggerFilesOf(selection);
    const files = new Set(selection.map((u) => u.toString()));
    const found = new Map<string, vscode.Uri>();
    for (const f of [...triggers, ...slo.filter((f) => selected(f, folders, files))]) found.set(f.toString(), f);
    all = [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
  }
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
