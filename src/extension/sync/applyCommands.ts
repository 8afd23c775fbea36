// Apply trigger files to a connection from the editor: the whole workspace, a folder or file of the Explorer,
// one file or trigger (CodeLens, Trigger Drift view), or the delete of a trigger only on the service. The plan
// comes first (applyPlan.ts, the gates of `obs plan`), shown beside as a read-only document; one question names
// the connection (a modal, stronger for one that looks like production); then the changes are written one at
// a time under cancellable progress (triggerFiles/apply.ts), a created trigger's id goes into its file
// (applyIdWrite.ts), and a summary stays until read. Files open with unsaved edits are never planned nor edited.
import * as vscode from 'vscode';
import { applyChanges, type ChangeResult, PacedPool, type Plan, planDifferences, SKIPPED_BY_SEARCHES, TRIGGER_FILE_SUFFIX } from '../../triggerFiles';
import { looksLikeProduction, type ActiveConnection, type ConnectionManager } from '../connections';
import type { ApplyLocks } from '../core/applyLocks';
import type { Feedback } from '../core/feedback';
import { ReadOnlyDocuments } from '../core/readOnlyDocuments';
import type { RecipientDirectory } from '../core/recipients';
import type { Settings } from '../core/settings';
import { capText } from '../core/text';
import { planText, PlannedFiles, workspaceName } from '../core/triggerFileAccess';
import { leftOutMessage, splitInside } from '../core/workspaceContainment';
import { idNotWritten, idWriter } from './applyIdWrite';
import { pacedWriter, planForConnection, type ConnectionPlan, type Linter, type PlanScope, type SourceFile } from './applyPlan';
import { changeLabel, confirmation, planDocumentText, resultDocumentText, summary, visible } from './applyPlanText';

export interface ApplyDeps {
  connections: Pick<ConnectionManager, 'list' | 'activeProfile' | 'requireActive' | 'connectionFor'>;
  settings: Settings;
  feedback: Feedback;
  /** The linter, run in the editor's lint worker. */
  lint: Linter;
  /** After writes to a connection: its lists are read again (drift, lenses, the Datasets tree). */
  onWritten: (connectionId: string) => void;
  /** A connection's recipients when known (the plan names the recipient ids of a difference with them). */
  recipients?: (connectionId: string) => RecipientDirectory | undefined;
  /** One apply at a time per service, shared with the agents' apply tool. */
  locks: ApplyLocks;
}

export type ApplyCommand = 'workspace' | 'workspaceToConnection' | 'file' | 'delete';

/** The scheme of the plan and result documents. */
const APPLY_SCHEME = 'obs-apply';
const READ_BATCH = 32;
/** How many differences the warning names when a plan changed since it was shown. */
const SHOWN_DIFFERENCES = 10;

