// The noise diff of a plan: for each trigger a plan creates, updates or deletes, what it would have notified over
// the last days with the service's version and with the file's version, side by side, each evaluated as
// `obs noise` evaluates (noiseReport.ts), and whether the trigger's own tests pass with each version. Both
// versions are evaluated in one run over the session's results: a query they share (a threshold change alters
// none) is created once. A create has no service version; a delete has no file version: it shows what the
// service would stop sending. No vscode import.
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from '../api/schemas/slugs';
import {
  erroredOutcomes,
  prepareTrigger,
  runTriggerTests,
  tally,
  type ExpectationOutcome,
  type Tally,
} from './backtest';
import type { ResultStore } from './cache';
import { meets, type PreviewOutcome, type TriggerRules } from './evaluate';
import type { NoiseCounts } from './noise';
import { evaluateWindow, prepareNoise, type NoiseSession, type PreparedNoise } from './noiseReport';
import type { PlanMode } from './plan';
import { disabledNote } from './rules';
import { parseTestFile } from './testFile';
import * as l10n from '@vscode/l10n';

/** Groups named in the top list of a side: the ones in the most notifications. */
const TOP_GROUPS = 3;

/** A test file of the trigger: how the user knows it (its path) and its text. */
export interface TestText {
  label: string;
  text: string;
}

/** One change of a plan, as the diff evaluates it. */
export interface NoiseDiffTarget {
  /** Unique in the diff (the plan's change key). */
  key: string;
  /** The file that holds the trigger; for a delete, how the service's trigger is named. */
  label: string;
  action: 'create' | 'update' | 'delete';
  /** The trigger's name and dataset as the plan names them. */
  name: string;
  dataset: string;
  /** The service's version as a trigger file's text; absent for a create. */
  service?: string;
  /** The file's version (what the plan would write) as a trigger file's text; absent for a delete. */
  file?: string;
  /** The test files that test the trigger's file: run with each version. */
  tests: readonly TestText[];
  /** Why the tests of its file are not run (none are given then). */
  testsNotRun?: string;
}

export interface NoiseDiffOptions {
  mode: PlanMode;
  /** The window in days, 1 to 7. */
  days: number;
}

/** Groups that met the threshold when a notification was sent: how many, and those in the most. */
interface GroupsFired {
  count: number;
  top: { label: string; notifications: number }[];
}

export type NoiseSide =
  | {
      kind: 'evaluated';
      rules: Pick<TriggerRules, 'op' | 'value' | 'exceededLimit' | 'alertType' | 'frequency'>;
      counts: NoiseCounts;
      /** Times (epoch seconds) of the first and the last notification in the window; absent without one. */
      first?: number;
      last?: number;
      /** Absent for a query without breakdowns (one group). */
      groups?: GroupsFired;
      /** The window: evaluations in (from, to]. */
      from: number;
      to: number;
      notes: string[];
    }
  | { kind: 'skipped'; reason: string };

/** The trigger's tests run with one version: the tally, and each expectation that did not pass. */
export interface SideTests {
  tally: Tally;
  notPassed: { file: string; name: string; status: Exclude<ExpectationOutcome['status'], 'passed'>; message: string }[];
}

export interface NoiseDiffEntry {
  key: string;
  label: string;
  action: NoiseDiffTarget['action'];
  name: string;
  dataset: string;
  /** With the service's version; absent for a create. */
  was?: NoiseSide;
  /** With the file's version; absent for a delete. */
  wouldBe?: NoiseSide;
  /** The test files run (their labels); none: no test file tests the trigger's file, or `testsNotRun` says why. */
  testFiles: string[];
  testsNotRun?: string;
  /** Each version's test outcome, when test files were run with it. */
  testsWas?: SideTests;
  testsWouldBe?: SideTests;
}

/** The groups that met the threshold at the evaluations that sent a notification, most often first. */
function groupsFired(
  outcome: PreviewOutcome,
  rules: Pick<TriggerRules, 'op' | 'value'>,
  sentAt: readonly number[],
): GroupsFired {
  const byGroup = new Map<string, number>();
  for (const j of sentAt)
    for (const g of outcome.values) {
      const v = g.values[j];
      if (v !== undefined && !Number.isNaN(v) && meets(v, rules.op, rules.value))
        byGroup.set(g.label, (byGroup.get(g.label) ?? 0) + 1);
    }
  const top = [...byGroup]
    .map(([label, notifications]) => ({ label, notifications }))
    .sort((a, b) => b.notifications - a.notifications || a.label.localeCompare(b.label))
    .slice(0, TOP_GROUPS);
  return { count: byGroup.size, top };
}

/** One version's side: read, its saved query read back, evaluated over the window; or why it is not. */
async function sideOf(
  target: NoiseDiffTarget,
  text: string,
  s: NoiseSession,
  options: NoiseDiffOptions,
  cache: ResultStore,
): Promise<NoiseSide> {
  const prepared = await prepareNoise({ key: target.key, label: target.label, text, tests: [] }, s);
  if (!isPrepared(prepared)) return { kind: 'skipped', reason: prepared.reason };
  const evaluated = await evaluateWindow(prepared, s, options, cache);
  if (evaluated.kind === 'skipped') return evaluated;
  const { read } = prepared;
  const { counts, sentAt } = evaluated.noise;
  const { op, value, exceededLimit, alertType, frequency } = read.rules;
  const timeOf = (j: number | undefined) => (j === undefined ? undefined : evaluated.outcome.times[j]);
  const first = timeOf(sentAt[0]);
  const last = timeOf(sentAt.at(-1));
  const notes = read.rules.disabled ? [disabledNote(), ...evaluated.plan.notes] : evaluated.plan.notes;
  return {
    kind: 'evaluated',
    rules: { op, value, exceededLimit, alertType, frequency },
    counts,
    ...(first === undefined ? {} : { first }),
    ...(last === undefined ? {} : { last }),
    ...(read.breakdowns.length === 0 ? {} : { groups: groupsFired(evaluated.outcome, read.rules, sentAt) }),
    from: evaluated.from,
    to: evaluated.to,
    notes,
  };
}

