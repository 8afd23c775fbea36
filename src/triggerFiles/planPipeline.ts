// The one plan pipeline of trigger files, for every caller (`obs plan`, `obs apply`, `obs mcp`, the editor's
// Apply and the agents' obs_plan and obs_apply_plan): the service's lists read fresh, a first plan to learn
// which triggers would be written, then the gates on those alone (the linter with the live columns of their
// datasets, the team's recipients, the saved queries their query_ids name), and the plan again with the gates.
// Each caller keeps only how it reads its files, lints and shows the result. No vscode import.
import type { AccountRecipient } from '../api/schemas/account';
import { blockingReasons, type GateOptions } from '../lint/gate';
import type { DatasetColumns, Diagnostic } from '../lint/types';
import { datasetsOfFiles, ServiceIndex, type ServiceTrigger } from './drift';
import { listDatasets, listingSegment } from './listing';
import { readTriggerFile, withoutIds, type LocalFile } from './localFiles';
import { kindOfFile } from './planKinds';
import {
  compareSloFiles,
  sloEntries,
  sloHoldsReference,
  sloReferencesResolved,
  type SloEntries,
  type SloPlanFile,
  type SloReads,
} from './sloPlan';
import { holdsReference, TeamRecipients, withReferencesResolved } from './recipientRefs';
import { makePlan, sha256, type Plan, type PlanFile, type PlanInputs, type PlanScope, type PlanTarget } from './plan';
import { PacedPool } from './pool';
import { savedQueryReasons } from './planQueries';
import {
  effectiveFile,
  placeOfFinding,
  sloFileAsSeenBy,
  unusedOverrideEntries,
  type EffectiveFile,
  type PlanEnvironment,
} from './environmentPlan';

/** A trigger file as its caller found it. */
export interface PlanSource {
  /** How the plan names the file: relative to the folder or workspace. */
  file: string;
  /** Its text; undefined when it was not read (then `problem` says why: unsaved edits, unreadable, not UTF-8). */
  text: string | undefined;
  problem?: string;
  /** Named on its own, not found by walking a folder or a glob: a prune deletes nothing on its account. */
  named?: boolean;
}

type Paced<T> = Promise<{ data: T; rateLimit?: { remaining: number; resetSeconds: number } }>;

/** The reads a plan makes (the client's ServiceClient satisfies it). */
export interface PlanService extends SloReads {
  listTriggers(dataset: string, o?: { signal?: AbortSignal }): Paced<ServiceTrigger[]>;
  listColumns(
    dataset: string,
    o?: { signal?: AbortSignal },
  ): Paced<{ key_name: string; hidden?: boolean | undefined }[]>;
  /** The team's recipients: what names each within its type (never a credential) resolves references. */
  listRecipients(o?: { signal?: AbortSignal }): Paced<AccountRecipient[]>;
  /** GET /1/queries/<dataset>/<id>: the saved query a trigger's query_id names. */
  getQuery(dataset: string, queryId: string, o?: { signal?: AbortSignal }): Paced<Record<string, unknown>>;
}

/**
 * Lints a file's text with the given columns (by dataset slug), by the rules of the file's kind, which its name
 * says (a trigger, burn alert or definitions file): in the CLI's process, or the editor's lint worker.
 */
export type PlanLinter = (
  text: string,
  columns: Readonly<Record<string, DatasetColumns>> | undefined,
  signal: AbortSignal | undefined,
  file: string,
) => Promise<readonly Diagnostic[]>;

export interface PlanRequest {
  sources: readonly PlanSource[];
  service: PlanService;
  lint: PlanLinter;
  target: PlanTarget;
  inputs: PlanInputs;
  concurrency: number;
  now: Date;
  signal?: AbortSignal;
  /** A wait for the service's rate limit began (progress). */
  onPause?: (ms: number) => void;
  /** The environment planned for: its overlay makes each trigger the effective one (environmentPlan.ts). */
  environment?: PlanEnvironment;
}

export interface GatedPlan {
  plan: Plan;
  /** The service's triggers the plan was made from (obs apply tells by them a change already applied). */
  service: ServiceIndex;
  /** What could not be checked (the service does not serve it to this key), said once each. */
  notes: string[];
  /** Datasets whose triggers could not be listed: their files are blocked in the plan, and the caller says so. */
  listingFailures: { dataset: string; message: string }[];
}

