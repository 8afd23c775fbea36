// Applying a plan: one change at a time, each checked against the service right before it is written
// (the service has no conditional write), then read back. A change whose trigger changed since the plan
// is skipped, never written over; a refusal is reported with the service's words; the other changes go
// on. No vscode import.
import { asServiceError } from '../api/errors';
import { causeOf, type ChangeResult, type FailureCause } from './applyResult';
import { datasetOf, type ServiceTrigger } from './drift';
import { listingSegment } from './listing';
import { canonicalDatasetSlug } from './normalize';
import { storedDifferently, unchangedSince, type PlannedChange, type TriggerChange } from './plan';
import type { BurnAlertWriter } from './sloApply';
import { applySloUpdate } from './sloApply';
import { PullCancelled } from './pool';
import type { Outcome } from '../result';

export type { ChangeResult, FailureCause } from './applyResult';

/** The calls an apply makes (the client's ServiceClient satisfies it). */
export interface TriggerWriter extends BurnAlertWriter {
  getTrigger(dataset: string, id: string, o?: { signal?: AbortSignal }): Promise<{ data: ServiceTrigger }>;
  listTriggers(dataset: string, o?: { signal?: AbortSignal }): Promise<{ data: ServiceTrigger[] }>;
  createTrigger(
    dataset: string,
    body: Record<string, unknown>,
    o?: { signal?: AbortSignal; knownIds?: ReadonlySet<string> },
  ): Promise<{ data: ServiceTrigger; recovered?: true }>;
  replaceTrigger(
    dataset: string,
    id: string,
    body: Record<string, unknown> & { disabled: boolean },
    o?: { signal?: AbortSignal },
  ): Promise<{ data: ServiceTrigger }>;
  deleteTrigger(dataset: string, id: string, o?: { signal?: AbortSignal }): Promise<unknown>;
}

export interface ApplyChangesOptions {
  /** Cancels: the changes not begun are skipped, and a write in flight is given up (it may have been made). */
  signal?: AbortSignal;
  /** Stops between changes: the change in flight finishes (a create's id is kept), the rest are skipped. */
  stop?: AbortSignal;
  /** Called before each change (progress). */
  onChange?: (done: number, total: number, change: PlannedChange) => void;
  /** A create succeeded: write its new id into the file. Answers a note when that could not be done. */
  onCreated?: (change: Extract<TriggerChange, { action: 'create' }>, id: string) => Promise<string | undefined>;
}

/** Creates first, then updates, then deletes: a delete never goes before the changes that replace it. */
const ORDER: Record<PlannedChange['action'], number> = { create: 0, update: 1, delete: 2 };

/** How often an update whose answer was lost is sent again, each time only after reading that nothing changed. */
const LOST_ANSWER_RESENDS = 2;

export async function applyChanges(
  changes: readonly PlannedChange[],
  writer: TriggerWriter,
  o: ApplyChangesOptions = {},
): Promise<ChangeResult[]> {
  const ordered = [...changes].sort((a, b) => ORDER[a.action] - ORDER[b.action]);
  const results: ChangeResult[] = [];
  // A dataset whose create or update was not made keeps its deletes: the trigger to delete may be that one, renamed.
  const unfinished = new Set<string>();
  for (const [i, change] of ordered.entries()) {
    if (o.signal?.aborted === true || o.stop?.aborted === true) {
      results.push({
        change,
        outcome: 'skipped',
        reason: o.stop?.aborted === true ? 'the apply was stopped before it' : 'the apply was cancelled before it',
      });
      continue;
    }
    const dataset = canonicalDatasetSlug(change.dataset);
    if (change.action === 'delete' && unfinished.has(dataset)) {
      results.push({
        change,
        outcome: 'skipped',
        reason: `not deleted: a create or update of ${dataset} was not applied, and this trigger may be that one, renamed`,
      });
      continue;
    }
    o.onChange?.(i, ordered.length, change);
    const result = await applyOne(change, writer, o);
    if (change.kind === 'trigger' && change.action !== 'delete' && result.outcome !== 'applied')
      unfinished.add(dataset);
    results.push(result);
  }
  return results;
}

async function applyOne(change: PlannedChange, writer: TriggerWriter, o: ApplyChangesOptions): Promise<ChangeResult> {
  try {
    if (change.kind !== 'trigger') return await applySloUpdate(change, writer, o.signal);
    if (change.action === 'create') return await create(change, writer, o);
    if (change.action === 'update') return await update(change, writer, o.signal);
    return await remove(change, writer, o.signal);
  } catch (e) {
    return failure(change, e);
  }
}

