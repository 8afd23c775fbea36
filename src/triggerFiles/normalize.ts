// The canonical trigger file (docs/TRIGGER-FILES.md): what pull and export write, and what drift
// compares. One function, normalize(), maps a trigger as the service lists it, or as someone wrote it
// in a file, to that form, so that every rewrite the service makes on its side maps to the same
// canonical value as the file it came from. No vscode import.
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from '../api/schemas/slugs';
import { nestingProblem, TriggerTooDeep } from './depth';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The members a trigger file holds, in the order it holds them: `id` (the link to the service), then the writable members. */
export const TRIGGER_FILE_MEMBERS = [
  'id',
  'dataset_slug',
  'name',
  'description',
  'tags',
  'threshold',
  'frequency',
  'alert_type',
  'disabled',
  'recipients',
  'evaluation_schedule_type',
  'evaluation_schedule',
  'baseline_details',
  'query',
  'query_id',
] as const;

/** Values the service fills in when a member is left out: a file leaves them out too. */
export const TRIGGER_DEFAULTS = {
  frequency: 900,
  alert_type: 'on_change',
  disabled: false,
  evaluation_schedule_type: 'frequency',
  exceeded_limit: 1,
  filter_combination: 'AND',
  /** On a paging recipient whose details name no severity (service facts: the seen value). */
  pagerduty_severity: 'critical',
} as const;

const QUERY_MEMBERS = [
  'calculations',
  'filters',
  'filter_combination',
  'breakdowns',
  'havings',
  'formulas',
  'calculated_fields',
  'time_range',
  'granularity',
];
const CALCULATION_MEMBERS = ['op', 'column', 'name', 'filters', 'filter_combination'];
const FILTER_MEMBERS = ['column', 'op', 'value'];
const HAVING_MEMBERS = ['calculate_op', 'column', 'op', 'value'];
const NAMED_MEMBERS = ['name', 'expression'];
const THRESHOLD_MEMBERS = ['op', 'value', 'exceeded_limit'];
const TAG_MEMBERS = ['key', 'value'];
const RECIPIENT_MEMBERS = ['id', 'type', 'target', 'details'];
const DETAILS_MEMBERS = ['pagerduty_severity', 'variables'];
const WINDOW_MEMBERS = ['days_of_week', 'start_time', 'end_time'];
const BASELINE_MEMBERS = ['type', 'offset_minutes'];

/**
 * A JSON value with nulls left out at every depth (the service sends null for an optional member it
 * leaves unset) and object members in a stable order: `known` first, as listed, then the others sorted.
 */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined).map(plain);
  if (!isRecord(value)) return value;
  return ordered(value, []);
}

function ordered(
  value: Json,
  known: readonly string[],
  each: (key: string, v: unknown) => unknown = (_k, v) => plain(v),
): Json {
  const out: Json = {};
  const put = (key: string) => {
    const v = value[key];
    if (v === null || v === undefined) return;
    const mapped = each(key, v);
    if (mapped !== undefined) out[key] = mapped;
  };
  for (const key of known) if (Object.hasOwn(value, key)) put(key);
  for (const key of Object.keys(value)
    .filter((k) => !known.includes(k))
    .sort())
    put(key);
  return out;
}

/** An array left out when empty (the service lists [] and absent alike), its elements mapped. */
function list(v: unknown, each: (element: unknown) => unknown = plain): unknown[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out = v.filter((e) => e !== null && e !== undefined).map(each);
  return out.length === 0 ? undefined : out;
}

const orderedOr = (known: readonly string[], each?: (key: string, v: unknown) => unknown) => (v: unknown) =>
  isRecord(v) ? ordered(v, known, each) : plain(v);

/** By UTF-16 code units: the same order on every machine and in every locale. */
const byText = <T>(a: readonly [string, T], b: readonly [string, T]): number =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;

/**
 * A list the service answers in an order of its own (service facts: tags, the query's filters and havings,
 * calculated fields): sorted by each element's canonical text, each once. A set, like the service's own
 * clients compare them: an element given twice means what it means once.
 */
function set(v: unknown, each: (element: unknown) => unknown): unknown[] | undefined {
  const all = list(v, each);
  if (all === undefined) return undefined;
  const byKey = new Map(all.map((e) => [JSON.stringify(e), e] as const));
  return [...byKey].sort(byText).map(([, e]) => e);
}

function filterCombination(v: unknown): unknown {
  return v === TRIGGER_DEFAULTS.filter_combination ? undefined : v;
}

function calculation(v: unknown): unknown {
  if (!isRecord(v)) return plain(v);
  return ordered(v, CALCULATION_MEMBERS, (key, m) => {
    if (key === 'filters') return list(m, orderedOr(FILTER_MEMBERS));
    if (key === 'filter_combination') return filterCombination(m);
    return plain(m);
  });
}

/** The query: empty lists and default combinations left out; no calculation at all is the COUNT the service makes of it. */
function query(v: Json): Json {
  const out = ordered(v, QUERY_MEMBERS, (key, m) => {
    switch (key) {
      case 'calculations':
        return list(m, calculation);
      case 'filters':
        return set(m, orderedOr(FILTER_MEMBERS));
      case 'filter_combination':
        return filterCombination(m);
      case 'havings':
        return set(m, orderedOr(HAVING_MEMBERS));
      case 'formulas':
        return list(m, orderedOr(NAMED_MEMBERS));
      case 'calculated_fields':
        return set(m, orderedOr(NAMED_MEMBERS));
      default:
        return Array.isArray(m) ? list(m) : plain(m);
    }
  });
  if (out.calculations !== undefined) return out;
  // The implicit COUNT made explicit, in its place at the front.
  return { calculations: [{ op: 'COUNT' }], ...out };
}

