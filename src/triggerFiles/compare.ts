// The semantic comparison of a local trigger with the service's: both in canonical form (normalize.ts),
// compared member by member, with the service's rewrites of a stored trigger (docs/TRIGGER-FILES.md,
// Drift) taken as no change. No vscode import.
import { normalize, TRIGGER_DEFAULTS } from './normalize';

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

const hasId = (r: Record<string, unknown>): boolean => typeof r.id === 'string' && r.id !== '';
const sameAddress = (a: Record<string, unknown>, b: Record<string, unknown>): boolean =>
  typeof a.type === 'string' &&
  typeof a.target === 'string' &&
  a.target !== '' &&
  a.type === b.type &&
  a.target === b.target;

/**
 * The two recipient lists with each recipient one side names by type and target, and the other by id
 * with the same type and target, given that id on both sides: the service answers a recipient sent as
 * type and target with the id it gave it (service facts). Two different ids are never one recipient.
 */
export function pairedRecipients(local: unknown, service: unknown): [unknown, unknown] {
  if (!Array.isArray(local) || !Array.isArray(service)) return [local, service];
  const l = local.map((r: unknown) => (isRecord(r) ? { ...r } : r));
  const s = service.map((r: unknown) => (isRecord(r) ? { ...r } : r));
  const localIds = new Set(l.flatMap((r) => (isRecord(r) && hasId(r) ? [r.id] : [])));
  const serviceIds = new Set(s.flatMap((r) => (isRecord(r) && hasId(r) ? [r.id] : [])));
  // A recipient the other side names by its id is that one already: it is not paired by address.
  const open = (r: unknown, otherIds: ReadonlySet<unknown>): r is Record<string, unknown> =>
    isRecord(r) && !(hasId(r) && otherIds.has(r.id));
  const free = s.filter((r) => open(r, localIds));
  for (const mine of l) {
    if (!open(mine, serviceIds)) continue;
    const i = free.findIndex((theirs) => hasId(mine) !== hasId(theirs) && sameAddress(mine, theirs));
    const theirs = free[i];
    if (theirs === undefined) continue;
    free.splice(i, 1);
    const id = hasId(mine) ? mine.id : theirs.id;
    mine.id = id;
    theirs.id = id;
  }
  return [l, s];
}

/**
 * Both sides as the service would hold them, in canonical form, for a comparison: a file naming a saved
 * query (query_id alone) is not compared with the query the service may answer inline beside that id; a
 * file's query without time_range has the frequency's (the service stores it so); recipients paired by
 * address where one side names them by id.
 */
function comparable(local: unknown, service: unknown): [unknown, unknown] {
  if (!isRecord(local) || !isRecord(service)) return [normalize(local, COMPARED), normalize(service, COMPARED)];
  const l: Record<string, unknown> = { ...local };
  const s: Record<string, unknown> = { ...service };
  if (!isRecord(l.query) && typeof l.query_id === 'string' && typeof s.query_id === 'string') s.query = null;
  if (isRecord(l.query) && (l.query.time_range === undefined || l.query.time_range === null)) {
    l.query = { ...l.query, time_range: typeof l.frequency === 'number' ? l.frequency : TRIGGER_DEFAULTS.frequency };
  }
  [l.recipients, s.recipients] = pairedRecipients(l.recipients, s.recipients);
  return [normalize(l, COMPARED), normalize(s, COMPARED)];
}

/** The members where two canonical values differ, the service's first (for files of other kinds). */
export function differencesOf(service: unknown, local: unknown): Difference[] {
  const out: Difference[] = [];
  walk(service, local, [], out);
  return out;
}

/** The differences between a local trigger and the service's trigger it was matched with (ids aside). */
export function compareTriggers(local: unknown, service: unknown): Difference[] {
  const out: Difference[] = [];
  const [l, s] = comparable(local, service);
  walk(s, l, [], out);
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

/** How many added or removed list items a long difference names before it counts the rest. */
const ITEMS_NAMED = 5;

/** The items of `a` that `b` does not hold, each as often as it is missing (JSON equality). */
function missingFrom(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  const left = new Map<string, number>();
  for (const v of b) left.set(JSON.stringify(v), (left.get(JSON.stringify(v)) ?? 0) + 1);
  return a.filter((v) => {
    const key = JSON.stringify(v);
    const n = left.get(key) ?? 0;
    if (n > 0) left.set(key, n - 1);
    return n === 0;
  });
}

function itemsText(items: readonly unknown[], max: number): string {
  const named = items.slice(0, ITEMS_NAMED).map((v) => valueText(v, max));
  return items.length > ITEMS_NAMED ? `${named.join(', ')} and ${items.length - ITEMS_NAMED} more` : named.join(', ');
}

/** What a cut value hides: the items a list lost and gained, or where two texts first differ and how long they are. */
function cutDetail(service: unknown, local: unknown, max: number): string {
  if (Array.isArray(service) && Array.isArray(local)) {
    const removed = missingFrom(service, local);
    const added = missingFrom(local, service);
    const parts = [
      removed.length > 0 ? `removed ${itemsText(removed, max)}` : '',
      added.length > 0 ? `added ${itemsText(added, max)}` : '',
    ].filter((p) => p !== '');
    return `${service.length} -> ${local.length} items${parts.length > 0 ? `: ${parts.join('; ')}` : ', the same items in another order'}`;
  }
  const a = service === undefined ? '' : JSON.stringify(service);
  const b = local === undefined ? '' : JSON.stringify(local);
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const from = Math.max(0, at - Math.floor(max / 2));
  const around = (t: string) => `${from > 0 ? '…' : ''}${t.slice(from, from + max)}${from + max < t.length ? '…' : ''}`;
  return `${a.length} -> ${b.length} characters, first differing at character ${at + 1}: ${around(a)} -> ${around(b)}`;
}

/**
 * `threshold.value: 5 -> 10`: the service's value, then the file's. A value longer than `max` is cut, and then
 * the text says what the cut hides (two cut sides may look the same): a list's removed and added items, or
 * where two texts first differ.
 */
export function differenceText(d: Difference, max = 60): string {
  const short = `${d.path}: ${valueText(d.service, max)} -> ${valueText(d.local, max)}`;
  const fits = (v: unknown) => v === undefined || JSON.stringify(v).length <= max;
  return fits(d.service) && fits(d.local) ? short : `${short} (${cutDetail(d.service, d.local, max)})`;
}
