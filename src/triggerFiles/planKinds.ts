// The kinds of file a plan holds (docs/SLO-FILES.md): trigger files, burn alert files and definitions files,
// told apart by their names. Burn alerts and definitions are only ever updated: the service can neither create
// nor delete them. No vscode import.
import type { Difference } from './compare';
import { BURN_ALERT_FILE_SUFFIX, DEFINITIONS_FILE_SUFFIX } from './paths';

export type PlanKind = 'trigger' | 'burn-alert' | 'definitions';

/** What a change to a service object was planned from. */
export interface ServiceVersion {
  updatedAt?: string;
  /** Hash of the object's canonical form (id kept). */
  sha256: string;
}

/** The kind of a file, by its name: `.burn-alert.json`, `.definitions.json`, else a trigger file. */
export function kindOfFile(file: string): PlanKind {
  const lower = file.toLowerCase();
  if (lower.endsWith(BURN_ALERT_FILE_SUFFIX)) return 'burn-alert';
  if (lower.endsWith(DEFINITIONS_FILE_SUFFIX)) return 'definitions';
  return 'trigger';
}

/** The update of one burn alert from its file: the full PUT the burn alert form sends. */
export interface BurnAlertUpdate {
  kind: 'burn-alert';
  action: 'update';
  file: string;
  /** Always -1: a burn alert file holds one alert. */
  index: number;
  /** The dataset the alert's SLO belongs to (`__all__` for an environment-wide SLO). */
  dataset: string;
  /** For people: the SLO's name, the alert's kind and threshold. */
  name: string;
  id: string;
  /** By the file's id, or by the SLO's name, the alert type and (when needed) the threshold. */
  matchedBy: 'id' | 'name';
  differences: Difference[];
  /** alert_type, the members of that type, description ("" when the file has none), recipients by id. */
  body: Record<string, unknown>;
  service: ServiceVersion;
  /** The recipients the file names by type and target, with the ids they resolved to (the body's). */
  recipientReferences?: { type: string; target: string; id: string }[];
}

/** The update of a dataset's definitions from its file: one PATCH of the types that differ. */
export interface DefinitionsUpdate {
  kind: 'definitions';
  action: 'update';
  file: string;
  /** Always -1: a definitions file holds one dataset's map. */
  index: number;
  dataset: string;
  /** For people: `definitions of <dataset>`. */
  name: string;
  /** The service names a dataset's definitions by the dataset alone: its slug. */
  id: string;
  /** Always by the dataset the file names: a dataset's map has no id of its own. */
  matchedBy: 'id';
  differences: Difference[];
  /** Only the types that differ: a column `{ name }`, a type to clear `{ name: "" }`. */
  body: Record<string, unknown>;
  /** The service's map the plan was made from (it has no updated_at). */
  service: ServiceVersion;
}

export type SloUpdate = BurnAlertUpdate | DefinitionsUpdate;