function recipient(v: unknown, byId: boolean): unknown {
  if (!isRecord(v)) return plain(v);
  // Named by id, the recipient is that id: the service fills in its type and target from it. A file
  // keeps them (who gets paged, for whoever reads it) where they say something: the service answers a
  // paging recipient named by id with `target: ""`, which nobody would write. A comparison looks at the id alone.
  const named = typeof v.id === 'string' && v.id !== '';
  return ordered(v, RECIPIENT_MEMBERS, (key, m) => {
    if (named && (key === 'type' || key === 'target') && (byId || m === '')) return undefined;
    if (key !== 'details') return plain(m);
    if (!isRecord(m)) return plain(m);
    const details = ordered(m, DETAILS_MEMBERS, (k, d) => {
      if (k === 'pagerduty_severity' && d === TRIGGER_DEFAULTS.pagerduty_severity) return undefined;
      if (k === 'variables') return list(d, orderedOr(['name', 'value']));
      return plain(d);
    });
    return Object.keys(details).length === 0 ? undefined : details;
  });
}

/** Recipients are a set: sorted by what names them, each once (burn alert files hold them so too). */
export function canonicalRecipients(v: unknown, byId: boolean): unknown[] | undefined {
  const all = list(v, (r) => recipient(r, byId));
  if (all === undefined) return undefined;
  const byKey = new Map<string, unknown>();
  for (const r of all) byKey.set(JSON.stringify(r), r);
  const sortKey = (r: unknown): string => {
    if (!isRecord(r)) return `2\u0000${JSON.stringify(r)}`;
    if (typeof r.id === 'string') return `0\u0000${r.id}\u0000${JSON.stringify(r)}`;
    return `1\u0000${String(r.type)}\u0000${String(r.target)}\u0000${JSON.stringify(r)}`;
  };
  return [...byKey.values()]
    .map((r) => [sortKey(r), r] as const)
    .sort(byText)
    .map(([, r]) => r);
}

/** `all` for an environment-wide trigger, whether it says `all` (as the service lists it) or `__all__` (as its path does). */
export function canonicalDatasetSlug(slug: string): string {
  return slug === ENVIRONMENT_WIDE ? ENVIRONMENT_WIDE_TRIGGER_SLUG : slug;
}

const whenNot = (fallback: unknown) => (v: unknown) => (v === fallback ? undefined : plain(v));

const TOP_LEVEL: Record<(typeof TRIGGER_FILE_MEMBERS)[number], (v: unknown, o: NormalizeOptions) => unknown> = {
  id: (v) => (typeof v === 'string' && v !== '' ? v : plain(v)),
  dataset_slug: (v) => (typeof v === 'string' ? canonicalDatasetSlug(v) : plain(v)),
  name: plain,
  description: (v) => (v === '' ? undefined : plain(v)),
  tags: (v) => set(v, orderedOr(TAG_MEMBERS)),
  threshold: orderedOr(THRESHOLD_MEMBERS, (key, m) =>
    key === 'exceeded_limit' && m === TRIGGER_DEFAULTS.exceeded_limit ? undefined : plain(m),
  ),
  frequency: whenNot(TRIGGER_DEFAULTS.frequency),
  alert_type: whenNot(TRIGGER_DEFAULTS.alert_type),
  disabled: whenNot(TRIGGER_DEFAULTS.disabled),
  recipients: (v, o) => canonicalRecipients(v, o.recipientsById === true),
  evaluation_schedule_type: whenNot(TRIGGER_DEFAULTS.evaluation_schedule_type),
  evaluation_schedule: orderedOr(['window'], (key, m) => (key === 'window' ? orderedOr(WINDOW_MEMBERS)(m) : plain(m))),
  baseline_details: orderedOr(BASELINE_MEMBERS),
  query: (v) => (isRecord(v) ? query(v) : plain(v)),
  query_id: plain,
};

export interface NormalizeOptions {
  /** Keep `id` (default true). Drift compares without it: the id is how the two were matched. */
  keepId?: boolean;
  /**
   * A recipient named by id is that id alone: its type and target (which the service fills in from
   * the id) are left out. Drift compares so; a file keeps them for whoever reads it (default false).
   */
  recipientsById?: boolean;
}

/**
 * The canonical form of a trigger: only the members a file holds (read-only ones and members the
 * service adds, such as auto_investigate, left out; `id` kept), nulls and the defaults the service
 * fills in left out, the inline query rather than query_id when both are present, the lists the service
 * reorders (recipients, tags, the query's filters, havings and calculated fields) sorted, each element
 * once, and every object's members in a stable order. Idempotent. A value that is not an
 * object is returned as is. Throws TriggerTooDeep for a trigger nested deeper than MAX_NESTING (depth.ts)
 * before any recursion: callers check nestingProblem() first and report it.
 */
export function normalize(trigger: unknown, options: NormalizeOptions = {}): unknown {
  if (!isRecord(trigger)) return trigger;
  const tooDeep = nestingProblem(trigger, 'the trigger');
  if (tooDeep !== undefined) throw new TriggerTooDeep(tooDeep);
  const out: Json = {};
  for (const key of TRIGGER_FILE_MEMBERS) {
    if (key === 'id' && options.keepId === false) continue;
    if (key === 'query_id' && isRecord(trigger.query)) continue;
    const v = trigger[key];
    if (v === null || v === undefined) continue;
    const mapped = TOP_LEVEL[key](v, options);
    if (mapped !== undefined) out[key] = mapped;
  }
  return out;
}

/** The text of a canonical trigger file: two-space JSON and a final newline. */
export function triggerFileText(trigger: unknown): string {
  return `${JSON.stringify(normalize(trigger), null, 2)}\n`;
}
