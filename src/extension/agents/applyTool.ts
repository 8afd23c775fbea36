// obs_apply_plan: applies a plan obs_plan made, once, after the user confirmed it in the extension's own modal
// dialog. VS Code's chat confirmation (from prepareInvocation) shows the plan too, but settings such as "Always
// allow" or auto-approve skip it, so it is never what lets a write through. invoke writes only while the
// connection is the one the plan was made against, at the same address and with the same key; it takes the
// service's apply lock (one apply at a time, the editor's included), asks, plans again with the same
// pipeline and writes only when the changes planned now are the ones shown. Each trigger is read again just
// before it is written (triggerFiles/apply.ts), and a created trigger's id goes into its file as the editor's
// Apply does it. No vscode import.
import * as l10n from '@vscode/l10n';
import {
  answerText,
  APPLY_TOOL_NAME,
  clip,
  clipName,
  defined,
  firstOf,
  LIMITS,
  parseInput,
  ToolError,
  type PlanWithNotes,
  type SourceFile,
} from '../../agentTools';
import {
  applyChanges,
  differenceText,
  PacedPool,
  planDifferences,
  type ChangeResult,
  type Plan,
  type PlanKind,
  type PlannedChange,
} from '../../triggerFiles';
import { connectionLabel, looksLikeProduction, type ActiveConnection, type ConnectionProfile } from '../connections';
import type { ApplyLocks } from '../core/applyLocks';
import type { Logger } from '../core/logger';
import type { RecipientDirectory } from '../core/recipients';
import { capText } from '../core/text';
import {
  changeLabel,
  confirmation,
  idNotWritten,
  idWriter,
  pacedWriter,
  planCountsText,
  planDocumentText,
  visible,
  type IdDocuments,
  type WritingClient,
} from '../sync';
import type { PlanStore, StoredPlan } from './planStore';
import { applyQuestion, type ApplyQuestion } from './toolText';

/** The files of a plan as the editor holds them: read again for the apply, and the id write-back's edits. */
export interface PlanSources extends IdDocuments {
  /** The plan's files read again, as obs_plan read them (a file with unsaved edits is left out with the reason). */
  readAgain(signal: AbortSignal): Promise<SourceFile[]>;
}

const SIGN: Record<PlannedChange['action'], string> = { create: '+', update: '~', delete: '-' };

/** How many changes the dialog names before it points to the plan beside. */
const NAMED_CHANGES = 20;

/** The plan as the editor's Apply shows it, named by the connection it was made against. */
const named = (stored: StoredPlan<unknown>): Plan => ({
  ...stored.plan,
  target: { ...stored.plan.target, connection: stored.connection.name },
});

/**
 * What VS Code shows before an apply, in the chat: the plan's first lines when it exists, and past them a link
 * made by `documentLink` from the plan's id (a command that opens the whole plan). Nothing is decided by it,
 * and nothing is done: VS Code asks a preparation to have no side effect.
 */
export function applyPreparation(
  input: unknown,
  plans: PlanStore<PlanSources>,
  recipients?: RecipientDirectory,
  documentLink?: (planId: string) => string,
): { invocationMessage: string; confirmation?: ApplyQuestion } {
  const parsed = parseInput(APPLY_TOOL_NAME, input);
  const stored = parsed.ok ? plans.peek(parsed.value.plan_id) : undefined;
  if (stored === undefined) return { invocationMessage: l10n.t('Checking the plan to apply') };
  const plan = named(stored);
  const q = confirmation(plan, looksLikeProduction(stored.connection.name));
  const detail = l10n.t(
    '{0} ({1}). The extension asks you again in a dialog of its own before anything is written.',
    planCountsText(plan),
    plan.target.baseUrl,
  );
  return {
    invocationMessage: l10n.t('Applying the plan to {0}', connectionLabel(stored.connection.name)),
    confirmation: applyQuestion(
      { message: q.message, detail },
      planDocumentOf(stored, recipients),
      documentLink?.(stored.id),
    ),
  };
}

/** The whole plan of a kept plan, as the editor's Apply shows it. */
export function planDocumentOf(stored: StoredPlan<unknown>, recipients?: RecipientDirectory): string {
  return planDocumentText(named(stored), stored.notes, recipients);
}

/** The kinds in the order the plan view and the plan document show them: triggers, burn alerts, definitions. */
const KINDS: readonly PlanKind[] = ['trigger', 'burn-alert', 'definitions'];

