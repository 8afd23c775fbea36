// The burn alert and definitions files of a plan (docs/SLO-FILES.md): each file read, the service's object it
// updates found (a burn alert by its id, or by its SLO's name, type and threshold; a dataset's definitions by
// the empty update), and the update it asks for, or why it cannot be planned. Only updates: the service can
// neither create nor delete these. The planning pipeline (planPipeline.ts) runs the gates on them as on
// triggers. No vscode import.
import { isServiceNotFound } from '../api/errors';
import { ENVIRONMENT_WIDE } from '../api/schemas/slugs';
import { burnAlertDataset, compareBurnAlerts, DEFAULT_BURN_ALERT_TYPE } from './burnAlertFile';
import type { Difference } from './compare';
import { compareDefinitions } from './definitionsFile';
import type { BlockedTrigger } from './plan';
import type { BurnAlertUpdate, DefinitionsUpdate, PlanKind, SloUpdate } from './planKinds';
import type { Paced, PacedPool } from './pool';
import { burnAlertBody, burnAlertLabel, burnAlertVersion, definitionsBody, definitionsVersion } from './sloChange';
import { jsonObjectOf } from './jsonObject';
import {
  holdsReference,
  resolveRecipients,
  refusalsAgainst,
  type ResolvedReference,
  type TeamRecipients,
} from './recipientRefs';

type Json = Record<string, unknown>;
type SloKind = Exclude<PlanKind, 'trigger'>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

type Read<T> = Promise<{ data: T } & Paced>;

/** The reads a plan makes of burn alerts and definitions (the pipeline's PlanService holds them). */
export interface SloReads {
  /** The SLOs of a dataset (`__all__`: the environment's), to match a burn alert by its SLO's name. */
  listSlos(dataset: string, o?: { signal?: AbortSignal }): Read<{ id: string; name?: string }[]>;
  listBurnAlerts(dataset: string, sloId: string, o?: { signal?: AbortSignal }): Read<Json[]>;
  /** One alert read whole, recipients included (beyond the spec: the service serves it). */
  getBurnAlert(dataset: string, id: string, o?: { signal?: AbortSignal }): Read<Json>;
  /** With an empty body: changes nothing and answers the whole map (the service has no read of definitions). */
  updateDatasetDefinitions(dataset: string, body: Record<string, never>, o?: { signal?: AbortSignal }): Read<Json>;
}

/** A burn alert or definitions file as the plan read it. */
export interface SloPlanFile {
  file: string;
  kind: SloKind;
  text: string | undefined;
  problem?: string;
  /** The hash recorded of the file's bytes, when `text` is not them (the file as an environment sees it). */
  sha256?: string;
}

/**
 * A file compared with the service: the object it updates, or why it cannot be planned (`missing`: the service
 * has no such alert or dataset, which a file cannot create).
 */
export type SloCompared =
  | { file: string; kind: SloKind; reasons: string[]; dataset?: string; name?: string; missing?: true }
  | {
      file: string;
      kind: 'burn-alert';
      dataset: string;
      local: Json;
      alert: Json & { id: string };
      sloName: string;
      matchedBy: 'id' | 'name';
      /** The recipients it names by type and target, resolved (their ids are in `local`). */
      references?: ResolvedReference[];
    }
  | { file: string; kind: 'definitions'; dataset: string; local: Json; map: Json };

/** The reads of one plan, each made once however many files need it. */
class Reads {
  private readonly memo = new Map<string, Promise<unknown>>();
  constructor(
    private readonly service: SloReads,
    private readonly pool: PacedPool,
    private readonly signal: AbortSignal | undefined,
  ) {}

  private once<T>(key: string, call: (s?: AbortSignal) => Promise<{ data: T } & Paced>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (p === undefined) {
      p = this.pool.run(call, this.signal).then((r) => r.data);
      this.memo.set(key, p);
    }
    return p;
  }

  private static opts = (s?: AbortSignal) => (s === undefined ? {} : { signal: s });
  alert = (dataset: string, id: string) =>
    this.once(`alert\u0000${dataset}\u0000${id}`, (s) => this.service.getBurnAlert(dataset, id, Reads.opts(s)));
  slos = (dataset: string) => this.once(`slos\u0000${dataset}`, (s) => this.service.listSlos(dataset, Reads.opts(s)));
  alerts = (dataset: string, slo: string) =>
    this.once(`alerts\u0000${dataset}\u0000${slo}`, (s) => this.service.listBurnAlerts(dataset, slo, Reads.opts(s)));
  definitions = (dataset: string) =>
    this.once(`defs\u0000${dataset}`, (s) => this.service.updateDatasetDefinitions(dataset, {}, Reads.opts(s)));
}

