// What the results panel shows, built from a query result or a trigger preview: the chart's lines, the
// table, the totals and the preview's overlay. No vscode import.
import type { QueryResult, ResultRow } from '../../api/schemas';
import type { Cell, Chart, ChartLine, ResultsModel, Table } from '../../webview/protocol/queryResults';
import type { PreviewOutcome, TriggerRules } from '../../backtest/evaluate';
import type { PreviewPlan } from '../../backtest/plan';
import { epochSeconds } from '../../backtest/series';
import { spanLabel } from '../../backtest/summary';
import * as l10n from '@vscode/l10n';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const cell = (v: unknown): Cell =>
  v === null || v === undefined
    ? null
    : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
      ? v
      : JSON.stringify(v);

/** Breakdown columns of a result: those the query names, else the members whose values are not numbers. */
function breakdownsOf(result: QueryResult, rows: readonly ResultRow[]): string[] {
  const named = result.query?.breakdowns;
  if (Array.isArray(named)) return named.filter((b): b is string => typeof b === 'string');
  const keys = new Set<string>();
  for (const r of rows) for (const [k, v] of Object.entries(r)) if (typeof v !== 'number' && v !== null) keys.add(k);
  return [...keys];
}

function tableOf(rows: readonly ResultRow[], breakdowns: readonly string[]): Table {
  const columns = [...breakdowns];
  const seen = new Set(columns);
  for (const r of rows) {
    for (const k of Object.keys(r)) {
      if (seen.has(k)) continue;
      seen.add(k);
      columns.push(k);
    }
  }
  return { columns, rows: rows.map((r) => columns.map((c) => cell(r[c]))) };
}

function chartOf(
  series: readonly { time: string | number; data?: ResultRow | null | undefined }[],
  breakdowns: readonly string[],
): Chart | null {
  const times = [...new Set(series.map((p) => epochSeconds(p.time)).filter(Number.isFinite))].sort((a, b) => a - b);
  if (times.length === 0) return null;
  const index = new Map(times.map((t, i) => [t, i]));
  const lines = new Map<string, ChartLine>();
  const aggregates: string[] = [];
  for (const p of series) {
    const i = index.get(epochSeconds(p.time));
    if (i === undefined || !p.data) continue;
    const group = breakdowns
      .map((b) => (p.data?.[b] === null || p.data?.[b] === undefined ? '(none)' : String(p.data[b])))
      .join(' · ');
    for (const [k, v] of Object.entries(p.data)) {
      if (breakdowns.includes(k) || (typeof v !== 'number' && v !== null)) continue;
      if (!aggregates.includes(k)) aggregates.push(k);
      const key = `${group}\u0000${k}`;
      let line = lines.get(key);
      if (!line) {
        line = { group, aggregate: k, values: new Array<number | null>(times.length).fill(null) };
        lines.set(key, line);
      }
      line.values[i] = typeof v === 'number' ? v : null;
    }
  }
  // A count or sum of no events is 0, not a gap: the service leaves such buckets out of the series.
  for (const line of lines.values())
    if (ZERO_WHEN_EMPTY.test(line.aggregate)) line.values = line.values.map((v) => v ?? 0);
  return { times, aggregates, lines: [...lines.values()] };
}

