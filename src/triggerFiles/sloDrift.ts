// Drift of burn alert and definitions files (docs/SLO-FILES.md): each file compared with the service's object
// exactly as a plan compares it (sloPlan.ts: the alert read by id or found by its SLO's name, the definitions
// read with the empty update), then said in sync, differing member by member, or not comparable and why.
// No vscode import.
import type { Difference } from './compare';
import type { DriftCounts } from './drift';
import type { PlanKind } from './planKinds';
import type { PacedPool } from './pool';
import { refusalsAgainst, resolveRecipients, uncomparedReason, type TeamRecipients } from './recipientRefs';
import {
  compareSloFiles,
  sloDifferences,
  sloHoldsReference,
  sloLabel,
  type SloCompared,
  type SloMatched,
  type SloPlanFile,
  type SloReads,
} from './sloPlan';

/** One burn alert or definitions file against the service. */
export interface SloFileDrift {
  file: string;
  kind: Exclude<PlanKind, 'trigger'>;
  status: 'in-sync' | 'differs' | 'unknown';
  dataset?: string;
  /** The object's name: the alert's SLO, type and threshold, or whose definitions. */
  name?: string;
  /** The burn alert's id, or the dataset of the definitions. */
  id?: string;
  /** Why it could not be compared (status `unknown`); for one that differs, which member could not be. */
  reason?: string;
  /** Not compared because the service has no such alert or dataset: a file cannot create one. */
  missing?: true;
  differences: Difference[];
}

/** Each file against the service; a read refused otherwise than with 404 makes that file not comparable. */
export async function sloDrift(
  files: readonly SloPlanFile[],
  service: SloReads,
  pool: PacedPool,
  o: { matchByName: boolean; signal?: AbortSignal; team?: () => Promise<TeamRecipients | undefined> },
): Promise<SloFileDrift[]> {
  const compared = await compareSloFiles(files, service, pool, o);
  // The team's list is read only when an alert names a recipient by type and target; undefined: not listed.
  const team = sloHoldsReference(compared) && o.team !== undefined ? { team: await o.team() } : undefined;
  return compared.map((c) => sloFileDrift(c, team));
}

/**
 * A file compared (compareSloFiles) as drift says it: in sync, the members that differ, or why not compared. With
 * `resolving`, a burn alert's recipients named by type and target are compared by what they resolve to in its
 * team (undefined: the list could not be read); without, as the service's own words name them.
 */
export function sloFileDrift(c: SloCompared, resolving?: { team: TeamRecipients | undefined }): SloFileDrift {
  const base = { file: c.file, kind: c.kind, ...(c.dataset === undefined ? {} : { dataset: c.dataset }) };
  if ('reasons' in c)
    return {
      ...base,
      status: 'unknown',
      reason: c.reasons.join('; '),
      ...(c.missing === true ? { missing: true as const } : {}),
      differences: [],
    };
  const id = c.kind === 'burn-alert' ? c.alert.id : c.dataset;
  if (resolving === undefined) {
    const differences = sloDifferences(c);
    return { ...base, status: differences.length === 0 ? 'in-sync' : 'differs', name: sloLabel(c), id, differences };
  }
  return { ...base, name: sloLabel(c), id, ...sloCompared(c, resolving.team) };
}

/** The counts of the triggers with those of the burn alert and definitions files added. */
export function withSloCounts(counts: DriftCounts, sloFiles: readonly SloFileDrift[]): DriftCounts {
  const of = (status: SloFileDrift['status']) => sloFiles.filter((f) => f.status === status).length;
  return {
    ...counts,
    inSync: counts.inSync + of('in-sync'),
    differs: counts.differs + of('differs'),
    unknown: counts.unknown + of('unknown'),
  };
}

/** A matched file's differences, a burn alert's references resolved first; unresolved recipients not compared. */
function sloCompared(
  c: SloMatched,
  team: TeamRecipients | undefined,
): Pick<SloFileDrift, 'status' | 'differences' | 'reason'> {
  const resolved = c.kind === 'burn-alert' ? resolveRecipients(c.local.recipients, team) : undefined;
  const why = uncomparedReason(
    refusalsAgainst(resolved?.refusals ?? [], c.kind === 'burn-alert' ? c.alert.recipients : undefined, true),
  );
  if (why === undefined) {
    const differences =
      c.kind === 'burn-alert' && resolved !== undefined
        ? sloDifferences({ ...c, local: { ...c.local, recipients: resolved.recipients } })
        : sloDifferences(c);
    return { status: differences.length === 0 ? 'in-sync' : 'differs', differences };
  }
  const all = sloDifferences(c);
  const differences = all.filter((d) => d.member !== 'recipients');
  if (differences.length === all.length)
    return { status: differences.length === 0 ? 'in-sync' : 'differs', differences };
  return { status: differences.length === 0 ? 'unknown' : 'differs', differences, reason: why };
}

/** One object of the service, as a drift entry names it: its kind, dataset and id (or dataset of definitions). */
const objectOf = (d: SloFileDrift): string | undefined =>
  d.id === undefined ? undefined : `${d.kind}\u0000${d.dataset ?? ''}\u0000${d.id}`;

/**
 * `obs drift --applied` of these files: the files last applied against the service, each difference kept unless
 * the service holds what the files now want (a file now in sync with the same object), which is no change made
 * on the service since.
 */
export function sloChangesSince(applied: readonly SloFileDrift[], current: readonly SloFileDrift[]): SloFileDrift[] {
  const wantedNow = new Set(current.filter((d) => d.status === 'in-sync').flatMap((d) => objectOf(d) ?? []));
  return applied.map((d) => {
    const object = objectOf(d);
    return d.status === 'differs' && object !== undefined && wantedNow.has(object)
      ? { ...d, status: 'in-sync' as const, differences: [] }
      : d;
  });
}