/** The threshold members of an alert, as people read them: `exhaustion_minutes 240`. */
function thresholdText(alert: Json): string {
  if ((alert.alert_type ?? DEFAULT_BURN_ALERT_TYPE) === 'budget_rate')
    return (
      `budget_rate_window_minutes ${String(alert.budget_rate_window_minutes)}, ` +
      `budget_rate_decrease_threshold_per_million ${String(alert.budget_rate_decrease_threshold_per_million)}`
    );
  return `exhaustion_minutes ${String(alert.exhaustion_minutes)}`;
}

const sameThreshold = (a: Json, b: Json): boolean => thresholdText(a) === thresholdText(b);

/** The alert a file names by its SLO's name, its type and (among several of that type) its threshold. */
async function alertByName(
  reads: Reads,
  dataset: string,
  local: Json,
): Promise<{ alert: Json & { id: string }; sloName: string } | { reasons: string[] }> {
  const sloName = isRecord(local.slo) && typeof local.slo.name === 'string' ? local.slo.name : undefined;
  if (sloName === undefined) return { reasons: ['it names no SLO name (slo.name) to find its alert by'] };
  const slos = (await reads.slos(dataset)).filter((s) => s.name === sloName);
  const where = dataset === ENVIRONMENT_WIDE ? 'the environment' : dataset;
  if (slos.length !== 1) {
    const why =
      slos.length === 0
        ? `the service has no SLO named ${JSON.stringify(sloName)} in ${where}`
        : `${slos.length} SLOs of ${where} are named ${JSON.stringify(sloName)} (${slos.map((s) => s.id).join(', ')})`;
    return { reasons: [why] };
  }
  const slo = slos[0] as { id: string };
  const type = local.alert_type ?? DEFAULT_BURN_ALERT_TYPE;
  const ofType = (await reads.alerts(dataset, slo.id)).filter(
    (a) => (a.alert_type ?? DEFAULT_BURN_ALERT_TYPE) === type,
  );
  const found = ofType.length > 1 ? ofType.filter((a) => sameThreshold(a, local)) : ofType;
  const only = found.length === 1 ? found[0] : undefined;
  if (only !== undefined && typeof only.id === 'string')
    return { alert: { ...(await reads.alert(dataset, only.id)), id: only.id }, sloName };
  const candidates = ofType.map((a) => `${String(a.id)} (${thresholdText(a)})`).join('; ');
  const named = `the SLO ${JSON.stringify(sloName)}`;
  const which = found.length === 0 ? 'none' : 'several';
  return {
    reasons: [
      ofType.length === 0
        ? `${named} has no ${String(type)} burn alert on the service: burn alerts cannot be created from files`
        : `${named} has ${ofType.length} ${String(type)} burn alerts and ${which} of this threshold: ${candidates}`,
    ],
  };
}

async function compareBurnAlertFile(f: SloPlanFile, local: Json, reads: Reads, byName: boolean): Promise<SloCompared> {
  if (typeof local.dataset_slug !== 'string' || local.dataset_slug === '')
    return { file: f.file, kind: f.kind, reasons: ['it names no dataset_slug'] };
  const dataset = burnAlertDataset(local.dataset_slug);
  const id = typeof local.id === 'string' && local.id !== '' ? local.id : undefined;
  try {
    if (id === undefined || byName) {
      const found = await alertByName(reads, dataset, local);
      if ('reasons' in found) return { file: f.file, kind: f.kind, dataset, reasons: found.reasons };
      return { file: f.file, kind: 'burn-alert', dataset, local, ...found, matchedBy: 'name' };
    }
    const alert = { ...(await reads.alert(dataset, id)), id };
    const sloName = isRecord(local.slo) && typeof local.slo.name === 'string' ? local.slo.name : id;
    return { file: f.file, kind: 'burn-alert', dataset, local, alert, sloName, matchedBy: 'id' };
  } catch (e) {
    if (!isServiceNotFound(e)) throw e;
    const why =
      id !== undefined && !byName
        ? `the service has no burn alert ${id}: burn alerts cannot be created from files`
        : `the service has no SLOs or burn alerts of ${dataset}`;
    return { file: f.file, kind: f.kind, dataset, reasons: [why], missing: true };
  }
}