const signalOf = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

const isGone = (e: unknown) => asServiceError(e)?.status === 404;

async function create(
  change: Extract<TriggerChange, { action: 'create' }>,
  writer: TriggerWriter,
  o: ApplyChangesOptions,
): Promise<ChangeResult> {
  const segment = listingSegment(change.dataset);
  const listed = (await writer.listTriggers(segment, signalOf(o.signal))).data;
  const taken = listed.find((t) => t.name === change.name);
  if (taken !== undefined)
    return {
      change,
      outcome: 'skipped',
      reason: `a trigger named ${JSON.stringify(change.name)} (${taken.id}) was created on the service since the plan`,
    };
  const created = await writer.createTrigger(segment, change.body, {
    ...signalOf(o.signal),
    knownIds: new Set(listed.map((t) => t.id)),
  });
  const id = created.data.id;
  const note = await o.onCreated?.(change, id);
  const recovered =
    created.recovered === true ? 'its answer was lost; it was found on the service and not created again' : undefined;
  const notes = [recovered, note].filter((n): n is string => n !== undefined);
  const back = await readBack(writer, segment, id, o.signal);
  if (!back.ok) return unverified(change, id, back.reason, notes);
  return {
    change,
    outcome: 'applied',
    id,
    storedDifferently: storedDifferently(change.body, change.dataset, back.trigger),
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
}

/**
 * The trigger as the service holds it right after a write, or why it could not be read. The write is made
 * by then: a failure here must not be reported as the write's (a 404 read as a refusal, a 503 as a write
 * that may not have happened).
 */
async function readBack(
  writer: TriggerWriter,
  segment: string,
  id: string,
  signal: AbortSignal | undefined,
): Promise<Outcome<{ trigger: ServiceTrigger }, ReadBackFailure>> {
  try {
    return { ok: true, trigger: (await writer.getTrigger(segment, id, signalOf(signal))).data };
  } catch (e) {
    if (e instanceof PullCancelled)
      return {
        ok: false,
        reason: { text: 'the apply was cancelled before it was read back', cause: { kind: 'aborted' } },
      };
    return {
      ok: false,
      reason: { text: asServiceError(e)?.message ?? (e instanceof Error ? e.message : String(e)), cause: causeOf(e) },
    };
  }
}

/** Why a trigger written could not be read back: the client's message (for the log and the CLI), and its cause. */
interface ReadBackFailure {
  text: string;
  cause: FailureCause;
}

/** A write that was made but not read back: said as such, never as a refusal or a write that may not have happened. */
function unverified(
  change: PlannedChange,
  id: string,
  back: ReadBackFailure,
  notes: readonly string[] = [],
): ChangeResult {
  const reason = [
    `reading it back failed (${back.text}), so what the service stored is not known; plan again to compare`,
    ...notes,
  ].join('; ');
  return { change, outcome: 'unverified', id, reason, cause: back.cause };
}

/** Why the trigger read now is not the one the change names (another id, or by name another name or dataset), or undefined. */
function notTheOne(
  change: Extract<TriggerChange, { action: 'update' | 'delete' }>,
  now: ServiceTrigger,
): string | undefined {
  const named = `${JSON.stringify(change.name)} (${change.id})`;
  if (now.id !== change.id) return `the service answered trigger ${now.id} for ${named}: nothing was written`;
  if (
    change.action === 'update' &&
    change.matchedBy === 'name' &&
    (now.name !== change.name || datasetOf(now, change.dataset) !== canonicalDatasetSlug(change.dataset))
  ) {
    return `${named} is now ${JSON.stringify(now.name)} of ${datasetOf(now, change.dataset)}, not the trigger the file names: nothing was written`;
  }
  return undefined;
}

/** The trigger as it is now, or why the change must not be written over it. */
async function current(
  change: Extract<TriggerChange, { action: 'update' | 'delete' }>,
  writer: TriggerWriter,
  signal: AbortSignal | undefined,
): Promise<Outcome<{ now: ServiceTrigger }>> {
  let now: ServiceTrigger;
  try {
    now = (await writer.getTrigger(listingSegment(change.dataset), change.id, signalOf(signal))).data;
  } catch (e) {
    if (isGone(e))
      return {
        ok: false,
        reason: `${JSON.stringify(change.name)} (${change.id}) was deleted on the service since the plan`,
      };
    throw e;
  }
  const other = notTheOne(change, now);
  if (other !== undefined) return { ok: false, reason: other };
  if (unchangedSince(change.service, now)) return { ok: true, now };
  const when = typeof now.updated_at === 'string' ? ` (updated ${now.updated_at})` : '';
  return {
    ok: false,
    reason: `${JSON.stringify(change.name)} (${change.id}) changed on the service since the plan${when}; plan again to see the change`,
  };
}

async function update(
  change: Extract<TriggerChange, { action: 'update' }>,
  writer: TriggerWriter,
  signal: AbortSignal | undefined,
): Promise<ChangeResult> {
  const found = await current(change, writer, signal);
  if (!found.ok) return { change, outcome: 'skipped', reason: found.reason };
  const segment = listingSegment(change.dataset);
  const sent = await replace(change, writer, signal);
  if (sent !== undefined) return sent;
  const back = await readBack(writer, segment, change.id, signal);
  if (!back.ok) return unverified(change, change.id, back.reason);
  return {
    change,
    outcome: 'applied',
    id: change.id,
    storedDifferently: storedDifferently(change.body, change.dataset, back.trigger),
  };
}

/**
 * Sends the replacement. The service has no conditional write, so a PUT whose answer was lost is never sent
 * again blindly (a change made meanwhile would be overwritten): the trigger is read first, and the PUT goes
 * again only while the trigger is still what the plan was made from. Answers undefined once sent, or the
 * result when the outcome is not a plain write.
 */
async function replace(
  change: Extract<TriggerChange, { action: 'update' }>,
  writer: TriggerWriter,
  signal: AbortSignal | undefined,
): Promise<ChangeResult | undefined> {
  const segment = listingSegment(change.dataset);
  const body = { ...change.body, disabled: change.body.disabled === true };
  for (let resend = 0; ; resend++) {
    try {
      await writer.replaceTrigger(segment, change.id, body, signalOf(signal));
      return undefined;
    } catch (e) {
      const se = asServiceError(e);
      if (se?.maybeProcessed !== true) throw e;
      const back = await readBack(writer, segment, change.id, signal);
      if (!back.ok) {
        const reason =
          `its answer was lost (${se.message}) and reading it failed (${back.reason.text}): ` +
          'plan again to see what the service holds';
        return { change, outcome: 'unknown', reason, cause: causeOf(e) };
      }
      if (storedDifferently(change.body, change.dataset, back.trigger).length === 0) return undefined;
      if (!unchangedSince(change.service, back.trigger) || resend >= LOST_ANSWER_RESENDS) {
        const reason =
          `its answer was lost (${se.message}), and the trigger now holds neither what was sent nor what the plan ` +
          'was made from: it changed on the service meanwhile, or the write was stored otherwise; nothing was sent ' +
          'again; plan again to see it';
        return { change, outcome: 'unknown', reason, cause: causeOf(e) };
      }
    }
  }
}

async function remove(
  change: Extract<TriggerChange, { action: 'delete' }>,
  writer: TriggerWriter,
  signal: AbortSignal | undefined,
): Promise<ChangeResult> {
  const found = await current(change, writer, signal);
  if (!found.ok) return { change, outcome: 'skipped', reason: found.reason };
  try {
    await writer.deleteTrigger(listingSegment(change.dataset), change.id, signalOf(signal));
  } catch (e) {
    // A retried DELETE whose first answer was lost finds it gone: it was deleted.
    if (!isGone(e)) throw e;
  }
  return { change, outcome: 'applied', id: change.id, storedDifferently: [] };
}

function failure(change: PlannedChange, e: unknown): ChangeResult {
  // A pacing pool given up while it waited: the call was never sent.
  if (e instanceof PullCancelled) return { change, outcome: 'skipped', reason: 'the apply was cancelled during it' };
  const se = asServiceError(e);
  const cause = causeOf(e);
  if (se === undefined) return { change, outcome: 'failed', reason: e instanceof Error ? e.message : String(e), cause };
  // A write cancelled in flight, or answered by a 5xx or not at all, may have been made: said, not hidden as skipped or failed.
  if (se.maybeProcessed === true) return { change, outcome: 'unknown', reason: se.message, cause };
  if (se.kind === 'aborted') return { change, outcome: 'skipped', reason: 'the apply was cancelled during it' };
  const members = se.fieldProblems.map((p) => ({ field: p.field, message: p.message }));
  const refused =
    (se.kind === 'http' && se.status !== undefined && se.status >= 400 && se.status < 500 && se.status !== 429) ||
    se.kind === 'request-validation';
  return refused
    ? { change, outcome: 'refused', reason: se.message, members, cause }
    : { change, outcome: 'failed', reason: se.message, cause };
}
