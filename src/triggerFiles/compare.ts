// The semantic comparison of a local trigger with the service's: both in canonical form (normalize.ts),
// compared member by member. No vscode import.
import { normalize } from './normalize';

/** One member that differs: its path, and its value on each side (undefined where it is left out). */
export interface Difference {
  /** `threshold.value`, `query.calculations[0].op`, `recipients`. */
  path: string;
  /** The top-level member the difference is in (`threshold`). */
  member: string;
  /** The service's value (the old one). */
  service: unknown;
  /** The file's value (the new one). */
  local: unknown;
}

type Segment = string | number;

/** Both sides as drift compares them: without the id they were matched by, recipients by id alone. */
const COMPARED = { keepId: false, recipientsById: true } as const;

/**
 * Members the service fills in with a value of its own choosing when a file leaves them out: compared
 * only when the file gives them. (The granularity of a metrics dataset's query.)
 */
const FILLED_BY_SERVICE = new Set(['query.granularity']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function pathText(path: readonly Segment[]): string {
  let out = '';
  for (const s of path) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

/** Deep equality of JSON values (object member order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (isRecord(a)) {
    if (!isRecord(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

function walk(service: unknown, local: unknown, path: Segment[], out: Difference[]): void {
  if (sameJson(service, local)) return;
  const text = pathText(path);
  if (local === undefined && FILLED_BY_SERVICE.has(text)) return;
  if (isRecord(service) && isRecord(local)) {
    const keys = [...Object.keys(local), ...Object.keys(service).filter((k) => !Object.hasOwn(local, k))];
    for (const k of keys) walk(service[k], local[k], [...path, k], out);
    return;
  }
  if (Array.isArray(service) && Array.isArray(local) && service.length === local.length) {
    service.forEach((v, i) => walk(v, local[i], [...path, i], out));
    return;
  }
  out.push({ path: text, member: String(path[0] ?? ''), service, local });
}

/** The differences between a local trigger and the service's trigger it was matched with (ids aside). */
export function compareTriggers(local: unknown, service: unknown): Difference[] {
  const out: Difference[] = [];
  walk(normalize(service, COMPARED), normalize(local, COMPARED), [], out);
  return out;
}

/** The top-level members that differ, each once, in file order: `threshold, recipients`. */
export function differingMembers(differences: readonly Difference[]): string[] {
  return [...new Set(differences.map((d) => d.member))];
}

/** A value in a one-line report: compact JSON, cut at `max` characters; "(none)" for a member left out. */
export function valueText(v: unknown, max = 60): string {
  if (v === undefined) return '(none)';
  const json = JSON.stringify(v);
  return json.length > max ? `${json.slice(0, max - 1)}…` : json;
}

/** `threshold.value: 5 -> 10`: the service's value, then the file's. */
export function differenceText(d: Difference, max = 60): string {
  return `${d.path}: ${valueText(d.service, max)} -> ${valueText(d.local, max)}`;
}