/** The heading of a kind's changes in the dialog; the triggers' come first and need none. */
const kindHeading = (kind: Exclude<PlanKind, 'trigger'>): string =>
  kind === 'burn-alert' ? l10n.t('Burn alerts to update:') : l10n.t('Definitions to update:');

/** The first NAMED_CHANGES changes, grouped by kind as the plan view groups them, and how many are named. */
function namedChanges(changes: readonly PlannedChange[]): { lines: string[]; named: number } {
  const lines: string[] = [];
  let named = 0;
  for (const kind of KINDS) {
    const of = changes.filter((c) => c.kind === kind).slice(0, NAMED_CHANGES - named);
    if (of.length === 0) continue;
    named += of.length;
    if (kind !== 'trigger') lines.push(kindHeading(kind));
    // Each label cuts a long name itself, saying how long it was.
    lines.push(...of.map((c) => `${SIGN[c.action]} ${changeLabel(c)}`));
  }
  return { lines, named };
}

/** The extension's own question: the connection, its address, the counts and each change (the first ones), the whole plan beside. */
export interface AgentQuestion {
  message: string;
  detail: string;
  button: string;
  /** The plan document shown beside the dialog. */
  document: string;
  /** Set for a connection that looks like production: after the dialog's yes, its name is typed to apply. */
  typeName?: string;
}

export function agentQuestion(
  plan: Plan,
  notes: readonly string[],
  recipients: RecipientDirectory | undefined,
): AgentQuestion {
  const connection = plan.target.connection ?? plan.target.baseUrl;
  const q = confirmation(plan, looksLikeProduction(connection));
  const { lines: shown, named: count } = namedChanges(plan.changes);
  const more = plan.changes.length - count;
  const lines = [
    l10n.t('An AI agent asked to apply this plan to {0} ({1}).', connection, plan.target.baseUrl),
    q.detail,
    '',
    ...shown,
    ...(more > 0 ? [l10n.t('and {0} more changes: every one is in the plan beside', more)] : []),
  ];
  // Names come from files an agent may have written: hidden characters (a line separator, a bidi override)
  // are written as visible escapes, so no name can add a line to the question or reorder it.
  const production = looksLikeProduction(connection) ? { typeName: connection } : {};
  return {
    message: q.message,
    detail: lines.map(visible).join('\n'),
    button: q.button,
    document: planDocumentText(plan, notes, recipients),
    ...production,
  };
}

function resultSummary(r: ChangeResult): Record<string, unknown> {
  const c = r.change;
  const base = { action: c.action, dataset: c.dataset, name: clipName(c.name), outcome: r.outcome };
  if (r.outcome === 'applied') {
    return defined({
      ...base,
      id: r.id,
      note: clip(r.note),
      stored_differently:
        r.storedDifferently.length === 0
          ? undefined
          : r.storedDifferently.slice(0, LIMITS.differences).map((d) => differenceText(d, 120)),
    });
  }
  if (r.outcome === 'unverified') return defined({ ...base, id: r.id, reason: clip(r.reason, 500) });
  return defined({
    ...base,
    id: c.action === 'create' ? undefined : c.id,
    reason: clip(r.reason, 500),
    members:
      r.outcome === 'refused'
        ? r.members.slice(0, 10).map((m) => `${m.field}: ${clip(m.message, 200) ?? ''}`)
        : undefined,
  });
}

/** What an apply uses of the active connection: its id, name and address, and its client, which writes. */
export interface AppliedConnection {
  profile: Pick<ConnectionProfile, 'id' | 'name' | 'baseUrl'>;
  client: WritingClient;
}

/** An apply's dependencies; `replan` is handed the active connection as it was given (the editor's: an ActiveConnection). */
export interface ApplyDeps<C extends AppliedConnection = ActiveConnection> {
  plans: PlanStore<PlanSources>;
  /** The connection active when the tool was invoked. */
  active: C | undefined;
  /** One apply at a time per service, the editor's Apply included. */
  locks: ApplyLocks;
  /** The extension's own modal question, the plan shown beside: true only when the user chose to apply. */
  confirm(question: AgentQuestion): Promise<boolean>;
  /** The plan made again now, with the same pipeline, of the files read again. */
  replan(connection: C, files: readonly SourceFile[], prune: boolean, signal: AbortSignal): Promise<PlanWithNotes>;
  /** The connection's recipients when listed: the plan names the recipients of a difference with them. */
  recipients(): RecipientDirectory | undefined;
  onWritten(connectionId: string): void;
  /**
   * The plan was written: the plan document beside, its last line now the outcomes (no longer "nothing is
   * written").
   */
  onApplied?(document: string): void;
  log: Logger;
}

