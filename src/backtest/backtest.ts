// Trigger tests: each expectation of a test file evaluated over its past window as the service would have
// evaluated the trigger, from query results fetched once per query and window (and reused from the
// session's cache), and judged: passed, failed (expected against actual), not testable (the service no
// longer keeps the data) or an error. The API the CLI (`obs test`) and the editor both run. No vscode import.
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from '../api/schemas/slugs';
import { errorText } from '../api/errors';
import { evaluateTrigger, type Grid, type PreviewOutcome } from './evaluate';
import { fetchSeries, QueryIncompleteError, readSavedQuery, type FetchDeps } from './fetch';
import { countWindow, groupText, judge } from './judge';
import { planOf, type PreviewPlan } from './plan';
import type { CachedData, ResultStore } from './cache';
import { completeAt, notRecordable, playBack, recordedWindowFor, windowOf, type RecordNote } from './playback';
import type { RecordedWindow, TriggerTestRecording } from './recordingFile';
import { disabledNote, readTriggerRules, type ReadRules } from './rules';
import type { QueryApi } from './runner';
import { gridFromSeries } from './series';
import { spanLabel } from './summary';
import type { Expectation, TriggerTestFile } from './testFile';
import { readTime, type TimeSpec } from './times';
import { triggerFromText, type PreviewTrigger } from './triggerText';
import { resolveWindow, type ResolvedWindow } from './window';
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../result';

/** The trigger a test file tests, ready to evaluate. */
export interface TestedTrigger {
  trigger: PreviewTrigger;
  /** The dataset its query runs on (`__all__` for an environment-wide trigger). */
  dataset: string;
  /** Its query: inline, or its saved query read back. */
  query: Record<string, unknown>;
}

export type ExpectationStatus = 'passed' | 'failed' | 'not-testable' | 'error';

/** What the preview needs to show an expectation's window without running a query again. */
export interface PreviewAt {
  dataset: string;
  /** The expectation's window: evaluations in (from, to]. */
  from: number;
  to: number;
  /** The evaluation behind the verdict; it starts before `from` (the evaluations that decide the state there). */
  plan: PreviewPlan;
  outcome: PreviewOutcome;
}

export interface ExpectationOutcome {
  /** Its place in the test file's `expectations`, and its name (unique in the file). */
  index: number;
  name: string;
  expect: Expectation['expect'];
  status: ExpectationStatus;
  /** One sentence: what happened (and what was expected), or why it could not be tested. */
  message: string;
  /** For a passed or failed expectation: "at least 1 firing" against "0 firings". */
  expected?: string;
  actual?: string;
  /** What the verdict rests on that the user should know (estimated values, a cut window, a disabled trigger). */
  notes: string[];
  /** For a passed or failed expectation: the evaluated window, to open in the preview. */
  preview?: PreviewAt;
}

export interface BacktestRun extends FetchDeps {
  /** Query results of the session (or a run over them): a run after an unrelated edit creates no new result. */
  cache: ResultStore;
  /** The time relative times are read at, one for the whole run (epoch seconds). */
  nowSeconds: number;
  /** Only the expectations of these names (running one test again); all when absent. */
  only?: ReadonlySet<string>;
  /** Each outcome as soon as it is known, in order. */
  onOutcome?(outcome: ExpectationOutcome): void;
  /** The test file's recording: an expectation whose window it holds runs from it, with no query. */
  recording?: TriggerTestRecording | undefined;
  /** No service: an expectation the recording does not hold is not run, and gets this status and sentence. */
  offline?: { status: 'not-testable' | 'error'; message: string } | undefined;
  /**
   * A run that records: an expectation the recording does not stand for runs against the service (also
   * where the recording holds another query), and what became of each expectation is told here, once.
   */
  record?(name: string, note: RecordNote): void;
}

export type PreparedTrigger = Outcome<{ tested: TestedTrigger }>;

/**
 * The trigger of a test file from its file's text (the editor's text, unsaved edits included): its dataset
 * (the test file's `dataset`, else the trigger's `dataset_slug`) and its query (inline, or read back by
 * query_id: one GET, which creates no query result).
 */