/** Statuses of a listing the service does not serve to this key: that check is skipped, and said. */
const NOT_SERVED = new Set([401, 403, 404, 405]);
const statusOf = (e: unknown): unknown =>
  typeof e === 'object' && e !== null ? (e as { status?: unknown }).status : undefined;
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const signalArg = (s: AbortSignal | undefined) => (s === undefined ? {} : { signal: s });

function planFileOf(source: PlanSource, matchByName: boolean, effective?: EffectiveFile): PlanFile {
  const text = effective?.text ?? source.text;
  const read: LocalFile =
    text === undefined ? { ok: false, reason: source.problem ?? 'it could not be read' } : readTriggerFile(text);
  return {
    file: source.file,
    text: text ?? '',
    read: matchByName ? withoutIds(read) : read,
    ...(source.named === true ? { named: true } : {}),
    // The plan records the file as read, not as the environment sees it.
    ...(effective === undefined ? {} : { sha256: sha256(source.text ?? '') }),
  };
}

/** The trigger files as the environment sees them, and what blocks there before any gate (environmentPlan.ts). */
function environmentFiles(req: PlanRequest) {
  const env = req.environment;
  const overlay = env?.overlay;
  const matchByName = req.inputs.matchByName || overlay !== undefined;
  const effective = new Map<string, EffectiveFile>();
  const files = req.sources
    .filter((s) => kindOfFile(s.file) === 'trigger')
    .map((s) => {
      const e = overlay === undefined || s.text === undefined ? undefined : effectiveFile(s.text, overlay);
      if (e !== undefined) effective.set(s.file, e);
      return planFileOf(s, matchByName, e);
    });
  const walked = files.filter((f) => f.named !== true).flatMap((f) => effective.get(f.file)?.triggers ?? []);
  const blocked = env === undefined ? [] : unusedOverrideEntries(env, walked);
  const closed = new Map(blocked.map((b) => [b.dataset ?? '', b.file ?? '']));
  const datasetOf = new Map(
    files.flatMap((f) => (f.read.ok ? f.read.triggers.map((t) => [`${f.file}\u0000${t.index}`, t.dataset]) : [])),
  );
  const blockedBy = (file: string, index: number): string[] => {
    const dataset = datasetOf.get(`${file}\u0000${index}`);
    const by = dataset === undefined ? undefined : closed.get(dataset);
    return [
      ...(effective.get(file)?.problems.get(index) ?? []),
      ...(by === undefined ? [] : [`an override of its dataset in ${by} names no trigger of the files (said there)`]),
    ];
  };
  const texts = new Map(req.sources.map((s) => [s.file, s.text]));
  /** Where a finding of a file's effective text is fixed (undefined: at its line, the file read as it is). */
  const placeOf = (file: string) => {
    const [e, text] = [effective.get(file), texts.get(file)];
    return env === undefined || e === undefined || text === undefined ? undefined : placeOfFinding(e, text, env);
  };
  return { files, blocked, blockedBy, placeOf };
}

/** The plan narrowed to its scope. */
function scoped(plan: Plan, scope: PlanScope): Plan {
  if (scope.kind === 'all') return plan;
  if (scope.kind === 'files') return { ...plan, changes: plan.changes.filter((c) => c.action !== 'delete') };
  if (scope.kind === 'delete') {
    const changes = plan.changes.filter((c) => c.action === 'delete' && c.id === scope.id);
    const blocked =
      changes.length > 0
        ? []
        : plan.blocked.filter(
            (b) =>
              (b.file === undefined && b.dataset === scope.dataset) ||
              (b.file !== undefined && b.index < 0 && b.dataset === undefined),
          );
    return { ...plan, changes, blocked, unchanged: 0 };
  }
  const mine = (c: { file?: string; index: number }) =>
    c.file === scope.file && (scope.index === undefined || c.index === scope.index || c.index < 0);
  const changes = plan.changes.filter((c) => c.action !== 'delete' && mine(c));
  const blocked = plan.blocked.filter((b) => b.file !== undefined && mine(b));
  const unchanged = scope.index === undefined ? plan.unchanged : changes.length + blocked.length === 0 ? 1 : 0;
  return { ...plan, changes, blocked, unchanged };
}

type Write = Exclude<Plan['changes'][number], { action: 'delete' }>;

/**
 * The writes whose gates the plan needs: those of its scope, or for a delete, those of its dataset (a blocked
 * trigger of the dataset may be the one to delete, renamed, so it withholds the delete). None when the scope
 * holds no change.
 */
