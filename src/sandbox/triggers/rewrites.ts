// What the service does to a trigger it stores (service facts, "What the service does to a trigger it
// stores"), one switch per rewrite, so a test can prove a client copes with each alone and with all at
// once. On by default: what the sandbox did before it had switches, and what the service always does
// that the demo triggers already hold. Off: what the service "may" do, filling in a missing time_range
// (the spec refuses it), and recipient ids and the service's list order, which the demo triggers as
// listed do not hold (a legacy recipient by type and target, lists in the order written): written back,
// they would not list as before. docs/SANDBOX.md, "Trigger rewrites".
import { createHash } from 'node:crypto';
import * as z from 'zod';

export const TRIGGER_REWRITES = [
  /** A recipient sent by type and target is answered with an id; one sent by id with its type and target (a PagerDuty one's target ""). */
  'recipientIds',
  /** A PagerDuty recipient without `details.pagerduty_severity` is answered with "critical". */
  'pagerdutySeverity',
  /** Recipients, tags, the query's filters and havings and calculated fields are answered in an order of the service's own. */
  'reorderLists',
  /** `filter_combination: "AND"` is never echoed. */
  'andNotEchoed',
  /** A description, tags and exceeded_limit left out are answered with their defaults ("", [], 1); off, they stay out. */
  'defaultsFilled',
  /** An optional member with no value is answered as null. */
  'nullForUnset',
  /** Whole numbers are answered as floats (`100.0`). */
  'floats',
  /** A trigger on a saved query is answered with that query inline beside its query_id. */
  'queryIdInline',
  /** A query written without time_range is accepted and stored with the frequency as its time_range. */
  'timeRangeFromFrequency',
] as const;

export type TriggerRewrite = (typeof TRIGGER_REWRITES)[number];
export type TriggerRewrites = Record<TriggerRewrite, boolean>;

export const DEFAULT_REWRITES: Readonly<TriggerRewrites> = {
  recipientIds: false,
  pagerdutySeverity: true,
  reorderLists: false,
  andNotEchoed: true,
  defaultsFilled: true,
  nullForUnset: false,
  floats: false,
  queryIdInline: false,
  timeRangeFromFrequency: false,
};

/** Body of `POST /__sandbox/rewrites`: the switches to change (an unknown name is refused), others kept. */
export const RewritesSpec = z.partialRecord(z.enum(TRIGGER_REWRITES), z.boolean());
export type RewritesSpec = Partial<TriggerRewrites>;

/** The switches in force: those the sandbox started with, changed through the handle or the control endpoint. */
export class RewriteSwitches {
  private now: TriggerRewrites;
  private readonly initial: Readonly<TriggerRewrites>;

  /** `changed` is told of every change: answers made under the old switches must not be sent again. */
  constructor(
    given: RewritesSpec = {},
    private readonly changed: () => void = () => undefined,
  ) {
    this.initial = { ...DEFAULT_REWRITES, ...given };
    this.now = { ...this.initial };
  }

  get current(): Readonly<TriggerRewrites> {
    return this.now;
  }

  set(changes: RewritesSpec): Readonly<TriggerRewrites> {
    this.now = { ...this.now, ...changes };
    this.changed();
    return this.now;
  }

  /** Back to the switches the sandbox started with. */
  reset(): void {
    this.now = { ...this.initial };
    this.changed();
  }
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const hashOf = (v: unknown): string => createHash('sha256').update(JSON.stringify(v)).digest('hex');

/** The service's own order: by a hash of each element, whatever order they were sent in (and, as a rule, neither that order nor a sorted one). */
export function inServiceOrder<T>(list: readonly T[]): T[] {
  return list
    .map((e) => [hashOf(e), e] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, e]) => e);
}

const withoutAnd = (q: Json): Json => {
  const { filter_combination: combination, ...rest } = q;
  return combination === 'AND' ? rest : q;
};

/** An inline query as the service stores it: its lists in its own order, `filter_combination: "AND"` left out. */
export function storedQuery(query: Json, r: Readonly<TriggerRewrites>): Json {
  let out: Json = { ...query };
  if (r.andNotEchoed) {
    out = withoutAnd(out);
    if (Array.isArray(out.calculations))
      out.calculations = out.calculations.map((c: unknown) => (isRecord(c) ? withoutAnd(c) : c));
  }
  if (r.reorderLists) {
    for (const member of ['filters', 'havings', 'calculated_fields']) {
      const list = out[member];
      if (Array.isArray(list)) out[member] = inServiceOrder(list);
    }
  }
  return out;
}

/** A query written without time_range, given the frequency's (only when that rewrite is on; else it is refused). */
export function withTimeRange(query: Json, frequency: number, r: Readonly<TriggerRewrites>): Json {
  return r.timeRangeFromFrequency && query.time_range === undefined ? { ...query, time_range: frequency } : query;
}

/** Members the service may answer as null when they hold nothing. */
const NULLABLE = ['description', 'tags', 'recipients', 'evaluation_schedule', 'baseline_details', 'query'] as const;

/**
 * A stored trigger as answered: with the saved query it names inline beside its query_id, and null for an
 * optional member without a value, where those rewrites are on. `savedQuery` finds a saved query by id.
 */
export function answeredTrigger(
  t: Json,
  r: Readonly<TriggerRewrites>,
  savedQuery: (id: string) => Json | undefined,
): Json {
  // Unchanged, the stored trigger itself is answered: a list of thousands is not copied for nothing.
  if (!r.queryIdInline && !r.nullForUnset) return t;
  const out: Json = { ...t };
  if (r.queryIdInline && out.query === undefined && typeof out.query_id === 'string') {
    const saved = savedQuery(out.query_id);
    if (saved !== undefined) out.query = structuredClone(saved);
  }
  if (r.nullForUnset) for (const member of NULLABLE) out[member] ??= null;
  return out;
}

/** JSON with every whole number written as a float (`100.0`), as the service may send them. */
export function floatJson(v: unknown): string {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? `${v}.0` : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((e) => (e === undefined ? 'null' : floatJson(e))).join(',')}]`;
  if (isRecord(v)) {
    const members = Object.entries(v).filter(([, m]) => m !== undefined);
    return `{${members.map(([k, m]) => `${JSON.stringify(k)}:${floatJson(m)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** `--rewrites all`, `none`, or the names to switch on (every other off). */
export function parseRewriteList(text: string): TriggerRewrites | string {
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.length === 1 && (names[0] === 'all' || names[0] === 'none')) {
    return Object.fromEntries(TRIGGER_REWRITES.map((n) => [n, names[0] === 'all'])) as TriggerRewrites;
  }
  const unknown = names.filter((n) => !(TRIGGER_REWRITES as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0)
    return `--rewrites takes all, none or names of ${TRIGGER_REWRITES.join(', ')}${unknown.length > 0 ? `; not ${unknown.join(', ')}` : ''}`;
  return Object.fromEntries(TRIGGER_REWRITES.map((n) => [n, names.includes(n)])) as TriggerRewrites;
}