const isPrepared = (p: object): p is PreparedNoise => 'tested' in p;

/** The expectations of every test file, run with one version of the trigger (its text) as `obs test` runs them. */
async function testsWith(
  text: string,
  tests: readonly TestText[],
  s: NoiseSession,
  cache: ResultStore,
): Promise<SideTests> {
  const outcomes: { file: string; outcome: Pick<ExpectationOutcome, 'name' | 'status' | 'message'> }[] = [];
  for (const t of tests) {
    const parsed = parseTestFile(t.text);
    if (!parsed.ok) {
      const message = l10n.t('not a valid test file (obs test names its problems)');
      outcomes.push({ file: t.label, outcome: { name: '', status: 'error', message } });
      continue;
    }
    const prepared = await prepareTrigger(text, parsed.file, s.api, s.signal);
    const ran = prepared.ok
      ? await runTriggerTests(parsed.file, prepared.tested, {
          ...s,
          cache,
          nowSeconds: Math.floor(s.nowSeconds / 60) * 60,
        })
      : erroredOutcomes(parsed.file, prepared.reason);
    for (const o of ran) outcomes.push({ file: t.label, outcome: o });
  }
  const notPassed = outcomes.flatMap(({ file, outcome: o }) =>
    o.status === 'passed' ? [] : [{ file, name: o.name, status: o.status, message: o.message }],
  );
  return { tally: tally(outcomes.map((o) => o.outcome)), notPassed };
}

/** One change: the service's side, then the file's (which finds the queries the first created), then the tests. */
async function diffOne(
  t: NoiseDiffTarget,
  s: NoiseSession,
  options: NoiseDiffOptions,
  cache: ResultStore,
): Promise<NoiseDiffEntry> {
  const entry: NoiseDiffEntry = heading(t);
  if (t.service !== undefined) entry.was = await sideOf(t, t.service, s, options, cache);
  if (t.file !== undefined) entry.wouldBe = await sideOf(t, t.file, s, options, cache);
  if (t.tests.length === 0) return entry;
  if (t.service !== undefined) entry.testsWas = await testsWith(t.service, t.tests, s, cache);
  if (t.file !== undefined) entry.testsWouldBe = await testsWith(t.file, t.tests, s, cache);
  return entry;
}

const heading = (t: NoiseDiffTarget) => ({
  key: t.key,
  label: t.label,
  action: t.action,
  name: t.name,
  dataset: t.dataset === ENVIRONMENT_WIDE ? ENVIRONMENT_WIDE_TRIGGER_SLUG : t.dataset,
  testFiles: t.tests.map((x) => x.label),
  ...(t.testsNotRun === undefined ? {} : { testsNotRun: t.testsNotRun }),
});

/** Why a version was not evaluated after a cancel. */
function cancelled(t: NoiseDiffTarget, why: string): NoiseDiffEntry {
  const side: NoiseSide = { kind: 'skipped', reason: why };
  return {
    ...heading(t),
    ...(t.service === undefined ? {} : { was: side }),
    ...(t.file === undefined ? {} : { wouldBe: side }),
  };
}

/**
 * Each change in turn, both versions in one run over the session's results (none it used is dropped before it
 * ends). Paced like every query of the session. After a cancel, the changes not evaluated say so.
 */
export async function noiseDiff(
  targets: readonly NoiseDiffTarget[],
  s: NoiseSession,
  options: NoiseDiffOptions,
): Promise<NoiseDiffEntry[]> {
  return s.cache.inRun(async (cache) => {
    const out: NoiseDiffEntry[] = [];
    for (const t of targets) {
      if (s.signal.aborted) {
        out.push(cancelled(t, l10n.t('the report was cancelled before its turn')));
        continue;
      }
      try {
        out.push(await diffOne(t, s, options, cache));
      } catch (err) {
        if (!s.signal.aborted) throw err;
        out.push(cancelled(t, l10n.t('the report was cancelled')));
      }
    }
    return out;
  });
}

/** Notifications of a side (0 for none), undefined when it was not evaluated. */
export const sentBy = (side: NoiseSide | undefined): number | undefined =>
  side === undefined ? 0 : side.kind === 'evaluated' ? side.counts.notifications : undefined;

/** Biggest change first (file's notifications less the service's); those with a side not evaluated last. */
export function biggestChangeFirst(entries: readonly NoiseDiffEntry[]): NoiseDiffEntry[] {
  const change = (e: NoiseDiffEntry) => {
    const was = sentBy(e.was);
    const now = sentBy(e.wouldBe);
    return was === undefined || now === undefined ? -1 : Math.abs(now - was);
  };
  return [...entries].sort((a, b) => change(b) - change(a) || a.label.localeCompare(b.label));
}
