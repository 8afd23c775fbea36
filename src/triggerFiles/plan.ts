// The plan: what applying the trigger files to the service would change, trigger by trigger, made from the
// same comparison drift makes (so a file right after a pull plans nothing). It records what each change
// was planned from (the service's updated_at and a hash of its content, a hash of each file) so that an
// apply can refuse what changed since. No vscode import; no service call: the caller lists first.
import { createHash } from 'node:crypto';
import { compareTriggers, type Difference } from './compare';
import {
  datasetOf,
  datasetsOfFiles,
  driftOfFile,
  onlyOnService,
  recipientsUncompared,
  type FileDrift,
  type ServiceIndex,
  type ServiceTrigger,
  type TriggerDrift,
} from './drift';
import { ambiguities, placeKey } from './planAmbiguity';
import { nestingProblem } from './depth';
import type { LocalFile, LocalTrigger } from './localFiles';
import { canonicalDatasetSlug, normalize, TRIGGER_FILE_MEMBERS } from './normalize';
import type { PlanKind, ServiceVersion, SloUpdate } from './planKinds';
import { refusalsAgainst, type ResolvedReference } from './recipientRefs';

/** Where a plan is applied: the service, and which key (never the key itself, see keyFingerprint). */
export interface PlanTarget {
  baseUrl: string;
  /** The connection's name in the editor, for people; the CLI leaves it out. */
  connection?: string;
  /** A salted hash of the configuration key (keyFingerprint): another key is another environment. */
  key: KeyFingerprint;
}

export interface KeyFingerprint {
  salt: string;
  sha256: string;
}

export type { ServiceVersion } from './planKinds';

interface Located {
  file: string;
  /** Place in a file holding an array; -1 for a file of one trigger. */
  index: number;
  dataset: string;
  name: string;
}

/** A change to a service trigger. */
export type TriggerChange =
  /** `renameOf`: a trigger this plan deletes that holds the same but the name: probably this one, renamed in its file. */
  | (Located & {
      kind: 'trigger';
      action: 'create';
      body: Record<string, unknown>;
      renameOf?: { id: string; name: string };
      recipientReferences?: ResolvedReference[];
    })
  | (Located & {
      kind: 'trigger';
      action: 'update';
      id: string;
      matchedBy: 'id' | 'name';
      differences: Difference[];
      body: Record<string, unknown>;
      service: ServiceVersion;
      /** The recipients the file names by type and target, with the ids they resolved to (the body's). */
      recipientReferences?: ResolvedReference[];
    })
  | { kind: 'trigger'; action: 'delete'; dataset: string; id: string; name: string; service: ServiceVersion };

/** A change of any kind: burn alerts and definitions are only ever updated. */
export type PlannedChange = TriggerChange | SloUpdate;

export interface BlockedTrigger {
  kind: PlanKind;
  /** Absent on deletes withheld for a dataset. */
  file?: string;
  index: number;
  name?: string;
  dataset?: string;
  reasons: string[];
}

export type PlanScope =
  /** Every change of the files; never a delete. */
  | { kind: 'files' }
  /** The changes of one file, or of one trigger of it (its index; -1 for a file of one trigger). */
  | { kind: 'trigger'; file: string; index?: number }
  /** The delete of one service trigger that no file holds (every file is read: one of them may hold it). */
  | { kind: 'delete'; id: string; dataset: string }
  /** Every change of the files and the deletes of the service triggers of their datasets that no file holds. */
  | { kind: 'all' };

/** What a plan was made of, besides the files and the service: planning again with the same inputs must give the same changes. */
export interface PlanInputs {
  scope: PlanScope;
  /** A column the service does not list (a derived column) does not block. */
  allowUnknownColumns: boolean;
  /** The files' ids are not this service's: each trigger is matched by dataset and name, and no created id is written back. */
  matchByName: boolean;
  /** The CLI: the paths planned, as given (relative to the folder it ran in), the metrics datasets the linter was told of, the largest file read. */
  paths?: string[];
  metricsDatasets?: string[];
  maxBytes?: number;
  /**
   * The environment the files were planned for (docs/ENVIRONMENTS.md): its name, the environments file as the
   * plan names it and the hash of its bytes. Planning again must read the same environment from the same file.
   */
  environment?: { name: string; file: string; sha256: string };
}

