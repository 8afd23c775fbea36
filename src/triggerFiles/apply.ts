// Applying a plan: one change at a time, each checked against the service right before it is written
// (the service has no conditional write), then read back. A change whose trigger changed since the plan
// is skipped, never written over; a refusal is reported with the service's words; the other changes go
// on. No vscode import.
import { asServiceError } from '../api/errors';
import { sameJson, type Difference } from './compare';
import type { ServiceTrigger } from './drift';
import { listingSegment } from './listing';
import { storedDifferently, unchangedSince, type PlannedChange } from './plan';
import { PullCancelled } from './pool';

/** The calls an apply makes (the client's ServiceClient satisfies it). */
export interface TriggerWriter {
  getTrigger(dataset: string, id: string, o?: { signal?: AbortSignal }): Promise<{ data: ServiceTrigger }>;
  listTriggers(dataset: string, o?: { signal?: AbortSignal }): Promise<{ data: ServiceTrigger[] }>;
  createTrigger(dataset: string, body: Record<string, unknown>, o?: { signal?: AbortSignal; knownIds?: ReadonlySet<string> }): Promise<{ data: ServiceTrigger; recovered?: true }>;
  replaceTrigger(dataset: string, id: string, body: Record<string, unknown> & { disabled: boolean }, o?: { signal?: AbortSignal }): Promise<{ data: ServiceTrigger }>;
  deleteTrigger(dataset: string, id: string, o?: { signal?: AbortSignal }): Promise<unknown>;
}

export type ChangeResult =
  /** Written. `storedDifferently`: members the service then held otherwise than sent (its rewrites aside). */
  | { change: PlannedChange; outcome: 'applied'; id: string; storedDifferently: Difference[]; note?: string }
  /** Not written: the trigger changed on the service since the plan, or the apply was cancelled. */
  | { change: PlannedChange; outcome: 'skipped'; reason: string }
  /** The service refused the write (a 4xx): its message, and the members it named. */
  | { change: PlannedChange; outcome: 'refused'; reason: string; members: { field: string; message: string }[] }
  /** Written (a create: as `id`, already given to onCreated), but not readable back: what is stored is not known. */
  | { change: PlannedChange; outcome: 'unverified'; id: string; reason: string }
  /** The write could not be made, or its outcome is unknown (network, 5xx). */
  | { change: PlannedChange; outcome: 'failed'; reason: string };

export interface ApplyChangesOptions {
  signal?: AbortSignal;
  /** Called before each change (progress). */
  onChange?: (done: number, total: number, change: PlannedChange) => void;
  /** A create succeeded: write its new id into the file. Answers a note when that could not be done. */
  onCreated?: (change: Extract<PlannedChange, { action: 'create' }>, id: string) => Promise<string | undefined>;
  /**
   * The body its file asks for, given the service's trigger as read just before writing (updates); a change
   * whose planned body differs is refused, not written (a saved plan is input, not trusted).
   */
  expectedBody?: (change: Extract<PlannedChange, { action: 'create' | 'update' }>, service?: ServiceTrigger) => Record<string, unknown> | undefined;
}

/** Creates first, then updates, then deletes: a delete never goes before the changes that replace it. */
const ORDER: Record<PlannedChange['action'], number> = { create: 0, update: 1, delete: 2 };

export async function applyChanges(changes: readonly PlannedChange[], writer: TriggerWriter, o: ApplyChangesOptions = {}): Promise<ChangeResult[]> {
  const ordered = [...changes].sort((a, b) => ORDER[a.action] - ORDER[b.action]);
  const results: ChangeResult[] = [];
  for (const [i, change] of ordered.entries()) {
    if (o.signal?.aborted === true) {
      results.push({ change, outcome: 'skipped', reason: 'the apply was cancelled before it' });
      continue;
    }
    o.onChange?.(i, ordered.length, change);
    results.push(await applyOne(change, writer, o));
  }
  return results;
}

async function applyOne(change: PlannedChange, writer: TriggerWriter, o: ApplyChangesOptions): Promise<ChangeResult> {
  try {
    if (change.action === 'create') return await create(change, writer, o);
    if (change.action === 'update') return await update(change, writer, o);
    return await remove(change, writer, o.signal);
  } catch (e) {
    return failure(change, e);
  }
}

const signalOf = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

const isGone = (e: unknown) => asServiceError(e)?.status === 404;

