// Apply trigger files (and burn alert and definitions files, which are only ever updated) to a connection from
// the editor: the whole workspace, a folder or file of the Explorer, one file or trigger (CodeLens, Drift view), or the delete of a trigger only on the service. The plan
// comes first (applyPlan.ts, the gates of `obs plan`), in the one plan view (planPanel.ts): each change with its
// members old -> new, the file to open, Compare, and a box to leave the change out of this apply; Apply and
// Cancel are there too, and a connection that looks like production asks for its name, typed. After Apply the
// plan is made again with the same pipeline and written only when, less the changes left out, it is the one
// shown; the changes are written one at a time under cancellable progress (triggerFiles/apply.ts), a created
// trigger's id goes into its file (applyIdWrite.ts), and each outcome is shown in the same view. Files open with
// unsaved edits are never planned nor edited.
import * as vscode from 'vscode';
import {
  applyChanges,
  PacedPool,
  planDifferences,
  TRIGGER_FILE_SUFFIX,
  withoutChanges,
  type ChangeResult,
  type Plan,
  type PlannedChange,
  type PlanService,
} from '../../triggerFiles';
import type { PlanFromWebview } from '../../webview/protocol/planView';
import { looksLikeProduction, type ConnectionProfile } from '../connections';
import type { ApplyLocks } from '../core/applyLocks';
import type { Feedback } from '../core/feedback';
import type { RecipientDirectory } from '../core/recipients';
import type { Settings } from '../core/settings';
import { idNotWritten, idWriter } from './applyIdWrite';
import {
  pacedWriter,
  planForConnection,
  type ConnectionPlan,
  type Linter,
  type PlanScope,
  type SourceFile,
  type WritingClient,
} from './applyPlan';
import { changeLabel, nothingText, visible } from './applyPlanText';
import { deleteTarget, explorerSelection, fileTarget, filesOf, scopeOf, Sources, type Target } from './applyTargets';
import type { PlanViewSurface } from './planPanel';
import { PlanSession } from './planSession';
import {
  activeEnvironment,
  chooseDestination,
  environmentGone,
  environmentNow,
  namedForEnvironment,
  type EnvironmentTarget,
  type FolderEnvironments,
} from './applyDestination';

/** What an apply uses of a connection: its id, name and address, and a client that reads and writes triggers. */
export interface ApplyConnection {
  profile: Pick<ConnectionProfile, 'id' | 'name' | 'baseUrl'>;
  client: PlanService & WritingClient;
}

/** The saved connections and the active one, as the connection manager answers (an ActiveConnection is one). */
interface ApplyConnections {
  list(): readonly Pick<ConnectionProfile, 'id' | 'name' | 'baseUrl'>[];
  activeProfile(): Pick<ConnectionProfile, 'id'> | undefined;
  requireActive(): Promise<ApplyConnection>;
  connectionFor(id: string): Promise<ApplyConnection>;
}

export interface ApplyDeps {
  connections: ApplyConnections;
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
  /** A workspace folder's environments file, when it reads without a mistake (Apply to Connection offers them). */
  environments?: (folder: vscode.WorkspaceFolder) => FolderEnvironments | undefined;
  /** The one plan view. */
  view: PlanViewSurface;
  /** Compare with Service of a file's trigger (the diff editor), in the given column. */
  compare: (target: { uri: string; index?: number }, column: vscode.ViewColumn) => Promise<void>;
  /** The service's version of a trigger (a delete's) as read-only JSON, in the given column. */
  openServiceTrigger: (triggerId: string, column: vscode.ViewColumn) => Promise<void>;
}

export type ApplyCommand = 'workspace' | 'workspaceToConnection' | 'file' | 'delete';

/** The files a plan read, as an apply reads them again. */
interface PlannedTarget {
  uris: vscode.Uri[];
  sources: Sources;
  scope: PlanScope;
  idsIgnored: boolean;
  /** The environment planned for: the triggers as it sees them (docs/ENVIRONMENTS.md). */
  environment?: EnvironmentTarget;
}

/** The plan in the view, with what its actions need: the files it read, and how to plan the same again. */
interface Shown {
  session: PlanSession;
  sources: Sources;
  again: () => Promise<void>;
}