function gated(first: Plan, scope: PlanScope): Write[] {
  const inScope = scoped(first, scope).changes;
  if (inScope.length === 0) return [];
  const writes = (scope.kind === 'delete' ? first.changes : inScope).flatMap((c) => (c.action === 'delete' ? [] : [c]));
  return scope.kind === 'delete' ? writes.filter((c) => c.dataset === scope.dataset) : writes;
}

async function serviceIndex(
  req: PlanRequest,
  files: readonly PlanFile[],
  pool: PacedPool,
): Promise<{ index: ServiceIndex; failures: GatedPlan['listingFailures'] }> {
  const index = new ServiceIndex();
  const failures: GatedPlan['listingFailures'] = [];
  const listings = await listDatasets(
    req.service,
    [...datasetsOfFiles(files.map((f) => f.read))].sort(),
    pool,
    req.signal,
  );
  for (const [dataset, listing] of [...listings].sort(([a], [b]) => a.localeCompare(b))) {
    index.add(dataset, listing);
    if (listing.state === 'failed') failures.push({ dataset, message: listing.message });
  }
  return { index, failures };
}

/** The columns of the datasets to be written; undefined (and a note) when the service does not list them to this key. */
async function columnsOf(
  req: PlanRequest,
  datasets: readonly string[],
  pool: PacedPool,
  notes: string[],
): Promise<Record<string, DatasetColumns> | undefined> {
  const out: Record<string, DatasetColumns> = {};
  try {
    await Promise.all(
      datasets.map(async (dataset) => {
        try {
          const res = await pool.run((s) => req.service.listColumns(listingSegment(dataset), signalArg(s)), req.signal);
          out[dataset] = {
            names: res.data.map((c) => c.key_name),
            hidden: res.data.filter((c) => c.hidden === true).map((c) => c.key_name),
          };
        } catch (e) {
          // A dataset the service does not have is blocked by the plan itself; its columns are not checked.
          if (statusOf(e) !== 404) throw e;
        }
      }),
    );
  } catch (e) {
    if (!NOT_SERVED.has(statusOf(e) as number)) throw e;
    notes.push(`the columns were not checked: ${messageOf(e)}`);
    return undefined;
  }
  return out;
}

interface Team {
  ids: Set<string>;
  recipients: TeamRecipients;
}

/** The team's recipients; undefined (and a note) when the service does not list them to this key. */
async function teamOf(req: PlanRequest, pool: PacedPool, notes: string[]): Promise<Team | undefined> {
  try {
    const res = await pool.run((s) => req.service.listRecipients(signalArg(s)), req.signal);
    return { ids: new Set(res.data.map((r) => r.id)), recipients: new TeamRecipients(res.data) };
  } catch (e) {
    if (!NOT_SERVED.has(statusOf(e) as number)) throw e;
    notes.push(`the recipients were not checked: ${messageOf(e)}`);
    return undefined;
  }
}

/** The reasons each trigger of each file to be written may not be written, from the linter's diagnostics. */
async function lintReasons(
  req: PlanRequest,
  files: readonly PlanFile[],
  writes: readonly Write[],
  columns: Record<string, DatasetColumns> | undefined,
  placeOf: (file: string) => GateOptions['placeOf'],
) {
  const reasons = new Map<string, (index: number) => string[]>();
  const linted = new Set(writes.map((c) => c.file));
  const gate = { allowUnknownColumns: req.inputs.allowUnknownColumns };
  for (const f of files) {
    if (!linted.has(f.file) || !f.read.ok) continue;
    const diagnostics = await req.lint(f.text, columns, req.signal, f.file);
    reasons.set(
      f.file,
      blockingReasons(
        diagnostics,
        f.read.triggers.some((t) => t.index >= 0),
        { ...gate, placeOf: placeOf(f.file) },
      ),
    );
  }
  return (file: string, index: number) => reasons.get(file)?.(index) ?? [];
}

/** The trigger plan with the burn alert and definitions entries beside its own. */
function withSlo(plan: Plan, slo: SloEntries, files: readonly SloPlanFile[]): Plan {
  return {
    ...plan,
    files: [...plan.files, ...files.map((f) => ({ file: f.file, sha256: f.sha256 ?? sha256(f.text ?? '') }))],
    changes: [...plan.changes, ...slo.changes],
    blocked: [...plan.blocked, ...slo.blocked],
    unchanged: plan.unchanged + slo.unchanged,
  };
}

