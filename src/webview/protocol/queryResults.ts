// The messages between the query results panel and the extension host, both ways, as zod schemas; and
// the table exports (CSV, JSON) the page makes and the tests check byte for byte. No vscode import.
import * as z from 'zod';

export const RESULTS_VIEW_TYPE = 'obs.queryResults';

const Cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type Cell = z.infer<typeof Cell>;

/** One line of the chart: a group (breakdown values, '' without breakdowns) and one aggregate. */
export const ChartLine = z.strictObject({ group: z.string(), aggregate: z.string(), values: z.array(z.number().nullable()) });
export type ChartLine = z.infer<typeof ChartLine>;

export const Chart = z.strictObject({
  /** Epoch seconds, ascending. */
  times: z.array(z.number()),
  aggregates: z.array(z.string()),
  lines: z.array(ChartLine),
  /** Said plainly above the chart (e.g. a coarser step than asked for). */
  note: z.string().optional(),
});
export type Chart = z.infer<typeof Chart>;

export const Table = z.strictObject({ columns: z.array(z.string()), rows: z.array(z.array(Cell)) });
export type Table = z.infer<typeof Table>;

export const Firing = z.strictObject({ start: z.number(), end: z.number().nullable(), groups: z.array(z.string()) });

export const Preview = z.strictObject({
  summary: z.string(),
  notes: z.array(z.string()),
  threshold: z.strictObject({ op: z.enum(['>', '>=', '<', '<=']), value: z.number(), label: z.string() }),
  firings: z.array(Firing),
  exact: z.boolean(),
  /** What the chart's values are, e.g. "COUNT over 20 min" or "% change of COUNT against 1 d earlier". */
  valueLabel: z.string(),
});
export type Preview = z.infer<typeof Preview>;

export const ResultsModel = z.strictObject({
  title: z.string(),
  subtitle: z.string(),
  status: z.enum(['complete', 'incomplete', 'failed']),
  /** Why it is incomplete or failed, in the service's words where it gave any. */
  message: z.string().optional(),
  chart: Chart.nullable(),
  table: Table.nullable(),
  totals: z.array(z.strictObject({ title: z.string(), rows: z.array(z.tuple([z.string(), Cell])) })),
  /** Which of the result's links passed the check and can be opened. */
  links: z.strictObject({ query: z.boolean(), graph: z.boolean() }),
  preview: Preview.optional(),
  /** Whether "Run Again" (and "with Options") applies. */
  canRerun: z.boolean(),
});
export type ResultsModel = z.infer<typeof ResultsModel>;

/**
 * The page's own texts (labels, buttons, sentences), translated by the host: the page has no localisation
 * runtime of its own. `{0}`, `{1}`... mark the values filled in by `formatText`. Sent with every `show`.
 */
export const ResultsStrings = z.strictObject({
  filterGroups: z.string(),
  filterGroupsLabel: z.string(),
  allEvents: z.string(),
  groupsDrawnOne: z.string(),
  groupsDrawn: z.string(),
  groupsDrawnMore: z.string(),
  timesInUtc: z.string(),
  aggregateShown: z.string(),
  aggregate: z.string(),
  topOnly: z.string(),
  chart: z.string(),
  groups: z.string(),
  firings: z.string(),
  results: z.string(),
  filterFirings: z.string(),
  filterResults: z.string(),
  wouldNotHaveFired: z.string(),
  noRows: z.string(),
  copyCsv: z.string(),
  copyJson: z.string(),
  saveCsv: z.string(),
  saveJson: z.string(),
  queryFailed: z.string(),
  noReason: z.string(),
  incomplete: z.string(),
  runAgain: z.string(),
  options: z.string(),
  openInBrowser: z.string(),
  openGraphImage: z.string(),
  previewSummary: z.string(),
  previewLegend: z.string(),
  noDataPoints: z.string(),
  noTimeSeries: z.string(),
  value: z.string(),
  chartLabelOne: z.string(),
  chartLabel: z.string(),
  noGroupShown: z.string(),
  readoutHint: z.string(),
  noValues: z.string(),
  filterRows: z.string(),
  sortBy: z.string(),
  rowOne: z.string(),
  rows: z.string(),
  rowsMatch: z.string(),
  showMore: z.string(),
});
export type ResultsStrings = z.infer<typeof ResultsStrings>;

/** Fills `{0}`, `{1}`... of a translated text with values (a placeholder without a value stays as it is). */
export function formatText(template: string, ...values: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => {
    const v = values[Number(i)];
    return v === undefined ? whole : String(v);
  });
}

export const ResultsToWebview = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('show'), model: ResultsModel, strings: ResultsStrings }),
  z.strictObject({ type: z.literal('busy'), label: z.string().nullable() }),
  z.strictObject({ type: z.literal('exported'), message: z.string() }),
]);
export type ResultsToWebview = z.infer<typeof ResultsToWebview>;

/** An exported table is at most this long (what a save dialog or the clipboard is given). */
export const MAX_EXPORT_CHARS = 50_000_000;

export const ResultsFromWebview = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({
    type: z.literal('export'),
    format: z.enum(['csv', 'json']),
    action: z.enum(['copy', 'save']),
    text: z.string().max(MAX_EXPORT_CHARS),
  }),
  z.strictObject({ type: z.literal('openLink'), which: z.enum(['query', 'graph']) }),
  z.strictObject({ type: z.literal('rerun'), withOptions: z.boolean() }),
]);
export type ResultsFromWebview = z.infer<typeof ResultsFromWebview>;

function csvCell(c: Cell): string {
  if (c === null) return '';
  const s = String(c);
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV: a header line, then one line per row, CRLF line ends, fields quoted where needed. */
export function toCsv(table: Table): string {
  const lines = [table.columns.map(csvCell).join(','), ...table.rows.map((r) => r.map(csvCell).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

/** JSON: one object per row, keyed by column, as the service named them. */
export function toJson(table: Table): string {
  const objects = table.rows.map((r) => Object.fromEntries(table.columns.map((c, i) => [c, r[i] ?? null])));
  return `${JSON.stringify(objects, null, 2)}\n`;
}