export interface Plan {
  format: 'obs-trigger-plan';
  version: 3;
  createdAt: string;
  target: PlanTarget;
  inputs: PlanInputs;
  /** Deletes were asked for: service triggers of the datasets the files cover that no file holds. */
  prune: boolean;
  /** Every file the plan read, with the hash of its bytes as read. */
  files: { file: string; sha256: string }[];
  changes: PlannedChange[];
  blocked: BlockedTrigger[];
  unchanged: number;
}

export interface PlanFile {
  file: string;
  /** The file's text as read (its hash is recorded). */
  text: string;
  read: LocalFile;
  /**
   * Named on its own (a file path given), not found by walking a folder or a glob: its dataset's other triggers
   * are not deleted on its account, as a targeted plan never deletes what is not targeted.
   */
  named?: boolean;
  /** The hash recorded of the file's bytes, when `text` is not them (the file as an environment sees it). */
  sha256?: string;
}

export interface PlanInput {
  files: readonly PlanFile[];
  index: ServiceIndex;
  target: PlanTarget;
  /** What is planned; deletes only with a scope that asks for them. */
  inputs: PlanInputs;
  now: Date;
  /** Why a trigger of a file must not be written (lint errors, unknown columns), by file and index. */
  blockedBy?: (file: string, index: number) => readonly string[];
  /** The ids of the team's recipients, when the service lists them: other ids block the trigger. */
  recipients?: ReadonlySet<string>;
  /** Entries blocked before any file is compared (an environment's override that names no trigger). */
  blocked?: readonly BlockedTrigger[];
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A key's fingerprint: a random salt and the hash of salt and key. The key cannot be read back from it. */
export function keyFingerprint(key: string, salt: string): KeyFingerprint {
  return { salt, sha256: sha256(`${salt}\u0000${key}`) };
}

export function sameKey(fingerprint: KeyFingerprint, key: string): boolean {
  return keyFingerprint(key, fingerprint.salt).sha256 === fingerprint.sha256;
}

/** Whether a scope plans deletes. */
const prunes = (scope: PlanScope): boolean => scope.kind === 'all' || scope.kind === 'delete';

/** What a service trigger was when it was looked at: its updated_at and the hash of its canonical form. */
export function serviceVersion(t: ServiceTrigger): ServiceVersion {
  const updatedAt = typeof t.updated_at === 'string' ? t.updated_at : undefined;
  return { ...(updatedAt !== undefined ? { updatedAt } : {}), sha256: sha256(JSON.stringify(normalize(t))) };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const KNOWN = new Set<string>([...TRIGGER_FILE_MEMBERS, 'triggered', 'created_at', 'updated_at']);

/**
 * The body a write sends for a file's trigger: its canonical form without id and dataset_slug, recipients
 * named by id alone, `disabled` always given (a replace that leaves it out keeps the service's). For a
 * replace of `service`: a baseline the file does not have is cleared with `{}` (leaving it out is not
 * documented to clear it), and members the file format does not hold (e.g. auto_investigate) are kept as
 * the service has them, since a replace resets every member it does not send.
 */
export function writeBody(local: Record<string, unknown>, service?: ServiceTrigger): Record<string, unknown> {
  const canonical = normalize(local, { keepId: false, recipientsById: true });
  const body: Record<string, unknown> = isRecord(canonical) ? { ...canonical } : {};
  delete body.dataset_slug;
  body.disabled = body.disabled ?? false;
  if (service === undefined) return body;
  if (
    isRecord(service.baseline_details) &&
    Object.keys(service.baseline_details).length > 0 &&
    body.baseline_details === undefined
  )
    body.baseline_details = {};
  for (const [member, value] of Object.entries(service)) {
    if (!KNOWN.has(member) && value !== null && value !== undefined && !Object.hasOwn(body, member))
      body[member] = value;
  }
  return body;
}

/** What the service would hold after writing `body` to `dataset`, in the form compareTriggers reads. */
export function expectedAfterWrite(body: Record<string, unknown>, dataset: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body, dataset_slug: dataset };
  if (isRecord(out.baseline_details) && Object.keys(out.baseline_details).length === 0) delete out.baseline_details;
  return out;
}

const recipientIdsOf = (recipients: unknown): string[] =>
  Array.isArray(recipients)
    ? recipients.flatMap((r) => (isRecord(r) && typeof r.id === 'string' && r.id !== '' ? [r.id] : []))
    : [];

/**
 * The recipient ids of a file the team's list does not hold. An id the service's trigger already holds is
 * never one: the list leaves out recipients such as markers (type `marker`) that triggers do hold.
 */
function unknownRecipients(
  t: LocalTrigger,
  known: ReadonlySet<string> | undefined,
  service?: ServiceTrigger,
): string[] {
  if (known === undefined) return [];
  const held = new Set(recipientIdsOf(service?.recipients));
  const ids = recipientIdsOf(t.value.recipients).filter((id) => !known.has(id) && !held.has(id));
  return [...new Set(ids)].map((id) => `recipient ${JSON.stringify(id)} is not one of the team's recipients`);
}

/** The change one compared trigger asks for, or why it cannot be planned; undefined when in sync. */
/** Where a file's trigger is, for a blocked entry. */
const where = (file: string, t: LocalTrigger) => ({
  kind: 'trigger' as const,
  file,
  index: t.index,
  ...(t.name !== undefined ? { name: t.name } : {}),
  ...(t.dataset !== undefined ? { dataset: t.dataset } : {}),
});

function changeOf(
  file: string,
  t: LocalTrigger,
  drift: TriggerDrift,
  input: PlanInput,
): TriggerChange | BlockedTrigger | undefined {
  // A reference the team does not answer with one recipient blocks even a trigger in sync: the file is wrong.
  const refused = refusalsAgainst(t.resolution?.refusals ?? [], drift.service?.recipients, false).map((f) => f.reason);
  if (drift.status === 'in-sync' && refused.length === 0) return undefined;
  const at = where(file, t);
  const reasons = [
    ...(input.blockedBy?.(file, t.index) ?? []),
    ...refused,
    ...unknownRecipients(t, input.recipients, drift.service),
  ];
  // Recipients not compared for a reference are blocked by its own reason, already among `reasons`.
  if (
    drift.status === 'unknown' &&
    drift.reason !== undefined &&
    drift.reason === recipientsUncompared(t, drift.service)
  )
    return { ...at, reasons };
  if (drift.status === 'unknown')
    return { ...at, reasons: [drift.reason ?? 'it could not be compared with the service', ...reasons] };
  if (t.dataset === undefined || t.name === undefined)
    return { ...at, reasons: ['it names no dataset_slug or no name', ...reasons] };
  const listing = input.index.listing(t.dataset);
  if (drift.status === 'local-only' && (t.id !== undefined || listing?.state !== 'listed')) {
    const why =
      t.id !== undefined
        ? `${drift.reason ?? ''}; remove the id from the file to create it anew`
        : (drift.reason ?? '');
    return { ...at, reasons: [why, ...reasons] };
  }
  if (reasons.length > 0) return { ...at, reasons };
  const references = t.resolution?.references ?? [];
  const located = {
    kind: 'trigger' as const,
    file,
    index: t.index,
    dataset: t.dataset,
    name: t.name,
    ...(references.length > 0 ? { recipientReferences: references } : {}),
  };
  const service = drift.service;
  if (drift.status === 'local-only' || service === undefined)
    return { ...located, action: 'create', body: writeBody(t.value) };
  return {
    ...located,
    action: 'update',
    id: service.id,
    matchedBy: t.id === service.id ? 'id' : 'name',
    differences: drift.differences,
    body: writeBody(t.value, service),
    service: serviceVersion(service),
  };
}

/**
 * The deletes a prune asks for: service triggers of the datasets the files cover that no file holds. A file
 * that could not be read may hold one of them, so it withholds every delete; a blocked trigger withholds
 * the deletes of its dataset. What is withheld is said, as a blocked entry.
 */
function deletes(
  drifts: readonly FileDrift[],
  index: ServiceIndex,
  blocked: BlockedTrigger[],
  datasets: ReadonlySet<string>,
): TriggerChange[] {
  const unread = blocked.find((b) => b.dataset === undefined && b.file !== undefined);
  const withheld = new Set(blocked.flatMap((b) => (b.dataset !== undefined ? [b.dataset] : [])));
  const out: TriggerChange[] = [];
  const held = new Map<string, string[]>();
  for (const t of onlyOnService(drifts, index, datasets)) {
    const dataset = datasetOf(t, '');
    const tooDeep = nestingProblem(t, `${JSON.stringify(t.name)} (${t.id})`);
    if (tooDeep !== undefined) {
      blocked.push({ kind: 'trigger', index: -1, dataset, reasons: [`not deleted: ${tooDeep}`] });
      continue;
    }
    if (unread === undefined && !withheld.has(dataset)) {
      out.push({ kind: 'trigger', action: 'delete', dataset, id: t.id, name: t.name, service: serviceVersion(t) });
      continue;
    }
    const names = held.get(dataset) ?? [];
    held.set(dataset, [...names, JSON.stringify(t.name)]);
  }
  for (const [dataset, names] of held) {
    const why =
      unread?.file !== undefined
        ? `${unread.file} could not be planned and may hold them`
        : `a trigger of ${dataset} could not be planned and may be one of them`;
    blocked.push({ kind: 'trigger', index: -1, dataset, reasons: [`not deleted: ${names.join(', ')} (${why})`] });
  }
  return out;
}

const isBlocked = (c: TriggerChange | BlockedTrigger): c is BlockedTrigger => 'reasons' in c;

/**
 * A create and a delete of one dataset whose triggers differ only in their name are probably one trigger renamed
 * in a file that has no id: the create says so, and a reviewer can give the file the id to rename it in place.
 */
function markRenames(changes: TriggerChange[], input: PlanInput): void {
  const deleted = changes.flatMap((c) => (c.action === 'delete' ? [c] : []));
  if (deleted.length === 0) return;
  const locals = new Map(
    input.files.flatMap((f) =>
      f.read.ok ? f.read.triggers.map((t) => [`${f.file}\u0000${t.index}`, t] as const) : [],
    ),
  );
  changes.forEach((c, i) => {
    if (c.action !== 'create') return;
    const local = locals.get(`${c.file}\u0000${c.index}`);
    const renamed = deleted.find((d) => {
      const service = input.index.get(d.id);
      return (
        d.dataset === c.dataset &&
        service !== undefined &&
        local !== undefined &&
        compareTriggers(local.value, service).every((x) => x.member === 'name')
      );
    });
    if (renamed !== undefined) changes[i] = { ...c, renameOf: { id: renamed.id, name: renamed.name } };
  });
}

/** The plan of the given files against the service's lists. Linear in the files and the listed triggers. */
export function makePlan(input: PlanInput): Plan {
  const changes: TriggerChange[] = [];
  const blocked: BlockedTrigger[] = [...(input.blocked ?? [])];
  const drifts = input.files.map((f) => driftOfFile(f.file, f.read, input.index));
  const ambiguous = ambiguities(input.files, drifts, datasetsOfFiles(input.files.map((f) => f.read)));
  let unchanged = 0;
  input.files.forEach((f, n) => {
    if (!f.read.ok) {
      blocked.push({ kind: 'trigger', file: f.file, index: -1, reasons: [f.read.reason] });
      return;
    }
    f.read.triggers.forEach((t, i) => {
      const d = drifts[n]?.triggers[i];
      const clash = ambiguous.get(placeKey(f.file, t.index));
      const change =
        clash !== undefined
          ? { ...where(f.file, t), reasons: clash }
          : d === undefined
            ? undefined
            : changeOf(f.file, t, d, input);
      if (change === undefined) unchanged++;
      else if (isBlocked(change)) blocked.push(change);
      else changes.push(change);
    });
  });
  const prune = prunes(input.inputs.scope);
  // Deletes only in the datasets of files found by a walk: a file named on its own targets itself.
  const walked = datasetsOfFiles(input.files.filter((f) => f.named !== true).map((f) => f.read));
  if (prune) changes.push(...deletes(drifts, input.index, blocked, walked));
  markRenames(changes, input);
  return {
    format: 'obs-trigger-plan',
    version: 3,
    createdAt: input.now.toISOString(),
    target: input.target,
    inputs: input.inputs,
    prune,
    files: input.files.map((f) => ({ file: f.file, sha256: f.sha256 ?? sha256(f.text) })),
    changes,
    blocked,
    unchanged,
  };
}

export interface PlanCounts {
  create: number;
  update: number;
  delete: number;
  blocked: number;
  unchanged: number;
}

export function planCounts(plan: Plan): PlanCounts {
  const c: PlanCounts = { create: 0, update: 0, delete: 0, blocked: plan.blocked.length, unchanged: plan.unchanged };
  for (const change of plan.changes) c[change.action]++;
  return c;
}

/** Whether the service trigger read just now is still what the change was planned from. */
export function unchangedSince(version: ServiceVersion, now: ServiceTrigger): boolean {
  const current = serviceVersion(now);
  return current.sha256 === version.sha256 && current.updatedAt === version.updatedAt;
}

/** The differences between what a write sent and what the service then holds (its rewrites aside). */
export function storedDifferently(
  body: Record<string, unknown>,
  dataset: string,
  readBack: ServiceTrigger,
): Difference[] {
  return compareTriggers(expectedAfterWrite(body, canonicalDatasetSlug(dataset)), readBack);
}