const ZERO_WHEN_EMPTY = /^(COUNT|SUM|COUNT_DISTINCT|COUNT_DATAPOINTS|HISTOGRAM_COUNT)(\(|$)/;

function totalsOf(title: string, raw: unknown): ResultsModel['totals'] {
  const record =
    isRecord(raw) && isRecord(raw.data)
      ? raw.data
      : isRecord(raw)
        ? raw
        : Array.isArray(raw) && isRecord(raw[0])
          ? isRecord(raw[0].data)
            ? raw[0].data
            : raw[0]
          : undefined;
  if (!record) return [];
  return [{ title, rows: Object.entries(record).map(([k, v]) => [k, cell(v)] as [string, Cell]) }];
}

export interface ResultContext {
  title: string;
  subtitle: string;
  links: { query: boolean; graph: boolean };
  canRerun: boolean;
  /** Set when the result is not complete (or could not be checked again): why, and what still works. */
  incomplete?: string;
}

export function modelFromResult(result: QueryResult, ctx: ResultContext): ResultsModel {
  const data = result.data ?? undefined;
  const rows = (data?.results ?? []).map((r) => r.data ?? {});
  const breakdowns = breakdownsOf(result, [...rows, ...(data?.series ?? []).map((p) => p.data ?? {})]);
  const complete = result.complete && ctx.incomplete === undefined;
  return {
    title: ctx.title,
    subtitle: ctx.subtitle,
    status: complete ? 'complete' : 'incomplete',
    ...(complete ? {} : { message: ctx.incomplete ?? l10n.t('The result is not complete yet.') }),
    chart: data?.series ? chartOf(data.series, breakdowns) : null,
    table: data?.results ? tableOf(rows, breakdowns) : null,
    totals: [
      ...totalsOf(l10n.t('Totals'), data?.total_by_aggregate),
      ...totalsOf(l10n.t('Other groups'), data?.other_by_aggregate),
    ],
    links: ctx.links,
    canRerun: ctx.canRerun,
  };
}

/** A result that failed: the service's error text, and nothing pretending to be data. */
export function failedModel(ctx: ResultContext, message: string): ResultsModel {
  return {
    title: ctx.title,
    subtitle: ctx.subtitle,
    status: 'failed',
    message,
    chart: null,
    table: null,
    totals: [],
    links: ctx.links,
    canRerun: ctx.canRerun,
  };
}

/** A preview that could not be made: the reason, in the panel where the preview would be, and Run Again. */
export function failedPreviewModel(title: string, where: string, message: string): ResultsModel {
  return {
    title,
    subtitle: where,
    status: 'failed',
    subject: 'preview',
    message,
    chart: null,
    table: null,
    totals: [],
    links: { query: false, graph: false },
    canRerun: true,
  };
}

function valueLabel(rules: TriggerRules, plan: PreviewPlan): string {
  const base = l10n.t('{0} over {1}', plan.valueKey, spanLabel(rules.timeRange));
  if (!rules.baseline) return base;
  const earlier = spanLabel(rules.baseline.offsetMinutes * 60);
  return rules.baseline.type === 'percentage'
    ? l10n.t('% change of {0} against {1} earlier', base, earlier)
    : l10n.t('change of {0} against {1} earlier', base, earlier);
}

/**
 * A line's values for the chart: rounded to 6 decimals, null where there is none. A plain loop into an array
 * made at its length: Array.from with a mapping function was a fifth of a 7-day preview of 50 groups (504,000
 * values), and growing the array by push took twice as long as filling one made whole.
 */
function chartValues(values: Float64Array): (number | null)[] {
  const out = new Array<number | null>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    out[i] = v !== v ? null : Math.round(v * 1e6) / 1e6;
  }
  return out;
}

export interface PreviewContext {
  title: string;
  subtitle: string;
  summary: string;
}

export function modelFromPreview(plan: PreviewPlan, outcome: PreviewOutcome, ctx: PreviewContext): ResultsModel {
  const rules = plan.rules;
  const label = valueLabel(rules, plan);
  const notes = [...plan.notes];
  if (!outcome.exact)
    notes.unshift(
      l10n.t(
        'Approximate: {0} cannot be added up over buckets, so each {1} window is estimated from {2} buckets.',
        plan.valueKey,
        spanLabel(rules.timeRange),
        spanLabel(plan.step),
      ),
    );
  const lines = outcome.values.map((g) => ({ group: g.label, aggregate: label, values: chartValues(g.values) }));
  // How long each firing lasted, in minutes (a number, so it sorts), beside its relative times.
  const firingRows = outcome.firings.map((f): Cell[] => [
    new Date(f.start * 1000).toISOString(),
    f.end === null ? null : new Date(f.end * 1000).toISOString(),
    f.end === null ? null : Math.round((f.end - f.start) / 60),
    f.groups.join(', '),
  ]);
  return {
    title: ctx.title,
    subtitle: ctx.subtitle,
    status: 'complete',
    chart: {
      times: outcome.times,
      aggregates: [label],
      lines,
      ...(plan.coarseNote !== undefined ? { note: plan.coarseNote } : {}),
    },
    // Exact ISO times, shown relative with the exact UTC time on hover, and copied or saved as they are.
    table: {
      columns: [l10n.t('fired at'), l10n.t('resolved at'), l10n.t('lasted (min)'), l10n.t('groups')],
      rows: firingRows,
      timeColumns: [0, 1],
    },
    totals: [
      {
        title: l10n.t('Evaluations'),
        rows: [
          [l10n.t('evaluated'), outcome.evaluated],
          [l10n.t('outside the schedule'), outcome.outsideSchedule],
          [l10n.t('on_change notifications'), outcome.onChange.notifications],
          [l10n.t('on_change resolves'), outcome.onChange.resolves],
          [l10n.t('on_true notifications'), outcome.onTrue.notifications],
        ],
      },
    ],
    links: { query: false, graph: false },
    canRerun: true,
    preview: {
      summary: ctx.summary,
      notes,
      threshold: {
        op: rules.op,
        value: rules.value,
        label: l10n.t(
          'threshold {0} {1}',
          rules.op,
          `${rules.value}${rules.baseline?.type === 'percentage' ? ' %' : ''}`,
        ),
      },
      firings: outcome.firings.map((f) => ({ start: f.start, end: f.end, groups: f.groups })),
      exact: outcome.exact,
      valueLabel: label,
    },
  };
}
