// The editor's plan of applying trigger files to one connection, made as `obs plan` makes it: the service's
// lists read fresh, a first plan to learn which triggers would be written, then the gates on those alone (the
// linter with the live columns of their datasets, the team's recipients), and the plan again with the gates.
// A file open with unsaved edits is left out, blocked with "save the file first": a plan is of what is on
// disk. A plan may be narrowed to one file, one trigger of a file, or one delete. No vscode import.
import * as l10n from '@vscode/l10n';
import type { DatasetColumns, Diagnostic } from '../../lint';
import { blockingReasons } from '../../lint/gate';
import {
  datasetsOfFiles,
  listDatasets,
  listingSegment,
  makePlan,
  PacedPool,
  readTriggerFile,
  ServiceIndex,
  sha256,
  type LocalFile,
  type Plan,
  type PlanFile,
  type PlanInput,
  type ServiceTrigger,
  type TriggerWriter,
} from '../../triggerFiles';

/** A trigger file as the editor has it. */
export interface SourceFile {
  /** How the plan names the file: its path relative to the workspace. */
  file: string;
  /** The saved text; undefined when it could not be read (then `problem` says why). */
  text: string | undefined;
  /** Open in the editor with unsaved edits. */
  dirty: boolean;
  problem?: string;
}

type Paced<T> = Promise<{ data: T; rateLimit?: { remaining: number; resetSeconds: number } }>;

/** The reads a plan makes (the client's ServiceClient satisfies it). */
export interface PlanReader {
  listTriggers(dataset: string, o?: { signal?: AbortSignal }): Paced<ServiceTrigger[]>;
  listColumns(dataset: string, o?: { signal?: AbortSignal }): Paced<{ key_name: string; hidden?: boolean | undefined }[]>;
  listRecipients(o?: { signal?: AbortSignal }): Paced<{ id: string }[]>;
}

/** Lints a file's text with the given columns (the editor's lint worker). */
export type Linter = (text: string, columns: Record<string, DatasetColumns> | undefined, signal?: AbortSignal) => Promise<readonly Diagnostic[]>;

export type PlanScope =
  /** Every change of the files; never a delete. */
  | { kind: 'files' }
  /** The changes of one file, or of one trigger of it (its index; -1 for a file of one trigger). */
  | { kind: 'trigger'; file: string; index?: number }
  /** The delete of one service trigger that no file holds (every file is read: one of them may hold it). */
  | { kind: 'delete'; id: string; dataset: string }
  /** Every change of the files and the deletes of `obs plan --prune` (an agent's obs_plan with prune). */
  | { kind: 'all' };

export interface ConnectionPlanInput {
  files: readonly SourceFile[];
  client: PlanReader;
  connection: { name: string; baseUrl: string };
  scope: PlanScope;
  lint: Linter;
  concurrency: number;
  signal?: AbortSignal;
  onPause?: (ms: number) => void;
  now?: Date;
  /**
   * The files' ids are not this connection's (it is not the active one, whose ids a pull or an apply wrote
   * into them): each trigger is matched by dataset and name, never by an id that may name another trigger
   * here or none at all.
   */
  idsIgnored?: boolean;
}

export interface ConnectionPlan {
  plan: Plan;
  /** What could not be checked (the service does not list it to this key), said once each. */
  notes: string[];
}

/** Statuses of a listing the service does not serve to this key: that check is skipped, and said. */
const NOT_SERVED = new Set([401, 403, 404, 405]);
const statusOf = (e: unknown): unknown => (typeof e === 'object' && e !== null ? (e as { status?: unknown }).status : undefined);
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const unsavedReason = (): string => l10n.t('it has unsaved changes in the editor: save the file first');

/** A read file's triggers as if they named no id (the value and what was read of it). */
function withoutIds(read: LocalFile): LocalFile {
  if (!read.ok) return read;
  return {
    ok: true,
    triggers: read.triggers.map(({ id: _id, ...t }) => {
      const { id: _member, ...value } = t.value;
      return { ...t, value };
    }),
  };
}

function planFile(f: SourceFile, idsIgnored: boolean): PlanFile {
  let read: LocalFile;
  if (f.dirty) read = { ok: false, reason: unsavedReason() };
  else if (f.text === undefined) read = { ok: false, reason: f.problem ?? l10n.t('it could not be read') };
  else read = readTriggerFile(f.text);
  return { file: f.file, text: f.text ?? '', read: idsIgnored ? withoutIds(read) : read };
}