export class ApplyCommands implements vscode.Disposable {
  private shown: Shown | undefined;
  private reviews = 0;
  /** The connection an apply of the view writes to now: no other plan takes the view meanwhile. */
  private writing: string | undefined;
  private readonly subscriptions: { dispose(): void }[];

  constructor(private readonly deps: ApplyDeps) {
    this.subscriptions = [deps.view.onMessage((m) => void this.receive(m)), deps.view.onClosed(() => this.closed())];
  }

  async run(command: ApplyCommand, args: readonly unknown[]): Promise<void> {
    const target = this.targetOf(command, args);
    if (target === undefined) return;
    const selection = target.kind === 'files' ? target.uris : target.kind === 'trigger' ? [target.uri] : [];
    if (command !== 'workspaceToConnection') {
      const active = await this.deps.connections.requireActive();
      const env = activeEnvironment(active.profile.name, selection, this.deps.environments);
      await this.planAndReview(active, target, undefined, env);
      return;
    }
    const destination = await chooseDestination(this.deps.connections, selection, this.deps.environments);
    if (destination === undefined) return;
    await this.planAndReview(destination.connection, target, undefined, destination.environment);
  }

  dispose(): void {
    this.shown?.session.end('closed', vscode.l10n.t('Nothing was written: the window closed.'));
    for (const s of this.subscriptions) s.dispose();
  }

  private targetOf(command: ApplyCommand, args: readonly unknown[]): Target | undefined {
    if (command === 'workspace' || command === 'workspaceToConnection')
      return { kind: 'files', uris: explorerSelection(args) };
    const target = command === 'file' ? fileTarget(args[0]) : deleteTarget(args[0]);
    if (target === undefined) {
      const what =
        command === 'file'
          ? vscode.l10n.t('Open a trigger, burn alert or definitions file to apply it.')
          : vscode.l10n.t('Delete a trigger from its row in the Drift view.');
      void vscode.window.showInformationMessage(what);
    }
    return target;
  }

