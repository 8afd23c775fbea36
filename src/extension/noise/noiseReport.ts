// The noise report without vscode: each trigger file evaluated over the last 7 days as the service would
// have evaluated it (the backtest engine, its queries paced with every other query of the connection and
// kept in the session's results), its notifications, resolves and flapping counted, and for one over the
// budget the smallest change that would have kept it within, checked against the windows its test files
// say it must fire in (their `fires` expectations, run as the Test Explorer runs them, from the same results).
import { errorText } from '../../api/errors';
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from '../../api/schemas/slugs';
import { parseTestFile, prepareTrigger, ResultCache, runTriggerTests, type QueryApi, type TestedTrigger } from '../../backtest';
import { evaluateTrigger, type TriggerRules } from '../../backtest/evaluate';
import { fetchSeries, QueryIncompleteError } from '../../backtest/fetch';
import { countNoise, planNoise, type NoiseCounts } from '../../backtest/noise';
import { chunkQuery, type PlanMode, type PreviewPlan } from '../../backtest/plan';
import { readTriggerRules, type ReadRules } from '../../backtest/rules';
import { gridFromSeries } from '../../backtest/series';
import { suggestChange, type MustFire, type SuggestResult } from '../../backtest/suggest';
import type { QuerySession } from '../queries';
import * as l10n from '@vscode/l10n';

/** A trigger file of the workspace, and the test files that test it. */
export interface NoiseTarget {
  key: string;
  /** How the user knows the file (its path in the workspace). */
  label: string;
  text: string;
  tests: readonly { label: string; text: string }[];
}

export interface NoiseSession {
  api: QueryApi;
  session: QuerySession;
  signal: AbortSignal;
  report(message: string): void;
  nowSeconds: number;
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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The trigger of a file ready to evaluate, or why it is left out (its saved query read back: one GET, no result). */
export async function prepareNoise(target: NoiseTarget, s: NoiseSession): Promise<PreparedNoise | NoiseEntry> {
  const skip = (reason: string, name?: string): NoiseEntry => ({ kind: 'skipped', key: target.key, label: target.label, ...(name === undefined ? {} : { name }), reason });
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
  if (rules.read.unreadableHavings > 0) return skip(l10n.t('the trigger cannot be evaluated as the service would: a HAVING clause cannot be read (the linter shows why)'), tested.trigger.name);
  return { target, tested, read: rules.read };
}

/** The plan of a trigger's 7 days, and how many of its queries the session does not hold yet. */
export function plannedQueries(p: PreparedNoise, nowSeconds: number, mode: PlanMode, cache: ResultCache): { plan: PreviewPlan; newQueries: number } | { reason: string } {
  const planned = planNoise(p.read, nowSeconds, mode);
  if (!planned.ok) return { reason: planned.reason };
  const plan = planned.plan;
  const newQueries = plan.chunks.filter((c) => !cache.has(ResultCache.keyOf(p.tested.dataset, chunkQuery(p.tested.query, plan, c)))).length;
  return { plan, newQueries };
}

/** Evaluates a prepared trigger over its 7 days and, over the budget, looks for a change; rejects only when cancelled. */
export async function evaluateNoise(p: PreparedNoise, s: NoiseSession, mode: PlanMode, maxNotifications: number): Promise<NoiseEntry> {
  const { target, tested, read } = p;
  const base = { key: target.key, label: target.label, name: tested.trigger.name };
  const planned = plannedQueries(p, s.nowSeconds, mode, s.session.cache);
  if ('reason' in planned) return { kind: 'skipped', ...base, reason: planned.reason };
  const { plan } = planned;
  let data;
  try {
    data = await fetchSeries({ api: s.api, pacer: s.session.pacer, clock: s.session.clock, signal: s.signal, report: s.report, cache: s.session.cache, queries: s.session.queries }, tested.dataset, tested.query, plan);
  } catch (err) {
    if (s.signal.aborted) throw err;
    return { kind: 'skipped', ...base, reason: err instanceof QueryIncompleteError ? l10n.t('the query did not complete: {0}', err.reason) : errorText(err) };
  }
  const outcome = evaluateTrigger(read.rules, gridFromSeries(plan, data), plan.from, plan.to);
  const counts = countNoise(outcome, read.rules, plan.from, plan.to);
  const { op, value, exceededLimit, alertType, frequency } = read.rules;
  const entry: NoiseEntry = { kind: 'evaluated', ...base, dataset: tested.dataset === ENVIRONMENT_WIDE ? ENVIRONMENT_WIDE_TRIGGER_SLUG : tested.dataset, rules: { op, value, exceededLimit, alertType, frequency }, counts, from: plan.from, to: plan.to, notes: plan.notes, unchecked: [] };
  if (counts.notifications <= maxNotifications) return entry;
  const must = await mustFireWindows(p, s);
  return { ...entry, unchecked: must.unchecked, suggestion: suggestChange({ rules: read.rules, outcome, maxNotifications, mustFire: must.windows }) };
}

/** The windows the trigger's test files say it must fire in, evaluated as the Test Explorer evaluates them. */
async function mustFireWindows(p: PreparedNoise, s: NoiseSession): Promise<{ windows: MustFire[]; unchecked: string[] }> {
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
    const prepared = parsed.file.dataset === undefined ? { ok: true as const, tested: p.tested } : await prepareTrigger(p.target.text, parsed.file, s.api, s.signal);
    if (!prepared.ok) {
      unchecked.push(l10n.t('{0}: {1}', t.label, prepared.reason));
      continue;
    }
    const outcomes = await runTriggerTests(parsed.file, prepared.tested, { api: s.api, pacer: s.session.pacer, clock: s.session.clock, cache: s.session.cache, queries: s.session.queries, signal: s.signal, report: s.report, nowSeconds: Math.floor(s.nowSeconds / 60) * 60, only: fires });
    for (const o of outcomes) {
      if (o.preview) windows.push({ name: o.name, outcome: o.preview.outcome, from: o.preview.from, to: o.preview.to });
      else unchecked.push(l10n.t('"{0}" ({1}): {2}', o.name, t.label, o.message));
    }
  }
  return { windows, unchecked };
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
