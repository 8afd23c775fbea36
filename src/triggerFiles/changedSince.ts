// What changed on the service since trigger files were applied to it, for the gate a CI runs before it applies
// newer files: three versions of each trigger, as last applied (the files of the commit last applied), as
// wanted now (the files about to be applied) and as the service holds it. A trigger the service holds as either
// set of files says is no change of anyone else's: as last applied, nobody touched it; as wanted now, it
// already holds what an apply would write (the rest of an apply that stopped halfway, or the same edit made
// twice). Anything else was changed elsewhere (the UI, an API call) and an apply would overwrite it: it is
// reported as drift against the files last applied. No vscode import; no service call.
import {
  datasetsOfFiles,
  driftOfFile,
  fileStatus,
  onlyOnService,
  type FileDrift,
  type ServiceIndex,
  type ServiceTrigger,
  type TriggerDrift,
} from './drift';
import type { LocalFile, LocalTrigger } from './localFiles';

/** Read trigger files by the name a report gives them. */
export type ReadFiles = ReadonlyMap<string, LocalFile>;

export interface ServiceChanges {
  /** The files last applied, each trigger in sync unless the service changed it elsewhere. */
  files: FileDrift[];
  /** The service's triggers of the files' datasets that neither set of files holds as the service does. */
  onlyOnService: ServiceTrigger[];
}

/** The names a trigger may be known by: its id, and its dataset and name (a file's, or a planned change's). */
export function identities(t: Pick<LocalTrigger, 'id' | 'dataset' | 'name'>): string[] {
  const out = t.id === undefined ? [] : [`id\u0000${t.id}`];
  return t.dataset === undefined || t.name === undefined ? out : [...out, `name\u0000${t.dataset}\u0000${t.name}`];
}

/** What the files wanted now say of the service: the triggers it holds as they do, and those it lacks. */
function wanted(current: ReadFiles, index: ServiceIndex): { held: Set<string>; lacking: Set<string> } {
  const held = new Set<string>();
  const lacking = new Set<string>();
  for (const [file, read] of current) {
    if (!read.ok) continue;
    driftOfFile(file, read, index).triggers.forEach((t, i) => {
      if (t.status === 'in-sync' && t.service !== undefined) held.add(t.service.id);
      const local = read.triggers[i];
      if (t.status === 'local-only' && local !== undefined) for (const k of identities(local)) lacking.add(k);
    });
  }
  return { held, lacking };
}

/** Whether a trigger of the files last applied that drift finds changed is one nobody else changed. */
function settled(
  t: TriggerDrift,
  local: LocalTrigger | undefined,
  now: { held: Set<string>; lacking: Set<string> },
): boolean {
  // Changed to what the files now want: an apply would write nothing to it.
  if (t.status === 'differs') return t.service !== undefined && now.held.has(t.service.id);
  // Gone from the service: as the files now want unless they still hold it.
  if (t.status === 'local-only') return local !== undefined && !identities(local).some((k) => now.lacking.has(k));
  return false;
}

const inSync = (t: TriggerDrift): TriggerDrift => ({
  index: t.index,
  name: t.name,
  dataset: t.dataset,
  service: t.service,
  status: 'in-sync',
  differences: [],
});

/**
 * The service's changes since the files `applied` were applied that the files `current` do not hold, the
 * service's lists in `index` (read for the datasets of both). Linear in the files and the listed triggers.
 */
export function serviceChangesSince(applied: ReadFiles, current: ReadFiles, index: ServiceIndex): ServiceChanges {
  const now = wanted(current, index);
  const drifts = [...applied].map(([file, read]) => ({ read, drift: driftOfFile(file, read, index) }));
  const files = drifts.map(({ read, drift }) => {
    if (!read.ok) return drift;
    const triggers = drift.triggers.map((t, i) => (settled(t, read.triggers[i], now) ? inSync(t) : t));
    return { ...drift, status: fileStatus(triggers), triggers };
  });
  // A trigger created elsewhere in a dataset of either set of files: an apply with --prune would delete it.
  const datasets = new Set([...datasetsOfFiles(applied.values()), ...datasetsOfFiles(current.values())]);
  const unheld = onlyOnService(
    drifts.map((d) => d.drift),
    index,
    datasets,
  ).filter((t) => !now.held.has(t.id));
  return { files, onlyOnService: unheld };
}