  /** Plans the target's files against the connection, shows the plan in the view, and applies it when asked to. */
  private async planAndReview(
    on: ApplyConnection,
    target: Target,
    leftOut?: ReadonlySet<string>,
    env?: EnvironmentTarget,
  ): Promise<void> {
    const environment = env?.plan;
    const connection = environment === undefined ? on : namedForEnvironment(on, environment.name);
    if (this.writing !== undefined) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The plan view is applying a plan to {0}; wait for it to finish.', visible(this.writing)),
      );
      return;
    }
    const sources = new Sources();
    const patterns = {
      burnAlert: this.deps.settings.burnAlertFiles(),
      definitions: this.deps.settings.definitionsFiles(),
    };
    const uris =
      target.kind === 'trigger' ? [target.uri] : await filesOf(target.kind === 'files' ? target.uris : [], patterns);
    if (uris.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'No trigger files (*{0}), burn alert files or definitions files to apply there.',
          TRIGGER_FILE_SUFFIX,
        ),
      );
      return;
    }
    const name = connection.profile.name;
    const files: PlannedTarget = {
      uris,
      sources,
      scope: scopeOf(target),
      // The files' ids are the home environment's, else the active connection's: elsewhere they would name
      // another trigger, or none.
      idsIgnored:
        environment === undefined
          ? this.deps.connections.activeProfile()?.id !== connection.profile.id
          : environment.overlay !== undefined,
      ...(env === undefined ? {} : { environment: env }),
    };
    const planned = await this.plan(connection, await sources.read(uris), files);
    if (planned === undefined) return;
    const { plan, notes } = planned;
    this.deps.feedback.log.info(
      `apply: planned ${plan.changes.length} changes to ${visible(name)} ` +
        `(${plan.blocked.length} blocked, ${plan.unchanged} unchanged)`,
    );
    if (plan.changes.length === 0 && plan.blocked.length === 0 && !this.deps.view.isOpen()) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Nothing to change on {0}: the service matches the files.', visible(name)),
      );
      return;
    }
    const reviewed = {
      plan,
      notes,
      recipients: this.deps.recipients?.(connection.profile.id),
      idsIgnored: files.idsIgnored,
      production: looksLikeProduction(name),
      ...(environment === undefined
        ? {}
        : { environment: { name: environment.name, file: environment.file, home: environment.overlay === undefined } }),
    };
    const session = new PlanSession(++this.reviews, reviewed, leftOut);
    this.shown?.session.end('replaced', vscode.l10n.t('Nothing was written: a newer plan took the place of this one.'));
    // Planned again from the view, the same files against the same connection, with the same changes left out.
    const again = async (): Promise<void> => {
      const envNow = env && environmentNow(this.deps.environments, env);
      if (env !== undefined && envNow === undefined) {
        void vscode.window.showErrorMessage(environmentGone(env));
        return;
      }
      await this.planAndReview(
        await this.deps.connections.connectionFor(connection.profile.id),
        target,
        session.leftOut,
        envNow,
      );
    };
    this.shown = { session, sources, again };
    // Nothing to decide: the view says why (every change blocked, or nothing to change), and Plan Again is there.
    if (plan.changes.length === 0) session.notApplied(nothingText(plan));
    this.deps.view.show(session.model(), true);
    if (plan.changes.length === 0) return;
    const decision = await session.decision;
    if (decision.kind === 'apply') return this.applyReviewed(connection, session, files, decision.excluded);
    this.deps.feedback.log.info(`apply: not confirmed (${decision.kind}); nothing written to ${visible(name)}`);
    if (decision.kind === 'cancel')
      this.update(session, () => session.notApplied(vscode.l10n.t('Cancelled: nothing was written to {0}.', name)));
  }

  /** Applies the reviewed plan less the changes left out, under the service's apply lock. */
  private async applyReviewed(
    connection: ApplyConnection,
    session: PlanSession,
    files: PlannedTarget,
    excluded: ReadonlySet<string>,
  ): Promise<void> {
    const name = connection.profile.name;
    const held = this.deps.locks.take(connection.profile.baseUrl, vscode.l10n.t("the editor's Apply"));
    if ('heldBy' in held) {
      this.update(session, () =>
        session.notApplied(
          vscode.l10n.t(
            'Nothing was written: an apply to {0} is already running ({1}). Plan again when it is done.',
            name,
            held.heldBy,
          ),
        ),
      );
      return;
    }
    this.writing = name;
    try {
      this.update(session, () => session.applying(vscode.l10n.t('Planning again against {0}…', name)));
      // What was shown is a record of what the user agreed to, not what is written: plan again now, and write
      // only the changes kept when they are the same as shown.
      // An environment is read again from its file: its overlay as it is now is what the writes would carry.
      const planned = files.environment;
      const envNow = planned && environmentNow(this.deps.environments, planned);
      if (planned !== undefined && envNow === undefined) {
        this.update(session, () => session.notApplied(environmentGone(planned)));
        return;
      }
      const read = await files.sources.read(files.uris);
      const again = await this.plan(connection, read, {
        ...files,
        ...(envNow === undefined ? {} : { environment: envNow }),
      });
      if (again === undefined) {
        this.update(session, () =>
          session.notApplied(
            vscode.l10n.t('Nothing was written to {0}: planning again was cancelled or failed.', name),
          ),
        );
        return;
      }
      const reviewed = withoutChanges(session.reviewed.plan, excluded);
      const now = withoutChanges(again.plan, excluded);
      const differences = planDifferences(reviewed, now);
      if (differences.length > 0) {
        this.deps.feedback.log.info(
          visible(`apply: not written to ${name}: the plan changed since it was shown: ${differences.join('; ')}`),
        );
        const text = vscode.l10n.t(
          'Nothing was written to {0}: the files or the service changed since the plan was shown. Plan again to see the new plan.',
          name,
        );
        this.update(session, () => session.notApplied(text, differences));
        return;
      }
      const results = await this.write(connection, now, files, session);
      if (results === undefined)
        this.update(session, () =>
          session.notApplied(
            vscode.l10n.t(
              'The apply to {0} was cancelled or failed before any outcome was known; plan again to see what the service holds.',
              name,
            ),
          ),
        );
      else this.update(session, () => session.applied(results));
    } finally {
      this.writing = undefined;
      held.release();
    }
  }

  /** Changes a session's state and draws it, while it is the one the view shows. */
  private update(session: PlanSession, change: () => void): void {
    change();
    if (this.shown?.session === session && this.deps.view.isOpen()) this.deps.view.show(session.model(), false);
  }

  private async receive(m: PlanFromWebview): Promise<void> {
    const shown = this.shown;
    if (shown === undefined) return;
    const effect = shown.session.receive(m);
    switch (effect.kind) {
      case 'redraw':
        this.deps.view.show(shown.session.model(), false);
        return;
      case 'refused':
        this.deps.feedback.log.warn(`plan view: refused ${effect.logLine}`);
        return;
      case 'open':
        return this.open(shown.sources, effect.change);
      case 'compare': {
        const uri = shown.sources.uriOf(effect.change.file);
        if (uri !== undefined)
          await this.deps.compare({ uri: uri.toString(), index: effect.change.index }, this.deps.view.besideColumn());
        return;
      }
      case 'planAgain':
        return shown.again();
      case 'none':
        return;
    }
  }

  /** Opens a change's file beside the view, or for a delete the service's version of its trigger. */
  private async open(sources: Sources, change: PlannedChange): Promise<void> {
    const column = this.deps.view.besideColumn();
    if (change.action === 'delete') return this.deps.openServiceTrigger(change.id, column);
    const uri = sources.uriOf(change.file);
    if (uri !== undefined) await vscode.window.showTextDocument(uri, { viewColumn: column, preview: true });
  }

  private closed(): void {
    const shown = this.shown;
    this.shown = undefined;
    shown?.session.end('closed', vscode.l10n.t('Nothing was written: the plan view was closed.'));
  }

  /** The plan under cancellable progress; undefined when cancelled or failed (a failure is shown). */
  private plan(
    connection: ApplyConnection,
    files: SourceFile[],
    { scope, idsIgnored, environment }: PlannedTarget,
  ): Promise<ConnectionPlan | undefined> {
    const name = connection.profile.name;
    return this.deps.feedback.runWithProgress(
      vscode.l10n.t('Planning the trigger files against {0}', name),
      async (signal, report) => {
        try {
          return await planForConnection({
            files,
            client: connection.client,
            connection: { name, baseUrl: connection.profile.baseUrl },
            scope,
            idsIgnored,
            ...(environment === undefined ? {} : { environment: environment.plan }),
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
      },
    );
  }

  /** Writes the changes one at a time (each step said in the view too): the outcomes, or undefined on a failure. */
  private async write(
    connection: ApplyConnection,
    plan: Plan,
    { sources, idsIgnored, environment }: PlannedTarget,
    session: PlanSession,
  ): Promise<ChangeResult[] | undefined> {
    const name = connection.profile.name;
    let results: ChangeResult[] | undefined;
    try {
      results = await this.deps.feedback.runWithProgress(
        vscode.l10n.t('Applying the plan to {0}', name),
        (signal, report) => {
          const say = (text: string): void => {
            report(text);
            this.update(session, () => session.applying(text));
          };
          const pool = new PacedPool({
            concurrency: 1,
            onPause: (ms) => say(vscode.l10n.t("Waiting {0} s for the service's rate limit", Math.ceil(ms / 1000))),
          });
          return applyChanges(plan.changes, pacedWriter(connection.client, pool), {
            signal,
            onChange: (done, total, change) =>
              say(visible(vscode.l10n.t('{0} of {1}: {2}', done + 1, total, changeLabel(change)))),
            // A file holds the active connection's ids: another connection's id is said, not written over them.
            onCreated: idsIgnored
              ? idNotWritten(environment === undefined ? 'active' : 'home')
              : idWriter(plan, { state: (f) => sources.state(f), editAndSave: (f, e) => sources.editAndSave(f, e) }),
          });
        },
      );
    } finally {
      // Whatever was written, the lists of the connection are read again.
      this.deps.onWritten(connection.profile.id);
    }
    const log = this.deps.feedback.log;
    for (const r of results ?? []) {
      const why = r.outcome === 'applied' ? (r.note === undefined ? '' : `; ${r.note}`) : `: ${r.reason}`;
      log.info(visible(`apply to ${name}: ${r.outcome} ${r.change.action} ${changeLabel(r.change)}${why}`));
    }
    return results;
  }
}