/** The kept plan, taken (applied at most once), when the active connection is still the one it was made against. */
function takePlan<C extends AppliedConnection>(
  input: unknown,
  deps: ApplyDeps<C>,
): { stored: StoredPlan<PlanSources>; active: C } {
  const parsed = parseInput(APPLY_TOOL_NAME, input);
  if (!parsed.ok) throw new ToolError(parsed.reason);
  const stored = deps.plans.take(parsed.value.plan_id);
  if (stored === undefined)
    throw new ToolError(
      l10n.t(
        'nothing was written: there is no plan {0} (it was applied already, is older than 30 minutes, or was never made); call obs_plan again',
        JSON.stringify(parsed.value.plan_id),
      ),
    );
  const active = deps.active;
  if (active === undefined || active.profile.id !== stored.connection.id) {
    throw new ToolError(
      l10n.t(
        'nothing was written: the plan was made against {0}, which is not the active connection now; call obs_plan again',
        connectionLabel(stored.connection.name),
      ),
    );
  }
  if (active.profile.baseUrl !== stored.connection.baseUrl || active.client !== stored.connection.client) {
    throw new ToolError(
      l10n.t(
        "nothing was written: {0}'s address, key or proxy changed since the plan was made; call obs_plan again",
        connectionLabel(stored.connection.name),
      ),
    );
  }
  return { stored, active };
}

/** Applies a plan the user confirmed in the extension's own dialog; answers bounded JSON of each change's outcome. Throws a ToolError when nothing was written. */
export async function runApply<C extends AppliedConnection>(
  input: unknown,
  deps: ApplyDeps<C>,
  signal: AbortSignal,
): Promise<string> {
  const { stored, active } = takePlan(input, deps);
  const held = deps.locks.take(stored.connection.baseUrl, l10n.t("an agent's apply"));
  if ('heldBy' in held)
    throw new ToolError(
      l10n.t(
        'nothing was written: an apply to {0} is already running ({1}); try again when it is done',
        stored.connection.name,
        held.heldBy,
      ),
    );
  try {
    const shown = named(stored);
    if (!(await deps.confirm(agentQuestion(shown, stored.notes, deps.recipients()))))
      throw new ToolError(l10n.t('nothing was written: the user did not confirm the apply'));
    const again = await deps.replan(active, await stored.sources.readAgain(signal), shown.prune, signal);
    const differences = planDifferences(shown, again.plan);
    if (differences.length > 0) {
      const listed = differences
        .slice(0, 5)
        .map((d) => capText(d, 1_000))
        .join('; ');
      throw new ToolError(
        l10n.t(
          'nothing was written: the files or the service changed since the plan ({0}); call obs_plan again',
          listed,
        ),
      );
    }
    return await write({ ...again.plan, target: shown.target }, stored, active, deps, signal);
  } finally {
    held.release();
  }
}

async function write<C extends AppliedConnection>(
  plan: Plan,
  stored: StoredPlan<PlanSources>,
  active: C,
  deps: ApplyDeps<C>,
  signal: AbortSignal,
): Promise<string> {
  let results: ChangeResult[];
  try {
    results = await applyChanges(plan.changes, pacedWriter(active.client, new PacedPool({ concurrency: 1 })), {
      signal,
      // Matched by name (an environment other than the home one), the files' ids are the home's: none is written.
      onCreated: plan.inputs.matchByName ? idNotWritten('home') : idWriter(plan, stored.sources),
    });
  } finally {
    deps.onWritten(stored.connection.id);
  }
  deps.onApplied?.(planDocumentText(plan, stored.notes, deps.recipients(), false, results));
  const count = (o: ChangeResult['outcome']) => results.filter((r) => r.outcome === o).length;
  deps.log.info(
    `agent apply to ${stored.connection.name}: ${count('applied')} applied, ${count('skipped')} skipped, ${count('refused')} refused, ${count('failed')} failed, ${count('unknown')} unknown, ${count('unverified')} written but not verified`,
  );
  const shown = firstOf(results, LIMITS.planEntries);
  return answerText({
    target: stored.connection.name,
    counts: {
      applied: count('applied'),
      skipped: count('skipped'),
      refused: count('refused'),
      failed: count('failed'),
      outcome_unknown: count('unknown'),
      written_not_verified: count('unverified'),
    },
    results: shown.items.map(resultSummary),
    results_truncated: shown.truncated,
    blocked_not_written: plan.blocked.length,
  });
}
