// obs_apply_plan: applies a plan obs_plan made, exactly, once, after the user confirmed it. The question (VS
// Code asks it from prepareInvocation, before invoke runs) names the connection and shows every change in the
// editor's own plan text. invoke then writes only that plan, only to the connection it was made against, only
// while its files are as planned; each trigger is read again before it is written and skipped if it changed
// (triggerFiles/apply.ts), and a created trigger's id goes into its file as the editor's Apply does it.
// No vscode import.
import * as l10n from '@vscode/l10n';
import { answerText, APPLY_TOOL_NAME, clip, defined, firstOf, LIMITS, parseInput, ToolError } from '../../agentTools';
import { applyChanges, differenceText, PacedPool, type ChangeResult, type Plan } from '../../triggerFiles';
import { looksLikeProduction, type ActiveConnection } from '../connections';
import type { Logger } from '../core/logger';
import type { RecipientDirectory } from '../core/recipients';
import { changedSincePlan, confirmation, idWriter, pacedWriter, planCountsText, planDocumentText, type IdDocuments } from '../sync';
import type { PlanStore, StoredPlan } from './planStore';
import { applyQuestion, type ApplyQuestion } from './toolText';

/** The files of a plan as the editor holds them: their texts now, and the id write-back's edits. */
export interface PlanSources extends IdDocuments {
  current(files: readonly string[]): Promise<Map<string, string | undefined>>;
}

export interface Preparation {
  invocationMessage: string;
  /** Present when invoking would write: the question the user answers first. */
  confirmation?: ApplyQuestion;
}

/** The plan as the editor's Apply shows it, named by the connection it was made against. */
const named = (stored: StoredPlan<unknown>): Plan => ({ ...stored.plan, target: { ...stored.plan.target, connection: stored.connectionName } });

/**
 * What VS Code shows before an apply: the question with every change when the plan exists and belongs to the
 * active connection; otherwise no question, since invoke then writes nothing and says why. `recipients`, the
 * active connection's when listed, names the recipients of a difference as the editor's Apply does.
 */
export function applyPreparation(input: unknown, plans: PlanStore<PlanSources>, activeId: string | undefined, recipients?: RecipientDirectory): Preparation {
  const parsed = parseInput(APPLY_TOOL_NAME, input);
  const stored = parsed.ok ? plans.peek(parsed.value.plan_id) : undefined;
  if (stored === undefined) return { invocationMessage: l10n.t('Checking the plan to apply') };
  // Said anew at each preparation: an invocation that put no question writes nothing, even when the plan's
  // connection is active again by the time VS Code calls invoke.
  plans.markAsked(stored.id, stored.connectionId === activeId);
  if (stored.connectionId !== activeId) return { invocationMessage: l10n.t('Checking the plan to apply') };
  const plan = named(stored);
  const q = confirmation(plan, looksLikeProduction(stored.connectionName));
  const detail = l10n.t(
    '{0} ({1}). Each trigger is read again just before it is written and skipped if it changed since the plan. Nothing is written unless you continue.',
    planCountsText(plan),
    plan.target.baseUrl,
  );
  return {
    invocationMessage: l10n.t('Applying the plan to {0}', stored.connectionName),
    confirmation: applyQuestion({ message: q.message, detail }, planDocumentText(plan, stored.notes, recipients)),
  };
}

function resultSummary(r: ChangeResult): Record<string, unknown> {
  const c = r.change;
  const base = { action: c.action, dataset: c.dataset, name: c.name, outcome: r.outcome };
  if (r.outcome === 'applied') {
    return defined({ ...base, id: r.id, note: clip(r.note), stored_differently: r.storedDifferently.length === 0 ? undefined : r.storedDifferently.slice(0, LIMITS.differences).map((d) => differenceText(d, 120)) });
  }
  if (r.outcome === 'unverified') return defined({ ...base, id: r.id, reason: clip(r.reason, 500) });
  return defined({ ...base, id: c.action === 'create' ? undefined : c.id, reason: clip(r.reason, 500), members: r.outcome === 'refused' ? r.members.slice(0, 10).map((m) => `${m.field}: ${clip(m.message, 200) ?? ''}`) : undefined });
}

export interface ApplyDeps {
  plans: PlanStore<PlanSources>;
  /** The connection active when the tool was invoked. */
  active: ActiveConnection | undefined;
  onWritten(connectionId: string): void;
  log: Logger;
}

/** Applies the confirmed plan; answers bounded JSON of each change's outcome. Throws a ToolError when nothing was written. */
export async function runApply(input: unknown, deps: ApplyDeps, signal: AbortSignal): Promise<string> {
  const parsed = parseInput(APPLY_TOOL_NAME, input);
  if (!parsed.ok) throw new ToolError(parsed.error);
  const found = deps.plans.peek(parsed.value.plan_id);
  if (found === undefined) throw new ToolError(l10n.t('nothing was written: there is no plan {0} (it was applied already, is older than 30 minutes, or was never made); call obs_plan again', JSON.stringify(parsed.value.plan_id)));
  if (!found.asked) {
    throw new ToolError(l10n.t('nothing was written: the user was not asked to confirm plan {0} (the question is put only while the connection it was made against is active); call obs_apply_plan again', JSON.stringify(parsed.value.plan_id)));
  }
  // Taken now: a plan is applied at most once.
  deps.plans.take(found.id);
  const stored = found;
  const active = deps.active;
  if (active === undefined || active.profile.id !== stored.connectionId) {
    throw new ToolError(l10n.t('nothing was written: the plan was made against {0}, which is not the active connection now; call obs_plan again', stored.connectionName));
  }
  const sources = stored.sources;
  const plan = named(stored);
  const touched = [...new Set(plan.changes.flatMap((c) => (c.action === 'delete' ? [] : [c.file])))];
  const changed = changedSincePlan(plan, await sources.current(touched));
  if (changed.length > 0) throw new ToolError(l10n.t('nothing was written: {0} changed since the plan; call obs_plan again', changed.slice(0, 5).join(', ')));
  let results: ChangeResult[];
  try {
    results = await applyChanges(plan.changes, pacedWriter(active.client, new PacedPool({ concurrency: 1 })), { signal, onCreated: idWriter(plan, sources) });
  } finally {
    deps.onWritten(stored.connectionId);
  }
  const count = (o: ChangeResult['outcome']) => results.filter((r) => r.outcome === o).length;
  deps.log.info(`agent apply to ${stored.connectionName}: ${count('applied')} applied, ${count('skipped')} skipped, ${count('refused')} refused, ${count('failed')} failed, ${count('unverified')} written but not verified`);
  const shown = firstOf(results, LIMITS.planEntries);
  return answerText({
    target: stored.connectionName,
    counts: { applied: count('applied'), skipped: count('skipped'), refused: count('refused'), failed: count('failed'), written_not_verified: count('unverified') },
    results: shown.items.map(resultSummary),
    results_truncated: shown.truncated,
    blocked_not_written: plan.blocked.length,
  });
}