/** The plan narrowed to its scope. */
export function scoped(plan: Plan, scope: PlanScope): Plan {
  if (scope.kind === 'all') return plan;
  if (scope.kind === 'files') return { ...plan, changes: plan.changes.filter((c) => c.action !== 'delete') };
  if (scope.kind === 'delete') {
    const changes = plan.changes.filter((c) => c.action === 'delete' && c.id === scope.id);
    const blocked = changes.length > 0 ? [] : plan.blocked.filter((b) => (b.file === undefined && b.dataset === scope.dataset) || (b.file !== undefined && b.index < 0 && b.dataset === undefined));
    return { ...plan, changes, blocked, unchanged: 0 };
  }
  const mine = (c: { file?: string; index: number }) => c.file === scope.file && (scope.index === undefined || c.index === scope.index || c.index < 0);
  const changes = plan.changes.filter((c) => c.action !== 'delete' && mine(c));
  const blocked = plan.blocked.filter((b) => b.file !== undefined && mine(b));
  const unchanged = scope.index === undefined ? plan.unchanged : changes.length + blocked.length === 0 ? 1 : 0;
  return { ...plan, changes, blocked, unchanged };
}

async function serviceIndex(input: ConnectionPlanInput, files: readonly PlanFile[], pool: PacedPool): Promise<ServiceIndex> {
  const index = new ServiceIndex();
  const datasets = [...datasetsOfFiles(files.map((f) => f.read))].sort();
  const listings = await listDatasets(input.client, datasets, pool, input.signal);
  for (const [dataset, listing] of listings) index.add(dataset, listing);
  return index;
}

/** The columns of the datasets to be written; undefined (and a note) when the service does not list them. */
async function columnsOf(input: ConnectionPlanInput, datasets: readonly string[], pool: PacedPool, notes: string[]): Promise<Record<string, DatasetColumns> | undefined> {
  const out: Record<string, DatasetColumns> = {};
  try {
    await Promise.all(
      datasets.map(async (dataset) => {
        try {
          const res = await pool.run((s) => input.client.listColumns(listingSegment(dataset), s === undefined ? {} : { signal: s }), input.signal);
          out[dataset] = { names: res.data.map((c) => c.key_name), hidden: res.data.filter((c) => c.hidden === true).map((c) => c.key_name) };
        } catch (e) {
          // A dataset the service does not have is blocked by the plan itself; its columns are not checked.
          if (statusOf(e) !== 404) throw e;
        }
      }),
    );
  } catch (e) {
    if (!NOT_SERVED.has(statusOf(e) as number)) throw e;
    notes.push(l10n.t('The columns were not checked: {0}', messageOf(e)));
    return undefined;
  }
  return out;
}

/** The ids of the team's recipients; undefined (and a note) when the service does not list them to this key. */
async function recipientIds(input: ConnectionPlanInput, pool: PacedPool, notes: string[]): Promise<Set<string> | undefined> {
  try {
    const res = await pool.run((s) => input.client.listRecipients(s === undefined ? {} : { signal: s }), input.signal);
    return new Set(res.data.map((r) => r.id));
  } catch (e) {
    if (!NOT_SERVED.has(statusOf(e) as number)) throw e;
    notes.push(l10n.t('The recipients were not checked: {0}', messageOf(e)));
    return undefined;
  }
}

/**
 * The plan of the files against the connection, with the gates `obs plan` has: a first plan says which
 * triggers would be written; only their files are linted (with the columns of their datasets), and the
 * recipients are read once.
 */
