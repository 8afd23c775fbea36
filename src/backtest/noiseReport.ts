// The noise report, for the editor's view, `obs noise` and the agents' obs_noise: each trigger file evaluated
// over the last days as the service would have evaluated it (the backtest engine, its queries paced with every
// other query of the connection and kept in the session's results), its notifications counted as `obs test`
// counts them, its resolves and flapping, and for one over the budget the smallest change that would have
// kept it within, checked against the windows its test files say it must fire in (their `fires`
// expectations, run as the Test Explorer runs them, from the same results). No vscode import.
import { errorText } from '../api/errors';
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from '../api/schemas/slugs';
import { prepareTrigger, runTriggerTests, type TestedTrigger } from './backtest';
import { ResultCache, type ResultStore } from './cache';
import { evaluateTrigger, type PreviewOutcome, type TriggerRules } from './evaluate';
import { chunkKeys, fetchSeries, QueryIncompleteError, type FetchDeps } from './fetch';
import { planNoise, walkNoise, type NoiseCounts, type NoisePlan, type NoiseWalk } from './noise';
import type { PlanMode, PreviewPlan } from './plan';
import { disabledNote, readTriggerRules, type ReadRules } from './rules';
import { gridFromSeries } from './series';
import { suggestChange, type MustFire, type SuggestResult } from './suggest';
import { parseTestFile } from './testFile';
import * as l10n from '@vscode/l10n';

/** A trigger file of the workspace, and the test files that test it. */
export interface NoiseTarget {
  key: string;
  /** How the user knows the file (its path in the workspace). */
  label: string;
  text: string;
  tests: readonly { label: string; text: string }[];
}

/** What a report runs on: the connection's query calls, pacer and session results, the time it reads `now` at. */
export interface NoiseSession extends Omit<FetchDeps, 'cache'> {
  /** The session's results (the editor's per connection; a run of `obs noise` its own). */
  cache: ResultCache;
  nowSeconds: number;
}

/** How a report evaluates: exact steps or coarser ones, the window in days (7 at most), the budget. */
export interface NoiseOptions {
  mode: PlanMode;
  days: number;
  /** Notifications allowed in the window; above it a change is suggested. */
  budget: number;
}

/** A trigger ready to evaluate: read, its saved query read back, its rules read. */
export interface PreparedNoise {
  target: NoiseTarget;
  tested: TestedTrigger;
  read: ReadRules;
}

export type NoiseEntry =
  | {
      kind: 'evaluated';
      key: string;
      label: string;
      name: string;
      dataset: string;
      rules: Pick<TriggerRules, 'op' | 'value' | 'exceededLimit' | 'alertType' | 'frequency'>;
      counts: NoiseCounts;
      from: number;
      to: number;
      notes: string[];
      /** For a trigger over the budget. */
      suggestion?: SuggestResult;
      /** Expectations that must fire that could not be checked (not testable, an error), each with why. */
      unchecked: string[];
    }
  | { kind: 'skipped'; key: string; label: string; name?: string; reason: string };

/** A trigger left out of the report, with why. */
export type SkippedNoise = Extract<NoiseEntry, { kind: 'skipped' }>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The trigger of a file ready to evaluate, or why it is left out (its saved query read back: one GET, no result). */
export async function prepareNoise(
  target: NoiseTarget,
  s: Pick<NoiseSession, 'api' | 'signal'>,
): Promise<PreparedNoise | SkippedNoise> {
  const skip = (reason: string, name?: string): SkippedNoise => ({
    kind: 'skipped',
    key: target.key,
    label: target.label,
    ...(name === undefined ? {} : { name }),
    reason,
  });
  let value: unknown;
  try {
    value = JSON.parse(target.text.charCodeAt(0) === 0xfeff ? target.text.slice(1) : target.text);
  } catch {
    return skip(l10n.t('the file is not valid JSON (fix the problems the linter shows first)'));
  }
  if (!isRecord(value)) return skip(l10n.t('the file does not hold one trigger object'));
  const prepared = await prepareTrigger(target.text, {}, s.api, s.signal);
  if (!prepared.ok) return skip(prepared.reason, typeof value.name === 'string' ? value.name : undefined);
  const { tested } = prepared;
  const rules = readTriggerRules(tested.trigger, tested.query);
  if (!rules.ok) return skip(l10n.t('the trigger cannot be evaluated: {0}', rules.reason), tested.trigger.name);
  if (rules.read.unreadableHavings > 0)
    return skip(
      l10n.t(
        'the trigger cannot be evaluated as the service would: a HAVING clause cannot be read (the linter shows why)',
      ),
      tested.trigger.name,
    );
  return { target, tested, read: rules.read };
}

