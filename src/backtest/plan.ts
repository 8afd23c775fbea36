// What an evaluation asks of the service: the bucket step, where the series start, and the queries (at
// most 1,000 buckets each: a query's granularity may not go below its time_range/1000) that fetch them,
// each saved and run separately. For the preview, also the window back from now that the 7 days of data
// allow. No vscode import.
import type { CreateQueryRequest } from '../api/schemas';
import type { TriggerRules } from './evaluate';
import { earliestStart, fetchStartFor, oldestKept } from './history';
import { readTriggerRules, type ReadRules, type TriggerInput } from './rules';
import { spanLabel } from './summary';
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../result';

export type { TriggerInput } from './rules';

const MAX_BUCKETS = 1_000;
export const PREVIEW_WINDOWS = [3_600, 21_600, 86_400, 604_800] as const;
export const DEFAULT_PREVIEW_WINDOW = 86_400;
/** The newest minutes may still be filling up. */
export const SAFETY_SECONDS = 120;

export interface PreviewPlan {
  rules: TriggerRules;
  /** Key of the value compared with the threshold in the series rows (`COUNT`, `P99(duration_ms)`, a formula). */
  valueKey: string;
  /** Keys of the HAVING clauses' calculations in the series rows, in the order of `rules.havings`. */
  havingKeys: string[];
  breakdowns: string[];
  /** Evaluations in (from, to]. */
  from: number;
  to: number;
  windowSeconds: number;
  /** Bucket length of the series, and where they start (a multiple of the step). */
  step: number;
  fetchStart: number;
  /** One query per chunk, [start, end). */
  chunks: { start: number; end: number }[];
  /** Sentences the panel shows under the summary: what is approximate, shortened or left out. */
  notes: string[];
  /** The coarser-step note when the plan uses coarser buckets (also in notes): the chart repeats it. */
  coarseNote?: string | undefined;
}

export type PlanMode = 'exact' | 'coarse';

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The exact bucket step: every window, and every baseline offset, is a whole number of buckets. */
export function exactStep(rules: TriggerRules): number {
  return gcd(rules.frequency, rules.timeRange);
}

export interface Fetch {
  step: number;
  fetchStart: number;
  chunks: { start: number; end: number }[];
  /** Queries at the exact step (1 when a coarser step is not needed). */
  queriesIfExact: number;
  coarseNote?: string;
}

/** The buckets and queries that cover evaluations in (from, to]: exact, or in coarse mode one query at a coarser step. */
export function planFetch(rules: TriggerRules, from: number, to: number, mode: PlanMode): Fetch {
  let step = exactStep(rules);
  const span = (s: number) => to - fetchStartFor(rules, from, s);
  const queriesIfExact = Math.ceil(span(step) / (step * MAX_BUCKETS));
  let coarseNote: string | undefined;
  if (mode === 'coarse' && queriesIfExact > 1) {
    const exact = step;
    step = step * Math.ceil(span(step) / (step * MAX_BUCKETS));
    while (span(step) > step * MAX_BUCKETS) step += exact;
    coarseNote = l10n.t(
      'Coarser steps: buckets of {0} instead of {1} (one query instead of {2}), so every window value is estimated.',
      spanLabel(step),
      spanLabel(exact),
      queriesIfExact,
    );
  }
  const fetchStart = fetchStartFor(rules, from, step);
  const chunkSeconds = step * MAX_BUCKETS;
  const chunks: { start: number; end: number }[] = [];
  for (let s = fetchStart; s < to; s += chunkSeconds) chunks.push({ start: s, end: Math.min(to, s + chunkSeconds) });
  return { step, fetchStart, chunks, queriesIfExact, ...(coarseNote === undefined ? {} : { coarseNote }) };
}

/** A plan over evaluations in (from, to] for rules already read. */
export function planOf(read: ReadRules, from: number, to: number, fetch: Fetch, notes: readonly string[]): PreviewPlan {
  return {
    rules: read.rules,
    valueKey: read.valueKey,
    havingKeys: read.havingKeys,
    breakdowns: read.breakdowns,
    from,
    to,
    windowSeconds: to - from,
    step: fetch.step,
    fetchStart: fetch.fetchStart,
    chunks: fetch.chunks,
    notes: [...notes],
    coarseNote: fetch.coarseNote,
  };
}

export type PlanResult = Outcome<{ plan: PreviewPlan; queriesIfExact: number }>;

/** The preview of the last `windowSeconds` before now, shortened to what the 7 days of data allow. */
export function planPreview(
  trigger: TriggerInput,
  query: unknown,
  windowSeconds: number,
  nowSeconds: number,
  mode: PlanMode,
): PlanResult {
  const readResult = readTriggerRules(trigger, query);
  if (!readResult.ok) return readResult;
  const read = readResult.read;
  const { rules } = read;
  const offset = (rules.baseline?.offsetMinutes ?? 0) * 60;
  const to = Math.floor((nowSeconds - SAFETY_SECONDS) / rules.frequency) * rules.frequency;
  // The longest window whose evaluations read only data the service still keeps (history.ts).
  const room = to - (earliestStart(rules, oldestKept(nowSeconds), exactStep(rules), false) ?? to);
  const notes: string[] = [];
  let window = windowSeconds;
  if (room < rules.frequency)
    return {
      ok: false,
      reason: l10n.t(
        'the service keeps 7 days of data, too little for a {0} baseline over {1}',
        spanLabel(offset),
        spanLabel(rules.timeRange),
      ),
    };
  if (window > room) {
    window = Math.floor(room / rules.frequency) * rules.frequency;
    notes.push(
      offset > 0
        ? l10n.t(
            'The window is shortened to {0}: the service keeps 7 days of data, and the baseline looks {1} further back.',
            spanLabel(window),
            spanLabel(offset),
          )
        : l10n.t('The window is shortened to {0}: the service keeps 7 days of data.', spanLabel(window)),
    );
  }
  const from = to - window;
  const fetch = planFetch(rules, from, to, mode);
  if (fetch.coarseNote !== undefined) notes.push(fetch.coarseNote);
  return {
    ok: true,
    queriesIfExact: fetch.queriesIfExact,
    plan: planOf(read, from, to, fetch, [...notes, ...read.notes]),
  };
}

/** The members of a trigger's query that the saved query of each chunk keeps. */
export function queryPart(query: Record<string, unknown>): Record<string, unknown> {
  const keep = ['calculations', 'filters', 'filter_combination', 'breakdowns', 'formulas', 'calculated_fields'];
  const out: Record<string, unknown> = {};
  for (const key of keep) if (query[key] !== undefined && query[key] !== null) out[key] = query[key];
  return out;
}

/** The saved query that fetches one chunk: the trigger's query at the plan's step, over the chunk. */
export function chunkQuery(
  query: Record<string, unknown>,
  plan: Pick<PreviewPlan, 'step'>,
  chunk: { start: number; end: number },
): CreateQueryRequest {
  return { ...queryPart(query), start_time: chunk.start, end_time: chunk.end, granularity: plan.step };
}