export async function planForConnection(input: ConnectionPlanInput): Promise<ConnectionPlan> {
  const notes: string[] = [];
  const pool = new PacedPool({ concurrency: input.concurrency, ...(input.onPause === undefined ? {} : { onPause: input.onPause }) });
  const files = input.files.map((f) => planFile(f, input.idsIgnored === true));
  const index = await serviceIndex(input, files, pool);
  // The editor's plan is applied at once with the connection's own client and never saved: no key to record.
  const base: PlanInput = {
    files,
    index,
    target: { baseUrl: input.connection.baseUrl, connection: input.connection.name, key: { salt: '', sha256: '' } },
    prune: input.scope.kind === 'delete' || input.scope.kind === 'all',
    now: input.now ?? new Date(),
  };
  const first = makePlan(base);
  const writes = gated(first, input.scope);
  if (writes.length === 0) return { plan: scoped(first, input.scope), notes };
  const columns = await columnsOf(input, [...new Set(writes.map((c) => c.dataset))].sort(), pool, notes);
  const recipients = await recipientIds(input, pool, notes);
  const reasons = new Map<string, (index: number) => string[]>();
  const linted = new Set(writes.map((c) => c.file));
  for (const f of files) {
    if (!linted.has(f.file) || !f.read.ok) continue;
    const diagnostics = await input.lint(f.text, columns, input.signal);
    reasons.set(f.file, blockingReasons(diagnostics, f.read.triggers.some((t) => t.index >= 0)));
  }
  const second = makePlan({ ...base, blockedBy: (file, i) => reasons.get(file)?.(i) ?? [], ...(recipients === undefined ? {} : { recipients }) });
  return { plan: scoped(second, input.scope), notes };
}

type Write = Exclude<Plan['changes'][number], { action: 'delete' }>;

/**
 * The writes whose gates the plan needs: those of its scope, or for a delete, those of its dataset (a blocked
 * trigger of the dataset may be the one to delete, renamed, so it withholds the delete as in `obs plan`).
 * None when the scope holds no change.
 */
function gated(first: Plan, scope: PlanScope): Write[] {
  const inScope = scoped(first, scope).changes;
  if (inScope.length === 0) return [];
  const writes = (scope.kind === 'delete' ? first.changes : inScope).flatMap((c) => (c.action === 'delete' ? [] : [c]));
  return scope.kind === 'delete' ? writes.filter((c) => c.dataset === scope.dataset) : writes;
}

/** The files of the plan that hold a change and whose saved text is no longer what was planned. */
export function changedSincePlan(plan: Plan, current: ReadonlyMap<string, string | undefined>): string[] {
  const planned = new Map(plan.files.map((f) => [f.file, f.sha256]));
  const touched = new Set(plan.changes.flatMap((c) => (c.action === 'delete' ? [] : [c.file])));
  return [...touched].filter((file) => {
    const text = current.get(file);
    return text === undefined || sha256(text) !== planned.get(file);
  });
}

type RateLimited = { rateLimit?: { remaining: number; resetSeconds: number } | undefined };

/** The client's trigger calls, with what pacing reads of each answer (the client's ServiceClient satisfies it). */
export interface WritingClient {
  getTrigger(dataset: string, id: string, o?: { signal?: AbortSignal }): Promise<{ data: ServiceTrigger } & RateLimited>;
  listTriggers(dataset: string, o?: { signal?: AbortSignal }): Promise<{ data: ServiceTrigger[] } & RateLimited>;
  createTrigger(dataset: string, body: Record<string, unknown>, o?: { signal?: AbortSignal; knownIds?: ReadonlySet<string> }): Promise<{ data: ServiceTrigger; recovered?: true } & RateLimited>;
  replaceTrigger(dataset: string, id: string, body: Record<string, unknown> & { disabled: boolean }, o?: { signal?: AbortSignal }): Promise<{ data: ServiceTrigger } & RateLimited>;
  deleteTrigger(dataset: string, id: string, o?: { signal?: AbortSignal }): Promise<RateLimited>;
}

/** The client's writes through a pacing pool: a rate-limit window nearly used up waits for its reset, and is said. */
export function pacedWriter(client: WritingClient, pool: PacedPool): TriggerWriter {
  const on = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });
  return {
    getTrigger: (d, id, o) => pool.run((s) => client.getTrigger(d, id, on(s)), o?.signal),
    listTriggers: (d, o) => pool.run((s) => client.listTriggers(d, on(s)), o?.signal),
    createTrigger: (d, body, o) => pool.run((s) => client.createTrigger(d, body, { ...on(s), ...(o?.knownIds === undefined ? {} : { knownIds: o.knownIds }) }), o?.signal),
    replaceTrigger: (d, id, body, o) => pool.run((s) => client.replaceTrigger(d, id, body, on(s)), o?.signal),
    deleteTrigger: (d, id, o) => pool.run((s) => client.deleteTrigger(d, id, on(s)), o?.signal),
  };
}
