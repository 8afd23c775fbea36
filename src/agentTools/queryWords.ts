// A trigger in words, for the answers about triggers: its whole query (calculations with their filters and
// names, filters, breakdowns, havings, formulas, calculated fields, time range, granularity) as short texts,
// and one sentence of what the trigger does (what it compares with the threshold, how many times in a row,
// for which groups, how often and when it is evaluated, against which baseline). A model reads a formula
// trigger from it as the service runs it, where a list of ops ("COUNT", "COUNT") said nothing. Every text
// is cut (values come from the service or from files); each list names how many it left out.
import * as z from 'zod';
import { clip, defined } from './answer';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Entries of a list named in an answer; past them, one entry says how many more there are. */
const LISTED = 20;
/** Characters of one text of a list (a filter's value, an expression). */
const TEXT = 200;

/** At most LISTED texts, the last saying how many were left out. */
function listed(texts: readonly string[]): string[] {
  return texts.length <= LISTED ? [...texts] : [...texts.slice(0, LISTED), `and ${texts.length - LISTED} more`];
}

/** `15 min`, `1 h 30 min`, `1 d`, `90 s`. */
function durationText(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds} s`;
  const parts: string[] = [];
  let left = seconds / 60;
  for (const [unit, size] of [
    ['d', 1440],
    ['h', 60],
    ['min', 1],
  ] as const) {
    if (left >= size) parts.push(`${Math.floor(left / size)} ${unit}`);
    left %= size;
  }
  return parts.join(' ');
}

const valueText = (v: unknown): string => clip(JSON.stringify(v), TEXT) ?? '';

/** `status_code >= 500`, `route starts-with "/api"`, `error exists`, `region in ["eu","us"]`. */
function filterText(f: Record<string, unknown>): string {
  const column = clip(str(f.column) ?? '?', TEXT);
  return f.value === undefined
    ? `${column} ${str(f.op) ?? '?'}`
    : `${column} ${str(f.op) ?? '?'} ${valueText(f.value)}`;
}

const joined = (filters: Record<string, unknown>[], combination: unknown): string =>
  filters.map(filterText).join(combination === 'OR' ? ' or ' : ' and ');

/** `P99(duration_ms)`, `COUNT`: the op and its column, as the service names the result. */
const aggregate = (op: unknown, column: unknown): string =>
  `${str(op) ?? '?'}${str(column) === undefined ? '' : `(${clip(str(column), TEXT)})`}`;

/** `errors = COUNT where status_code >= 500`. */
function calculationText(c: Record<string, unknown>): string {
  const filters = records(c.filters);
  const where = filters.length === 0 ? '' : ` where ${joined(filters, c.filter_combination)}`;
  const name = str(c.name);
  return `${name === undefined ? '' : `${clip(name, TEXT)} = `}${aggregate(c.op, c.column)}${where}`;
}

/** `COUNT > 10`, or `errors > 10` for a having that names a calculation or formula. */
function havingText(h: Record<string, unknown>): string {
  const subject =
    str(h.calculate_op) === undefined ? clip(str(h.column) ?? '?', TEXT) : aggregate(h.calculate_op, h.column);
  return `${subject} ${str(h.op) ?? '?'} ${valueText(h.value)}`;
}

const namedText = (f: Record<string, unknown>): string =>
  `${clip(str(f.name) ?? '?', TEXT)} = ${clip(str(f.expression) ?? '?', TEXT)}`;

/** The query's members as the answers give them. */
export const QueryWords = z.object({
  calculations: z.array(z.string()),
  filters: z.array(z.string()).optional(),
  filter_combination: z.string().optional(),
  breakdowns: z.array(z.string()).optional(),
  havings: z.array(z.string()).optional(),
  formulas: z.array(z.string()).optional(),
  calculated_fields: z.array(z.string()).optional(),
  time_range: z.number().optional(),
  granularity: z.number().optional(),
});
export type QueryWords = z.infer<typeof QueryWords>;

const some = (texts: string[]): string[] | undefined => (texts.length === 0 ? undefined : listed(texts));

/** Every member of a query, each a short text; undefined when it is not an object. */
export function queryWords(q: unknown): QueryWords | undefined {
  if (!isRecord(q)) return undefined;
  return defined({
    calculations: listed(records(q.calculations).map(calculationText)),
    filters: some(records(q.filters).map(filterText)),
    filter_combination: str(q.filter_combination),
    breakdowns: some(
      (Array.isArray(q.breakdowns) ? q.breakdowns : []).flatMap((b) =>
        typeof b === 'string' ? [clip(b, TEXT) ?? ''] : [],
      ),
    ),
    havings: some(records(q.havings).map(havingText)),
    formulas: some(records(q.formulas).map(namedText)),
    calculated_fields: some(records(q.calculated_fields).map(namedText)),
    time_range: num(q.time_range),
    granularity: num(q.granularity),
  });
}

/**
 * What the threshold is compared with, as the service does it: the formula when there is one, else the
 * calculation that no having names by its op (the others only filter groups), else the first.
 */
function thresholdSubject(q: Record<string, unknown>): string {
  const formula = records(q.formulas)[0];
  if (formula !== undefined) return `the formula ${namedText(formula)}`;
  const havings = records(q.havings);
  const calcs = records(q.calculations);
  const onlyInHaving = (c: Record<string, unknown>) =>
    havings.some(
      (h) =>
        str(h.calculate_op) !== undefined &&
        h.calculate_op === c.op &&
        (h.column ?? undefined) === (c.column ?? undefined),
    );
  const target = calcs.find((c) => !onlyInHaving(c)) ?? calcs[0];
  return target === undefined ? 'its result' : calculationText(target);
}

/** `every 15 min`, and the days and hours of a window schedule. */
export function scheduleText(t: Record<string, unknown>): string {
  const every = `every ${durationText(num(t.frequency) ?? 900)}`;
  const window =
    isRecord(t.evaluation_schedule) && isRecord(t.evaluation_schedule.window)
      ? t.evaluation_schedule.window
      : undefined;
  if (t.evaluation_schedule_type !== 'window' || window === undefined) return every;
  const days = Array.isArray(window.days_of_week)
    ? window.days_of_week.filter((d) => typeof d === 'string').join(', ')
    : '?';
  return `${every}, only on ${clip(days, TEXT)} from ${clip(str(window.start_time) ?? '?', 20)} to ${clip(str(window.end_time) ?? '?', 20)} UTC`;
}

/** A baseline's offset (`1 d`) and what changes (`in percent`), or undefined without a baseline. */
function baselineParts(b: unknown): { offset: string; unit: string } | undefined {
  if (!isRecord(b) || b.offset_minutes === undefined) return undefined;
  const minutes = num(b.offset_minutes);
  return {
    offset: minutes === undefined ? '?' : durationText(minutes * 60),
    unit: b.type === 'percentage' ? 'in percent' : 'in value',
  };
}

/** `the threshold applies to the change in percent against the same window 1 d earlier`; undefined without a baseline. */
export function baselineText(b: unknown): string | undefined {
  const parts = baselineParts(b);
  return parts === undefined
    ? undefined
    : `the threshold applies to the change ${parts.unit} against the same window ${parts.offset} earlier`;
}

/**
 * One sentence of what a trigger does: "Fires when P99(duration_ms) > 500, 3 evaluations in a row, for each
 * http.route; over the last 15 min of events where service = "api"; evaluated every 5 min; notifies when it
 * starts and stops firing."
 */
export function triggerInWords(t: Record<string, unknown>): string {
  const q = isRecord(t.query) ? t.query : undefined;
  const th = isRecord(t.threshold) ? t.threshold : {};
  const baseline = baselineParts(t.baseline_details);
  const result = q === undefined ? `the saved query ${clip(str(t.query_id) ?? '?', TEXT)}` : thresholdSubject(q);
  const subject =
    baseline === undefined
      ? result
      : `the change ${baseline.unit} of ${result} against the same window ${baseline.offset} earlier`;
  const parts = [`Fires when ${subject} ${str(th.op) ?? '?'} ${valueText(th.value)}`];
  const limit = num(th.exceeded_limit) ?? 1;
  if (limit > 1) parts.push(`${limit} evaluations in a row`);
  const words = queryWords(q);
  if (words?.breakdowns) parts.push(`for each ${words.breakdowns.join(', ')}`);
  if (words?.havings) parts.push(`only for groups where ${words.havings.join(' and ')}`);
  const sentence = [parts.join(', ')];
  if (q !== undefined) {
    const filters = records(q.filters);
    const range = num(q.time_range);
    sentence.push(
      `over ${range === undefined ? 'its time range' : `the last ${durationText(range)}`} of ${filters.length === 0 ? 'all events' : `events where ${joined(filters, q.filter_combination)}`}`,
    );
  }
  sentence.push(`evaluated ${scheduleText(t)}`);
  sentence.push(
    t.alert_type === 'on_true'
      ? 'notifies at every evaluation while it fires'
      : 'notifies when it starts and stops firing',
  );
  if (t.disabled === true) sentence.push('disabled: the service does not evaluate it');
  return clip(`${sentence.join('; ')}.`, 2_000) ?? '';
}