async function compareDefinitionsFile(f: SloPlanFile, local: Json, reads: Reads): Promise<SloCompared> {
  if (typeof local.dataset_slug !== 'string' || local.dataset_slug === '')
    return { file: f.file, kind: f.kind, reasons: ['it names no dataset_slug'] };
  const dataset = local.dataset_slug;
  if (burnAlertDataset(dataset) === ENVIRONMENT_WIDE)
    return {
      file: f.file,
      kind: f.kind,
      dataset,
      reasons: ['definitions are kept per dataset: none is environment-wide'],
    };
  try {
    return { file: f.file, kind: 'definitions', dataset, local, map: await reads.definitions(dataset) };
  } catch (e) {
    if (!isServiceNotFound(e)) throw e;
    return { file: f.file, kind: f.kind, dataset, reasons: [`the service has no dataset ${dataset}`], missing: true };
  }
}

/**
 * Each file compared with the service. A read the service refuses otherwise than with 404 blocks the file with
 * its words; a cancelled plan rejects.
 */
export async function compareSloFiles(
  files: readonly SloPlanFile[],
  service: SloReads,
  pool: PacedPool,
  o: { matchByName: boolean; signal?: AbortSignal },
): Promise<SloCompared[]> {
  return withoutAmbiguity(await compareEachSloFile(files, service, pool, o));
}

/**
 * Each file compared with the service on its own, before two files of one object are told apart
 * (withoutAmbiguity): the editor's drift keeps these and settles the files of one object again when one changes.
 */
export async function compareEachSloFile(
  files: readonly SloPlanFile[],
  service: SloReads,
  pool: PacedPool,
  o: { matchByName: boolean; signal?: AbortSignal },
): Promise<SloCompared[]> {
  const reads = new Reads(service, pool, o.signal);
  return Promise.all(
    files.map(async (f): Promise<SloCompared> => {
      if (f.text === undefined) return { file: f.file, kind: f.kind, reasons: [f.problem ?? 'it could not be read'] };
      const local = jsonObjectOf(f.text);
      if (local === undefined) return { file: f.file, kind: f.kind, reasons: ['it is not a JSON object'] };
      try {
        return f.kind === 'burn-alert'
          ? await compareBurnAlertFile(f, local, reads, o.matchByName)
          : await compareDefinitionsFile(f, local, reads);
      } catch (e) {
        if (o.signal?.aborted === true) throw e;
        return { file: f.file, kind: f.kind, reasons: [`it could not be compared with the service: ${messageOf(e)}`] };
      }
    }),
  );
}

/** What one object of the service a compared file updates is known by: two files of one key are ambiguous. */
export const sloObjectKey = (c: SloCompared): string | undefined =>
  'reasons' in c ? undefined : c.kind === 'burn-alert' ? `a\u0000${c.alert.id}` : `d\u0000${c.dataset}`;

/**
 * Two files of one burn alert or of one dataset's definitions: either could be meant, so neither is planned.
 * `nameOf`: how the reason names the other files to a person (the plan's names are already theirs).
 */
export function withoutAmbiguity(
  compared: readonly SloCompared[],
  nameOf: (file: string) => string = (file) => file,
): SloCompared[] {
  const keyOf = sloObjectKey;
  const byKey = new Map<string, string[]>();
  for (const c of compared) {
    const key = keyOf(c);
    if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), c.file]);
  }
  return compared.map((c) => {
    const key = keyOf(c);
    const files = key === undefined ? [] : (byKey.get(key) ?? []);
    if (files.length < 2 || 'reasons' in c) return c;
    const what = c.kind === 'burn-alert' ? `the burn alert ${c.alert.id}` : `the definitions of ${c.dataset}`;
    const others = files
      .filter((f) => f !== c.file)
      .map(nameOf)
      .join(', ');
    return {
      file: c.file,
      kind: c.kind,
      dataset: c.dataset,
      reasons: [`${others} also holds ${what}: keep it in one file`],
    };
  });
}

/** Whether a compared burn alert file names a recipient by type and target: the team's list is then needed. */
export const sloHoldsReference = (compared: readonly SloCompared[]): boolean =>
  compared.some((c) => c.kind === 'burn-alert' && 'local' in c && holdsReference(c.local.recipients));

/**
 * Each burn alert's recipients named by type and target given the team's id (`team` undefined: the list was not
 * read); one the team does not answer with one recipient makes the file one that cannot be planned.
 */
export function sloReferencesResolved(
  compared: readonly SloCompared[],
  team: TeamRecipients | undefined,
): SloCompared[] {
  return compared.map((c) => {
    if ('reasons' in c || c.kind !== 'burn-alert' || !holdsReference(c.local.recipients)) return c;
    const r = resolveRecipients(c.local.recipients, team);
    const reasons = refusalsAgainst(r.refusals, c.alert.recipients, false).map((f) => f.reason);
    if (reasons.length > 0) return { file: c.file, kind: c.kind, dataset: c.dataset, reasons };
    return { ...c, local: { ...c.local, recipients: r.recipients }, references: r.references };
  });
}