/** The trigger files the plan reads, by the name the plan gives them (workspace-relative), and their uris. */
class Sources extends PlannedFiles {
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

/** What a command was run on: Explorer uris (none: the workspace), a drift item or lens (`{ uri, index }`), a service-only row. */
type Target = { kind: 'files'; uris: vscode.Uri[] } | { kind: 'trigger'; uri: vscode.Uri; index?: number } | { kind: 'delete'; id: string; dataset: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function fileTarget(arg: unknown): Target | undefined {
  if (arg instanceof vscode.Uri) return { kind: 'trigger', uri: arg };
  if (isRecord(arg) && typeof arg.uri === 'string') {
    const index = typeof arg.index === 'number' ? arg.index : undefined;
    return { kind: 'trigger', uri: vscode.Uri.parse(arg.uri), ...(index === undefined ? {} : { index }) };
  }
  const doc = vscode.window.activeTextEditor?.document;
  return doc === undefined || !doc.uri.path.endsWith(TRIGGER_FILE_SUFFIX) ? undefined : { kind: 'trigger', uri: doc.uri };
}

function deleteTarget(arg: unknown): Target | undefined {
  const trigger = isRecord(arg) ? arg.trigger : undefined;
  if (!isRecord(trigger) || typeof trigger.id !== 'string' || !isRecord(arg) || typeof arg.dataset !== 'string') return undefined;
  return { kind: 'delete', id: trigger.id, dataset: arg.dataset };
}

/** The plan's scope of a target: a single file is named as the plan names it. */
function scopeOf(target: Target): PlanScope {
  if (target.kind === 'files') return { kind: 'files' };
  if (target.kind === 'delete') return target;
  return { kind: 'trigger', file: workspaceName(target.uri), ...(target.index === undefined ? {} : { index: target.index }) };
}

/**
 * The trigger files under the Explorer's selection (folders searched), or every one of the workspace; those
 * that lie outside their workspace folder once links are resolved (the search follows links) are left out, said.
 */
async function filesOf(selection: readonly vscode.Uri[]): Promise<vscode.Uri[]> {
  const found = new Map<string, vscode.Uri>();
  for (const uri of selection) {
    const stat = await vscode.workspace.fs.stat(uri);
    const files = (stat.type & vscode.FileType.Directory) !== 0 ? await vscode.workspace.findFiles(new vscode.RelativePattern(uri, `**/*${TRIGGER_FILE_SUFFIX}`), SKIPPED_BY_SEARCHES) : uri.path.endsWith(TRIGGER_FILE_SUFFIX) ? [uri] : [];
    for (const f of files) found.set(f.toString(), f);
  }
  const all = selection.length === 0 ? await vscode.workspace.findFiles(`**/*${TRIGGER_FILE_SUFFIX}`, SKIPPED_BY_SEARCHES) : [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
  const { inside, leftOut } = await splitInside(all, (f) => vscode.workspace.getWorkspaceFolder(f)?.uri);
  if (leftOut.length > 0) void vscode.window.showWarningMessage(leftOutMessage(leftOut.map((f) => visible(workspaceName(f)))));
  return inside;
}

/** Explorer arguments: the clicked uri and the whole selection. */
function explorerSelection(args: readonly unknown[]): vscode.Uri[] {
  const many = Array.isArray(args[1]) ? args[1].filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
  if (many.length > 0) return many;
  return args[0] instanceof vscode.Uri ? [args[0]] : [];
}

export class ApplyCommands implements vscode.Disposable {
  private readonly documents = new ReadOnlyDocuments(APPLY_SCHEME);

  constructor(private readonly deps: ApplyDeps) {}

  async run(command: ApplyCommand, args: readonly unknown[]): Promise<void> {
    const target = await this.targetOf(command, args);
    if (target === undefined) return;
    const connection = command === 'workspaceToConnection' ? await this.pickConnection() : await this.deps.connections.requireActive();
    if (connection === undefined) return;
    const held = this.deps.locks.take(connection.profile.baseUrl, vscode.l10n.t("the editor's Apply"));
    if ('heldBy' in held) {
      void vscode.window.showWarningMessage(vscode.l10n.t('An apply to {0} is already running ({1}); wait for it to finish.', visible(connection.profile.name), held.heldBy));
      return;
    }
    try {
      await this.apply(connection, target);
    } finally {
      held.release();
    }
  }

  dispose(): void {
    this.documents.dispose();
  }

  private async targetOf(command: ApplyCommand, args: readonly unknown[]): Promise<Target | undefined> {
    if (command === 'workspace' || command === 'workspaceToConnection') return { kind: 'files', uris: explorerSelection(args) };
    const target = command === 'file' ? fileTarget(args[0]) : deleteTarget(args[0]);
    if (target === undefined) {
      const what = command === 'file' ? vscode.l10n.t('Open a trigger file to apply it.') : vscode.l10n.t('Delete a trigger from its row in the Trigger Drift view.');
      void vscode.window.showInformationMessage(what);
    }
    return target;
  }

  /** A saved connection, not only the active one: those that look like production listed last. */
  private async pickConnection(): Promise<ActiveConnection | undefined> {
    const profiles = this.deps.connections.list();
    if (profiles.length === 0) return this.deps.connections.requireActive();
    const active = this.deps.connections.activeProfile()?.id;
    const ordered = [...profiles].sort((a, b) => Number(looksLikeProduction(a.name)) - Number(looksLikeProduction(b.name)));
    const items = ordered.map((p) => ({
      label: p.name,
      description: p.id === active ? vscode.l10n.t('{0} (active)', p.baseUrl) : p.baseUrl,
      ...(looksLikeProduction(p.name) ? { detail: `$(warning) ${vscode.l10n.t('Looks like production')}` } : {}),
      id: p.id,
    }));
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Apply Trigger Files to Connection'), placeHolder: vscode.l10n.t('Plan the trigger files against which connection?') });
    return picked === undefined ? undefined : this.deps.connections.connectionFor(picked.id);
  }

  private async apply(connection: ActiveConnection, target: Target): Promise<void> {
    const sources = new Sources();
    const uris = target.kind === 'trigger' ? [target.uri] : await filesOf(target.kind === 'files' ? target.uris : []);
    if (uris.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No trigger files (*{0}) to apply there.', TRIGGER_FILE_SUFFIX));
      return;
    }
    const files = await sources.read(uris);
    const name = connection.profile.name;
    // The files' ids are the active connection's: on another one they would name another trigger, or none.
    const idsIgnored = this.deps.connections.activeProfile()?.id !== connection.profile.id;
    const planned = await this.plan(connection, files, scopeOf(target), idsIgnored);
    if (planned === undefined) return;
    const { plan, notes } = planned;
    const log = this.deps.feedback.log;
    log.info(`apply: planned ${plan.changes.length} changes to ${visible(name)} (${plan.blocked.length} blocked, ${plan.unchanged} unchanged)`);
    if (plan.changes.length === 0 && plan.blocked.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to change on {0}: the service matches the files.', visible(name)));
      return;
    }
    await this.documents.show(vscode.l10n.t('Plan for {0}', name), planDocumentText(plan, notes, this.deps.recipients?.(connection.profile.id), idsIgnored));
    if (plan.changes.length === 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Nothing can be applied to {0}: every change is blocked (see the plan).', visible(name)));
      return;
    }
    if (!(await this.confirm(plan, name))) {
      log.info(`apply: not confirmed; nothing written to ${visible(name)}`);
      return;
    }
    // What was shown is a record of what the user agreed to, not what is written: plan again now, and write
    // only when it is the same.
    const again = await this.plan(connection, await sources.read(uris), scopeOf(target), idsIgnored);
    if (again === undefined || !this.sameAsShown(plan, again.plan, name)) return;
    await this.write(connection, again.plan, sources, idsIgnored);
  }

  /** Whether the plan made again is the one shown; when not, nothing is written and what differs is said. */
  private sameAsShown(shown: Plan, now: Plan, name: string): boolean {
    const differences = planDifferences(shown, now);
    if (differences.length === 0) return true;
    this.deps.feedback.log.info(visible(`apply: not written to ${name}: the plan changed since it was shown: ${differences.join('; ')}`));
    const more = differences.length > SHOWN_DIFFERENCES ? [vscode.l10n.t('and {0} more', differences.length - SHOWN_DIFFERENCES)] : [];
    void vscode.window.showWarningMessage(vscode.l10n.t('Nothing was written to {0}: the files or the service changed since the plan was shown. Apply again to plan anew.', visible(name)), {
      modal: true,
      detail: [...differences.slice(0, SHOWN_DIFFERENCES), ...more].map((d) => visible(capText(d, 1_000))).join('\n'),
    });
    return false;
  }

  /** The plan under cancellable progress; undefined when cancelled or failed (a failure is shown). */
  private plan(connection: ActiveConnection, files: SourceFile[], scope: PlanScope, idsIgnored: boolean): Promise<ConnectionPlan | undefined> {
    const name = connection.profile.name;
    return this.deps.feedback.runWithProgress(vscode.l10n.t('Planning the trigger files against {0}', name), async (signal, report) => {
      try {
        return await planForConnection({
          files,
          client: connection.client,
          connection: { name, baseUrl: connection.profile.baseUrl },
          scope,
          idsIgnored,
          lint: this.deps.lint,
          concurrency: this.deps.settings.concurrency(),
          signal,
          onPause: (ms) => report(vscode.l10n.t("Waiting {0} s for the service's rate limit", Math.ceil(ms / 1000))),
        });
      } catch (err) {
        // Cancelled: whatever the list, column or lint call threw then, nothing is wrong.
        if (signal.aborted) return undefined;
        throw err;
      }
    });
  }

  private async confirm(plan: Plan, name: string): Promise<boolean> {
    const q = confirmation(plan, looksLikeProduction(name));
    const choice = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, q.button);
    return choice === q.button;
  }

  private async write(connection: ActiveConnection, plan: Plan, sources: Sources, idsIgnored: boolean): Promise<void> {
    const name = connection.profile.name;
    const log = this.deps.feedback.log;
    let results: ChangeResult[] | undefined;
    try {
      results = await this.deps.feedback.runWithProgress(vscode.l10n.t('Applying the plan to {0}', name), (signal, report) => {
        const pool = new PacedPool({ concurrency: 1, onPause: (ms) => report(vscode.l10n.t("Waiting {0} s for the service's rate limit", Math.ceil(ms / 1000))) });
        return applyChanges(plan.changes, pacedWriter(connection.client, pool), {
          signal,
          onChange: (done, total, change) => report(visible(vscode.l10n.t('{0} of {1}: {2}', done + 1, total, changeLabel(change)))),
          // A file holds the active connection's ids: another connection's id is said, not written over them.
          onCreated: idsIgnored ? idNotWritten : idWriter(plan, { state: (f) => sources.state(f), editAndSave: (f, e) => sources.editAndSave(f, e) }),
        });
      });
    } finally {
      // Whatever was written, the lists of the connection are read again.
      this.deps.onWritten(connection.profile.id);
    }
    if (results === undefined) return;
    for (const r of results) log.info(visible(`apply to ${name}: ${r.outcome} ${r.change.action} ${changeLabel(r.change)}${r.outcome === 'applied' ? (r.note === undefined ? '' : `; ${r.note}`) : `: ${r.reason}`}`));
    const details = this.documents.prepare(vscode.l10n.t('Result for {0}', name), resultDocumentText(plan, results));
    const s = summary(plan, results);
    const showDetails: vscode.MessageItem = { title: vscode.l10n.t('Show Details') };
    const ok: vscode.MessageItem = { title: vscode.l10n.t('OK'), isCloseAffordance: true };
    // Modal: the summary stays until it is read.
    const show = s.clean ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    const choice = await show<vscode.MessageItem>(s.message, { modal: true, detail: s.detail }, showDetails, ok);
    if (choice === showDetails) await this.documents.open(details);
  }
}