export async function prepareTrigger(
  triggerText: string,
  tests: Pick<TriggerTestFile, 'dataset'>,
  api: Pick<QueryApi, 'getQuery' | 'listDatasets' | 'listColumns'>,
  signal: AbortSignal,
): Promise<PreparedTrigger> {
  const read = triggerFromText(triggerText);
  if (!read.ok) return { ok: false, reason: read.reason };
  const t = read.trigger;
  const slug =
    tests.dataset ?? (typeof t.dataset_slug === 'string' && t.dataset_slug !== '' ? t.dataset_slug : undefined);
  if (slug === undefined)
    return {
      ok: false,
      reason: l10n.t('the trigger file names no dataset_slug: give the test file a "dataset" member'),
    };
  const dataset = slug === ENVIRONMENT_WIDE_TRIGGER_SLUG ? ENVIRONMENT_WIDE : slug;
  if (isRecord(t.query)) return { ok: true, tested: { trigger: t, dataset, query: t.query } };
  if (typeof t.query_id !== 'string' || t.query_id === '')
    return { ok: false, reason: l10n.t('the trigger has no query and no query_id') };
  try {
    return { ok: true, tested: { trigger: t, dataset, query: await readSavedQuery(api, dataset, t.query_id, signal) } };
  } catch (err) {
    if (signal.aborted) throw err;
    return { ok: false, reason: l10n.t('its saved query {0} could not be read: {1}', t.query_id, errorText(err)) };
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The saved query a trigger names by query_id, as read back (without its id): what its recording keeps of it. */
export function savedQueriesOf(tested: TestedTrigger): Record<string, Record<string, unknown>> {
  const id = tested.trigger.query_id;
  if (typeof id !== 'string' || id === '' || isRecord(tested.trigger.query)) return {};
  const query: Record<string, unknown> = { ...tested.query };
  delete query['id'];
  return { [id]: query };
}

/** Every expectation (of `only`, when given) as an error with one reason: the file or its trigger could not be read. */
export function erroredOutcomes(
  tests: TriggerTestFile,
  reason: string,
  only?: ReadonlySet<string>,
): ExpectationOutcome[] {
  return selected(tests, only).map(([e, index]) => ({
    index,
    name: e.name,
    expect: e.expect,
    status: 'error',
    message: reason,
    notes: [],
  }));
}

function selected(tests: TriggerTestFile, only: ReadonlySet<string> | undefined): [Expectation, number][] {
  return tests.expectations
    .map((e, i): [Expectation, number] => [e, i])
    .filter(([e]) => only === undefined || only.has(e.name));
}

/** Why no expectation of this trigger can be evaluated, if so. */
function refusalOf(rules: ReturnType<typeof readTriggerRules>): string | undefined {
  if (!rules.ok) return l10n.t('the trigger cannot be evaluated: {0}', rules.reason);
  const bad = rules.read.unreadableHavings;
  if (bad === 0) return undefined;
  const all = bad + rules.read.havingKeys.length;
  return all === 1
    ? l10n.t(
        'the trigger cannot be evaluated as the service would: its HAVING clause cannot be read (the linter shows why)',
      )
    : l10n.t(
        'the trigger cannot be evaluated as the service would: {0} of its {1} HAVING clauses cannot be read (the linter shows why)',
        bad,
        all,
      );
}

/** Runs the expectations of a test file in order; rejects only when the run is cancelled. */
export async function runTriggerTests(
  tests: TriggerTestFile,
  tested: TestedTrigger,
  run: BacktestRun,
): Promise<ExpectationOutcome[]> {
  const rules = readTriggerRules(tested.trigger, tested.query);
  const refusal = refusalOf(rules);
  const out: ExpectationOutcome[] = [];
  for (const [e, index] of selected(tests, run.only)) {
    run.signal.throwIfAborted();
    const base = { index, name: e.name, expect: e.expect };
    const ran: Ran =
      !rules.ok || refusal !== undefined
        ? { outcome: { ...base, status: 'error', message: refusal ?? '', notes: [] } }
        : await runExpectation(e, base, rules.read, tested, run);
    const outcome = ran.outcome;
    run.record?.(e.name, ran.note ?? { kind: 'not-recorded', reason: outcome.message });
    out.push(outcome);
    run.onOutcome?.(outcome);
  }
  return out;
}

type Base = Pick<ExpectationOutcome, 'index' | 'name' | 'expect'>;
/** An outcome, and for a run that records what became of its window. */
type Ran = { outcome: ExpectationOutcome; note?: RecordNote };
type Times = { from: TimeSpec; to: TimeSpec; fromText: string; toText: string };
type Stop = { stop: true; status: ExpectationStatus; message: string };
/** The window resolved at a time, its plan, and (once fetched or played back) its series. */
type Planned = { stop: false; w: ResolvedWindow; plan: PreviewPlan };
type Fetched = Planned & { data: CachedData[]; played: boolean; note?: RecordNote };

const stop = (status: ExpectationStatus, message: string): Stop => ({ stop: true, status, message });

async function runExpectation(
  e: Expectation,
  base: Base,
  read: ReadRules,
  tested: TestedTrigger,
  run: BacktestRun,
): Promise<Ran> {
  const from = readTime(e.from);
  const to = readTime(e.to);
  const ended = (s: Stop): Ran => ({ outcome: { ...base, status: s.status, message: s.message, notes: [] } });
  if (!from || !to) return ended(stop('error', l10n.t('the window cannot be read: from {0}, to {1}', e.from, e.to)));
  const recorded = run.recording === undefined ? undefined : recordedWindowFor(run.recording, from, to);
  if (recorded === undefined && run.offline) return ended(stop(run.offline.status, run.offline.message));
  const got = await seriesOf(e, { from, to, fromText: e.from, toText: e.to }, read, tested, run, recorded);
  if (got.stop) return ended(got);
  const { w, plan } = got;
  const grid = onlyGroup(gridFromSeries(plan, got.data), read.breakdowns, e.group);
  const outcome = evaluateTrigger(read.rules, grid, w.evalFrom, w.to);
  const verdict = judge(e, countWindow(outcome, w.from, w.to), read.rules.alertType, w.from, w.to);
  const notes = notesOf(e, w, plan, outcome, grid, read);
  if (got.played) notes.push(l10n.t('Run from the recording: no query to the service.'));
  const preview = { dataset: tested.dataset, from: w.from, to: w.to, plan, outcome };
  const status = verdict.passed ? 'passed' : 'failed';
  return {
    outcome: {
      ...base,
      status,
      message: verdict.message,
      expected: verdict.expected,
      actual: verdict.actual,
      notes,
      preview,
    },
    ...(got.note ? { note: got.note } : {}),
  };
}

/** The window at `nowSeconds` and its plan, or why the expectation stops there (not testable, an error). */
function planAt(e: Expectation, times: Times, read: ReadRules, nowSeconds: number): Planned | Stop {
  const resolved = resolveWindow(read.rules, times, nowSeconds);
  if (resolved.kind !== 'window') return stop(resolved.kind, resolved.reason);
  const unknown = Object.keys(e.group ?? {}).filter((k) => !read.breakdowns.includes(k));
  if (unknown.length > 0) {
    const has =
      read.breakdowns.length === 0 ? l10n.t('it has none') : l10n.t('its breakdowns: {0}', read.breakdowns.join(', '));
    return stop(
      'error',
      l10n.t("group names {0}, not a breakdown of the trigger's query ({1})", unknown.join(', '), has),
    );
  }
  const w = resolved.window;
  return { stop: false, w, plan: planOf(read, w.evalFrom, w.to, w.fetch, read.notes) };
}

/**
 * The series of an expectation's window: from its recording when it holds the queries the engine would
 * send (evaluated at the time the window was whole, so it stays testable forever), else from the service;
 * a recording of another query stops it, unless the run records (then the service answers).
 */
async function seriesOf(
  e: Expectation,
  times: Times,
  read: ReadRules,
  tested: TestedTrigger,
  run: BacktestRun,
  recorded: RecordedWindow | undefined,
): Promise<Fetched | Stop> {
  if (recorded !== undefined && times.to.kind === 'absolute') {
    const at = planAt(e, times, read, completeAt(times.to.seconds, read.rules.frequency));
    if (at.stop) return at;
    const played = playBack(recorded, tested.dataset, tested.query, at.plan);
    if (played.ok) return { ...at, data: played.data, played: true, note: { kind: 'kept' } };
    if (run.record === undefined) return stop('error', played.reason);
  }
  const at = planAt(e, times, read, run.nowSeconds);
  if (at.stop) return at;
  const why =
    run.record === undefined
      ? undefined
      : notRecordable(times.from, times.to, times.fromText, times.toText, read.rules.frequency, run.nowSeconds);
  const fetched = run.record === undefined || why !== undefined ? at : widened(e, times, read, run.nowSeconds, at);
  let data: CachedData[];
  try {
    data = await fetchSeries(run, tested.dataset, tested.query, fetched.plan);
  } catch (err) {
    if (run.signal.aborted) throw err;
    return stop(
      'error',
      err instanceof QueryIncompleteError ? l10n.t('the query did not complete: {0}', err.reason) : errorText(err),
    );
  }
  if (run.record === undefined) return { ...at, data, played: false };
  const window =
    why === undefined && times.from.kind === 'absolute' && times.to.kind === 'absolute'
      ? windowOf({ from: times.from.seconds, to: times.to.seconds }, tested.dataset, tested.query, fetched.plan, data)
      : undefined;
  return {
    ...at,
    data,
    played: false,
    note: window ? { kind: 'window', window } : { kind: 'not-recorded', reason: why ?? '' },
  };
}

/** The most consecutive evaluations a trigger may require: the service takes exceeded_limit from 1 to 5. */
const MAX_EXCEEDED_LIMIT = 5;

/**
 * What a recording fetches: as far back as the state at the window's start can reach (exceeded_limit 5),
 * so raising exceeded_limit later still runs from it; the window's own span where the service no longer
 * keeps that much. The evaluation reads only its own span of it.
 */
function widened(e: Expectation, times: Times, read: ReadRules, nowSeconds: number, at: Planned): Planned {
  if (read.rules.exceededLimit >= MAX_EXCEEDED_LIMIT) return at;
  const wide = planAt(e, times, { ...read, rules: { ...read.rules, exceededLimit: MAX_EXCEEDED_LIMIT } }, nowSeconds);
  return wide.stop ? at : wide;
}

/** The grid with only the groups whose breakdown values are the expectation's (all of them without one). */
function onlyGroup(grid: Grid, breakdowns: readonly string[], group: Expectation['group']): Grid {
  if (!group) return grid;
  const wanted = Object.entries(group).map(([k, v]) => [breakdowns.indexOf(k), v === null ? null : String(v)] as const);
  return { ...grid, groups: grid.groups.filter((g) => wanted.every(([i, v]) => g.keys?.[i] === v)) };
}

function notesOf(
  e: Expectation,
  w: ResolvedWindow,
  plan: PreviewPlan,
  outcome: PreviewOutcome,
  grid: Grid,
  read: ReadRules,
): string[] {
  const notes = [...w.notes, ...plan.notes];
  if (!outcome.exact)
    notes.push(
      l10n.t(
        'Approximate: {0} cannot be added up over buckets, so each {1} window is estimated from {2} buckets.',
        read.valueKey,
        spanLabel(read.rules.timeRange),
        spanLabel(plan.step),
      ),
    );
  if (read.rules.disabled) notes.push(disabledNote());
  if (e.group && grid.groups.length === 0)
    notes.push(l10n.t('No group{0} had data in the window.', groupText(e.group)));
  return notes;
}

export type Tally = Record<ExpectationStatus, number>;

/** How many outcomes of each status. */
export function tally(outcomes: Iterable<Pick<ExpectationOutcome, 'status'>>): Tally {
  const t: Tally = { passed: 0, failed: 0, 'not-testable': 0, error: 0 };
  for (const o of outcomes) t[o.status]++;
  return t;
}