/** The plan of a trigger's window, and how many of its queries the session does not hold yet. */
function plannedQueries(
  p: PreparedNoise,
  nowSeconds: number,
  options: Pick<NoiseOptions, 'mode' | 'days'>,
  cache: Pick<ResultStore, 'has'>,
): { planned: Extract<NoisePlan, { ok: true }>; newQueries: number } | { reason: string } {
  const planned = planNoise(p.read, nowSeconds, options.mode, options.days);
  if (!planned.ok) return { reason: planned.reason };
  const { plan } = planned;
  const keyOf = chunkKeys(p.tested.dataset, p.tested.query, plan.step);
  const newQueries = plan.chunks.filter((c) => !cache.has(keyOf(c))).length;
  return { planned, newQueries };
}

/** New queries a report would create: those of the triggers' windows the session does not hold yet. */
export function newQueriesOf(
  ready: readonly PreparedNoise[],
  nowSeconds: number,
  options: Pick<NoiseOptions, 'mode' | 'days'>,
  cache: Pick<ResultStore, 'has'>,
): number {
  return ready.reduce((n, p) => {
    const planned = plannedQueries(p, nowSeconds, options, cache);
    return n + ('newQueries' in planned ? planned.newQueries : 0);
  }, 0);
}

/** A trigger evaluated over its window: the plan's window (from, to], the evaluation (from before it) and its counts. */
export type WindowEvaluation =
  | { kind: 'evaluated'; plan: PreviewPlan; from: number; to: number; outcome: PreviewOutcome; noise: NoiseWalk }
  | { kind: 'skipped'; reason: string };

/** Evaluates a prepared trigger over its window; rejects only when cancelled. */
export async function evaluateWindow(
  p: PreparedNoise,
  s: NoiseSession,
  options: Pick<NoiseOptions, 'mode' | 'days'>,
  cache: ResultStore = s.cache,
): Promise<WindowEvaluation> {
  const { tested, read } = p;
  const planned = plannedQueries(p, s.nowSeconds, options, cache);
  if ('reason' in planned) return { kind: 'skipped', reason: planned.reason };
  const { plan, from, to } = planned.planned;
  let data;
  try {
    data = await fetchSeries({ ...s, cache }, tested.dataset, tested.query, plan);
  } catch (err) {
    if (s.signal.aborted) throw err;
    return {
      kind: 'skipped',
      reason:
        err instanceof QueryIncompleteError ? l10n.t('the query did not complete: {0}', err.reason) : errorText(err),
    };
  }
  // Evaluated from before the window, so the state at its start is the service's; counted in it only.
  const outcome = evaluateTrigger(read.rules, gridFromSeries(plan, data), plan.from, plan.to);
  return { kind: 'evaluated', plan, from, to, outcome, noise: walkNoise(outcome, read.rules, from, to) };
}

/** Evaluates a prepared trigger over its window and, over the budget, looks for a change; rejects only when cancelled. */
export async function evaluateNoise(
  p: PreparedNoise,
  s: NoiseSession,
  options: NoiseOptions,
  cache: ResultStore = s.cache,
): Promise<NoiseEntry> {
  const { target, tested, read } = p;
  const base = { key: target.key, label: target.label, name: tested.trigger.name };
  const evaluated = await evaluateWindow(p, s, options, cache);
  if (evaluated.kind === 'skipped') return { kind: 'skipped', ...base, reason: evaluated.reason };
  const { plan, from, to, outcome } = evaluated;
  const counts = evaluated.noise.counts;
  const { op, value, exceededLimit, alertType, frequency } = read.rules;
  const dataset = tested.dataset === ENVIRONMENT_WIDE ? ENVIRONMENT_WIDE_TRIGGER_SLUG : tested.dataset;
  const entry: NoiseEntry = {
    kind: 'evaluated',
    ...base,
    dataset,
    rules: { op, value, exceededLimit, alertType, frequency },
    counts,
    from,
    to,
    notes: read.rules.disabled ? [disabledNote(), ...plan.notes] : plan.notes,
    unchecked: [],
  };
  if (counts.notifications <= options.budget) return entry;
  const must = await mustFireWindows(p, s, cache);
  return {
    ...entry,
    unchecked: must.unchecked,
    suggestion: suggestChange({
      rules: read.rules,
      outcome,
      from,
      maxNotifications: options.budget,
      mustFire: must.windows,
    }),
  };
}