async function create(change: Extract<PlannedChange, { action: 'create' }>, writer: TriggerWriter, o: ApplyChangesOptions): Promise<ChangeResult> {
  const mismatch = bodyMismatch(change, o);
  if (mismatch !== undefined) return mismatch;
  const segment = listingSegment(change.dataset);
  const listed = (await writer.listTriggers(segment, signalOf(o.signal))).data;
  const taken = listed.find((t) => t.name === change.name);
  if (taken !== undefined) return { change, outcome: 'skipped', reason: `a trigger named ${JSON.stringify(change.name)} (${taken.id}) was created on the service since the plan` };
  const created = await writer.createTrigger(segment, change.body, { ...signalOf(o.signal), knownIds: new Set(listed.map((t) => t.id)) });
  const id = created.data.id;
  const note = await o.onCreated?.(change, id);
  const recovered = created.recovered === true ? 'its answer was lost; it was found on the service and not created again' : undefined;
  const notes = [recovered, note].filter((n): n is string => n !== undefined);
  const back = await readBack(writer, segment, id, o.signal);
  if ('problem' in back) return unverified(change, id, back.problem, notes);
  return { change, outcome: 'applied', id, storedDifferently: storedDifferently(change.body, change.dataset, back.trigger), ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
}

/**
 * The trigger as the service holds it right after a write, or why it could not be read. The write is made
 * by then: a failure here must not be reported as the write's (a 404 read as a refusal, a 503 as a write
 * that may not have happened).
 */
async function readBack(writer: TriggerWriter, segment: string, id: string, signal: AbortSignal | undefined): Promise<{ trigger: ServiceTrigger } | { problem: string }> {
  try {
    return { trigger: (await writer.getTrigger(segment, id, signalOf(signal))).data };
  } catch (e) {
    if (e instanceof PullCancelled) return { problem: 'the apply was cancelled before it was read back' };
    return { problem: asServiceError(e)?.message ?? (e instanceof Error ? e.message : String(e)) };
  }
}

/** A write that was made but not read back: said as such, never as a refusal or a write that may not have happened. */
function unverified(change: PlannedChange, id: string, problem: string, notes: readonly string[] = []): ChangeResult {
  const reason = [`reading it back failed (${problem}), so what the service stored is not known; plan again to compare`, ...notes].join('; ');
  return { change, outcome: 'unverified', id, reason };
}

/** The trigger as it is now, or why the change must not be written over it. */
async function current(change: Extract<PlannedChange, { action: 'update' | 'delete' }>, writer: TriggerWriter, signal: AbortSignal | undefined): Promise<{ now: ServiceTrigger } | { stale: string }> {
  let now: ServiceTrigger;
  try {
    now = (await writer.getTrigger(listingSegment(change.dataset), change.id, signalOf(signal))).data;
  } catch (e) {
    if (isGone(e)) return { stale: `${JSON.stringify(change.name)} (${change.id}) was deleted on the service since the plan` };
    throw e;
  }
  if (unchangedSince(change.service, now)) return { now };
  const when = typeof now.updated_at === 'string' ? ` (updated ${now.updated_at})` : '';
  return { stale: `${JSON.stringify(change.name)} (${change.id}) changed on the service since the plan${when}; plan again to see the change` };
}

/** Why the change's body is not the one its file asks for, or undefined (no check asked for, or it is). */
function bodyMismatch(change: Extract<PlannedChange, { action: 'create' | 'update' }>, o: ApplyChangesOptions, service?: ServiceTrigger): ChangeResult | undefined {
  const expected = o.expectedBody?.(change, service);
  if (expected === undefined || sameJson(expected, change.body)) return undefined;
  return { change, outcome: 'refused', reason: `the plan's body for ${JSON.stringify(change.name)} is not what ${change.file} asks for; plan again`, members: [] };
}

async function update(change: Extract<PlannedChange, { action: 'update' }>, writer: TriggerWriter, o: ApplyChangesOptions): Promise<ChangeResult> {
  const signal = o.signal;
  const found = await current(change, writer, signal);
  if ('stale' in found) return { change, outcome: 'skipped', reason: found.stale };
  const mismatch = bodyMismatch(change, o, found.now);
  if (mismatch !== undefined) return mismatch;
  const segment = listingSegment(change.dataset);
  await writer.replaceTrigger(segment, change.id, { ...change.body, disabled: change.body.disabled === true }, signalOf(signal));
  const back = await readBack(writer, segment, change.id, signal);
  if ('problem' in back) return unverified(change, change.id, back.problem);
  return { change, outcome: 'applied', id: change.id, storedDifferently: storedDifferently(change.body, change.dataset, back.trigger) };
}

async function remove(change: Extract<PlannedChange, { action: 'delete' }>, writer: TriggerWriter, signal: AbortSignal | undefined): Promise<ChangeResult> {
  const found = await current(change, writer, signal);
  if ('stale' in found) return { change, outcome: 'skipped', reason: found.stale };
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
  if (se === undefined) return { change, outcome: 'failed', reason: e instanceof Error ? e.message : String(e) };
  // A create cancelled in flight may have been made: that is said (failed), not hidden as skipped.
  if (se.kind === 'aborted' && se.maybeProcessed !== true) return { change, outcome: 'skipped', reason: 'the apply was cancelled during it' };
  const members = se.fieldProblems.map((p) => ({ field: p.field, message: p.message }));
  const refused = (se.kind === 'http' && se.status !== undefined && se.status >= 400 && se.status < 500 && se.status !== 429) || se.kind === 'request-validation';
  return refused ? { change, outcome: 'refused', reason: se.message, members } : { change, outcome: 'failed', reason: se.message };
}