/** A file compared with the service's object it updates (not one that could not be). */
export type SloMatched = Exclude<SloCompared, { reasons: string[] }>;

/** A burn alert's differences; matched by name, the file's SLO id is another environment's: the alert's stands. */
function burnAlertDifferences(c: Extract<SloMatched, { kind: 'burn-alert' }>): Difference[] {
  const local = c.matchedBy === 'name' && isRecord(c.alert.slo) ? { ...c.local, slo: c.alert.slo } : c.local;
  return compareBurnAlerts(local, { ...c.alert, dataset_slug: c.dataset });
}

/** How the file differs from the service's object (service value -> file value): what plan updates, drift reports. */
export function sloDifferences(c: SloMatched): Difference[] {
  return c.kind === 'burn-alert'
    ? burnAlertDifferences(c)
    : compareDefinitions(c.local, { dataset_slug: c.dataset, definitions: c.map });
}

/** The object's name in reports: the alert's SLO, type and threshold, or whose definitions. */
export const sloLabel = (c: SloMatched): string =>
  c.kind === 'burn-alert' ? burnAlertLabel(c.sloName, c.local) : `definitions of ${c.dataset}`;

const recipientIdsOf = (v: unknown): string[] =>
  Array.isArray(v) ? v.flatMap((r) => (isRecord(r) && typeof r.id === 'string' && r.id !== '' ? [r.id] : [])) : [];

/** The recipient ids of a file the team's list does not hold (one the alert already holds never is). */
function unknownRecipients(local: Json, alert: Json, known: ReadonlySet<string> | undefined): string[] {
  if (known === undefined) return [];
  const held = new Set(recipientIdsOf(alert.recipients));
  const ids = [...new Set(recipientIdsOf(local.recipients))].filter((id) => !known.has(id) && !held.has(id));
  return ids.map((id) => `recipient ${JSON.stringify(id)} is not one of the team's recipients`);
}

export interface SloEntries {
  changes: SloUpdate[];
  blocked: BlockedTrigger[];
  unchanged: number;
}

/** The entries of the compared files, with the gates' reasons (lint by file, the team's recipients). */
export function sloEntries(
  compared: readonly SloCompared[],
  gates: { blockedBy?: (file: string) => readonly string[]; recipients?: ReadonlySet<string> } = {},
): SloEntries {
  const out: SloEntries = { changes: [], blocked: [], unchanged: 0 };
  for (const c of compared) {
    if ('reasons' in c) {
      out.blocked.push({
        kind: c.kind,
        file: c.file,
        index: -1,
        ...(c.dataset === undefined ? {} : { dataset: c.dataset }),
        reasons: c.reasons,
      });
      continue;
    }
    const change = c.kind === 'burn-alert' ? burnAlertChange(c) : definitionsChange(c);
    if (change === undefined) {
      out.unchanged++;
      continue;
    }
    const reasons = [
      ...(gates.blockedBy?.(c.file) ?? []),
      ...(c.kind === 'burn-alert' ? unknownRecipients(c.local, c.alert, gates.recipients) : []),
    ];
    if (reasons.length === 0) out.changes.push(change);
    else out.blocked.push({ kind: c.kind, file: c.file, index: -1, dataset: c.dataset, name: change.name, reasons });
  }
  return out;
}

function burnAlertChange(c: Extract<SloMatched, { kind: 'burn-alert' }>): BurnAlertUpdate | undefined {
  const differences = sloDifferences(c);
  if (differences.length === 0) return undefined;
  return {
    kind: 'burn-alert',
    action: 'update',
    file: c.file,
    index: -1,
    dataset: c.dataset,
    name: sloLabel(c),
    id: c.alert.id,
    matchedBy: c.matchedBy,
    differences,
    body: burnAlertBody(c.local),
    service: burnAlertVersion(c.alert),
    ...(c.references === undefined || c.references.length === 0 ? {} : { recipientReferences: c.references }),
  };
}

function definitionsChange(c: Extract<SloMatched, { kind: 'definitions' }>): DefinitionsUpdate | undefined {
  const differences = sloDifferences(c);
  if (differences.length === 0) return undefined;
  return {
    kind: 'definitions',
    action: 'update',
    file: c.file,
    index: -1,
    dataset: c.dataset,
    name: sloLabel(c),
    id: c.dataset,
    matchedBy: 'id',
    differences,
    body: definitionsBody(c.local, c.map),
    service: definitionsVersion(c.map),
  };
}