/** The windows the trigger's test files say it must fire in, evaluated as the Test Explorer evaluates them. */
async function mustFireWindows(
  p: PreparedNoise,
  s: NoiseSession,
  cache: ResultStore,
): Promise<{ windows: MustFire[]; unchecked: string[] }> {
  const windows: MustFire[] = [];
  const unchecked: string[] = [];
  for (const t of p.target.tests) {
    const parsed = parseTestFile(t.text);
    if (!parsed.ok) {
      unchecked.push(l10n.t('{0} is not a valid test file', t.label));
      continue;
    }
    const fires = new Set(parsed.file.expectations.filter((e) => e.expect === 'fires').map((e) => e.name));
    if (fires.size === 0) continue;
    const prepared =
      parsed.file.dataset === undefined
        ? { ok: true as const, tested: p.tested }
        : await prepareTrigger(p.target.text, parsed.file, s.api, s.signal);
    if (!prepared.ok) {
      unchecked.push(l10n.t('{0}: {1}', t.label, prepared.reason));
      continue;
    }
    const outcomes = await runTriggerTests(parsed.file, prepared.tested, {
      ...s,
      cache,
      nowSeconds: Math.floor(s.nowSeconds / 60) * 60,
      only: fires,
    });
    for (const o of outcomes) {
      if (o.preview) windows.push({ name: o.name, outcome: o.preview.outcome, from: o.preview.from, to: o.preview.to });
      else unchecked.push(l10n.t('"{0}" ({1}): {2}', o.name, t.label, o.message));
    }
  }
  return { windows, unchecked };
}

/**
 * Each trigger in turn, as one run over the session's results (none it used is dropped before it ends, so the
 * report again creates none); after a cancel, those not evaluated are listed as such. `onTurn` says which one
 * is evaluated; its reports go through `s.report`.
 */
export async function evaluateAll(
  ready: readonly PreparedNoise[],
  s: NoiseSession,
  options: NoiseOptions,
  onTurn: (p: PreparedNoise, index: number) => NoiseSession = () => s,
): Promise<NoiseEntry[]> {
  return s.cache.inRun(async (cache) => {
    const out: NoiseEntry[] = [];
    for (const [i, p] of ready.entries()) {
      const skipped = (reason: string): NoiseEntry => ({
        kind: 'skipped',
        key: p.target.key,
        label: p.target.label,
        name: p.tested.trigger.name,
        reason,
      });
      if (s.signal.aborted) {
        out.push(skipped(l10n.t('the report was cancelled before its turn')));
        continue;
      }
      try {
        out.push(await evaluateNoise(p, onTurn(p, i), options, cache));
      } catch (err) {
        if (!s.signal.aborted) throw err;
        out.push(skipped(l10n.t('the report was cancelled')));
      }
    }
    return out;
  });
}

/** Noisiest first: most notifications, then most flaps; the triggers left out last. */
export function noisiestFirst(entries: readonly NoiseEntry[]): NoiseEntry[] {
  const rank = (e: NoiseEntry) => (e.kind === 'evaluated' ? [e.counts.notifications, e.counts.flaps] : [-1, -1]);
  return [...entries].sort((a, b) => {
    const [an, af] = rank(a);
    const [bn, bf] = rank(b);
    return (bn as number) - (an as number) || (bf as number) - (af as number) || a.label.localeCompare(b.label);
  });
}