/** The lint reasons of each burn alert or definitions file to be written, linted by its kind. */
async function sloLintReasons(
  req: PlanRequest,
  files: readonly SloPlanFile[],
  written: ReadonlySet<string>,
  columns: Record<string, DatasetColumns> | undefined,
): Promise<(file: string) => string[]> {
  const reasons = new Map<string, string[]>();
  const gate = { allowUnknownColumns: req.inputs.allowUnknownColumns };
  for (const f of files) {
    if (!written.has(f.file) || f.text === undefined) continue;
    const diagnostics = await req.lint(f.text, columns, req.signal, f.file);
    reasons.set(f.file, blockingReasons(diagnostics, false, gate)(-1));
  }
  return (file) => reasons.get(file) ?? [];
}

/** The burn alert and definitions files among the sources, as the comparison of every caller takes them. */
export function sloFilesOf(sources: readonly PlanSource[]): SloPlanFile[] {
  return sources.flatMap((s): SloPlanFile[] => {
    const kind = kindOfFile(s.file);
    if (kind === 'trigger') return [];
    return [{ file: s.file, kind, text: s.text, ...(s.problem === undefined ? {} : { problem: s.problem }) }];
  });
}

/** The plan of the sources against the service, with its gates. Rejects only when a read the gates need fails. */
export async function planWithGates(req: PlanRequest): Promise<GatedPlan> {
  const notes: string[] = [];
  const pool = new PacedPool({
    concurrency: req.concurrency,
    ...(req.onPause === undefined ? {} : { onPause: req.onPause }),
  });
  const overlay = req.environment?.overlay;
  // Seen by another environment, a file is compared as it sees it; the plan records the hash of its bytes.
  const sloFiles = sloFilesOf(req.sources).map((f) =>
    overlay === undefined ? f : { ...sloFileAsSeenBy(f, overlay), sha256: sha256(f.text ?? '') },
  );
  const { files: read, blocked, blockedBy: environmentReasons, placeOf } = environmentFiles(req);
  const { index, failures } = await serviceIndex(req, read, pool);
  const sloCompared = await compareSloFiles(sloFiles, req.service, pool, {
    matchByName: req.inputs.matchByName || req.environment?.overlay !== undefined,
    ...signalArg(req.signal),
  });
  // The team's recipients are listed once: before the first plan when a file names one by type and target (the
  // comparison needs its id), else only for the gate of the writes.
  let listed: Promise<Team | undefined> | undefined;
  const team = () => (listed ??= teamOf(req, pool, notes));
  const references = read.some((f) => f.read.ok && f.read.triggers.some((t) => holdsReference(t.value.recipients)));
  const resolving = references || sloHoldsReference(sloCompared) ? (await team())?.recipients : undefined;
  const files = references ? read.map((f) => ({ ...f, read: withReferencesResolved(f.read, resolving) })) : read;
  const compared = sloReferencesResolved(sloCompared, resolving);
  const base = { files, index, target: req.target, inputs: req.inputs, now: req.now, blocked };
  const first = makePlan({ ...base, blockedBy: environmentReasons });
  const firstAll = scoped(withSlo(first, sloEntries(compared), sloFiles), req.inputs.scope);
  const writes = gated(first, req.inputs.scope);
  const sloWrites = firstAll.changes.filter((c) => c.kind !== 'trigger');
  const done = (plan: Plan): GatedPlan => ({ plan, service: index, notes, listingFailures: failures });
  if (writes.length === 0 && sloWrites.length === 0) return done(firstAll);
  const datasets = [...writes, ...sloWrites.filter((c) => c.kind === 'definitions')].map((c) => c.dataset);
  const columns = await columnsOf(req, [...new Set(datasets)].sort(), pool, notes);
  const recipients = (await team())?.ids;
  const linted = await lintReasons(req, files, writes, columns, placeOf);
  const sloLinted = await sloLintReasons(req, sloFiles, new Set(sloWrites.map((c) => c.file)), columns);
  const gate = {
    service: req.service,
    lint: (text: string, file: string) => req.lint(text, undefined, req.signal, file),
    pool,
    notes,
    ...signalArg(req.signal),
  };
  const queries = await savedQueryReasons(gate, files, writes);
  const blockedBy = (file: string, index: number) => [
    ...environmentReasons(file, index),
    ...linted(file, index),
    ...queries(file, index),
  ];
  const recipientGate = recipients === undefined ? {} : { recipients };
  const second = makePlan({ ...base, blockedBy, ...recipientGate });
  const slo = sloEntries(compared, { blockedBy: sloLinted, ...recipientGate });
  return done(scoped(withSlo(second, slo, sloFiles), req.inputs.scope));
}
