// The query results panel: a query result's chart and table, or a trigger preview ("would it have
// fired?") with its threshold line, firing intervals and summary. Everything is drawn with lit-html
// templates from the host's message (never innerHTML), so service strings stay text. The controls are
// vscode-elements; the last model shown is kept in the page's state, so a window reload brings it back.
import './shared/boot';
import './shared/elements';
import { html, nothing, type TemplateResult } from 'lit-html';
import { keyed } from 'lit-html/directives/keyed.js';
import {
  MAX_STATE_CHARS,
  toCsv,
  toJson,
  ResultsToWebview,
  type Preview,
  type ResultsFromWebview,
  type ResultsModel,
  type ResultsState,
  type SavedRun,
} from './protocol/queryResults';
import { RESULTS_PAGE_TEXT as T } from './protocol/text/queryResults';
import { ChartSection } from './shared/chartSection';
import { byId, drawPage, sentence } from './shared/dom';
import { ResultsTable } from './shared/resultsTable';
import { keepRelativeTimesCurrent, timeView } from './shared/time';
import { onHostMessage, post, writeState } from './shared/vscodeApi';

type Totals = ResultsModel['totals'][number];

const send = (m: ResultsFromWebview): void => post(m);
const app = byId('app');

/** The model shown, with the parts that keep their own state; `version` counts the models, each drawn anew. */
interface Shown {
  version: number;
  model: ResultsModel;
  chart: ChartSection | undefined;
  table: ResultsTable | undefined;
}

let shown: Shown | undefined;
let versions = 0;
/** What the host is doing now (a new run), or null. */
let busy: string | null = null;
/** What the last export did. */
let exported = '';

function draw(): void {
  if (shown) drawPage(app, keyed(shown.version, resultsPage(shown)));
}

const button = (label: string, onClick: () => void, secondary = true): TemplateResult =>
  html`<vscode-button ?secondary=${secondary} @click=${onClick}>${label}</vscode-button>`;

function resultsPage({ model, chart, table }: Shown): TemplateResult {
  const hasChart = chart !== undefined;
  return html`<header>
      <h1>${model.title}</h1>
      <p class="subtitle">${model.subtitle}</p>
      ${ranAt(model)}
      ${model.note ? html`<p id="note" class="note">${model.note}</p>` : nothing}
      ${toolbar(model)}
      <p id="busy" class="busy" aria-live="polite" ?hidden=${busy === null}>${busy ?? ''}</p>
      ${statusLine(model)}
    </header>
    ${model.preview ? previewSummary(model.preview) : nothing}
    ${hasChart ? chart.element : model.status === 'complete' ? html`<p id="no-chart" class="empty">${model.chart ? T.noPoints : T.noSeries}</p>` : nothing}
    ${tableSection(model, table)}
    <p id="exported" class="exported" aria-live="polite">${exported}</p>
    ${model.totals.map(totalsSection)}`;
}

/** When it ran: relative, the exact UTC time on hover (as in the forms). */
function ranAt(model: ResultsModel): TemplateResult | typeof nothing {
  if (model.ranAt === undefined) return nothing;
  const when = timeView(new Date(model.ranAt).toISOString(), Date.now());
  return html`<p id="ran-at" class="ran-at">${sentence(model.restored ? T.restoredAt : T.ranAt, when)}</p>`;
}

function toolbar(model: ResultsModel): TemplateResult {
  const buttons = [
    ...(model.canRerun
      ? [
          button(T.runAgain, () => send({ type: 'rerun', withOptions: false }), false),
          button(T.options, () => send({ type: 'rerun', withOptions: true })),
        ]
      : []),
    ...(model.links.query ? [button(T.openInBrowser, () => send({ type: 'openLink', which: 'query' }))] : []),
    ...(model.links.graph ? [button(T.openGraph, () => send({ type: 'openLink', which: 'graph' }))] : []),
  ];
  return html`<div class="toolbar">${buttons}</div>`;
}

function statusLine(model: ResultsModel): TemplateResult | typeof nothing {
  const text =
    model.status === 'failed'
      ? T.failed(model.subject ?? 'query', model.message)
      : model.status === 'incomplete'
        ? (model.message ?? T.incomplete)
        : '';
  if (text === '') return nothing;
  return html`<p id="status" class="status ${model.status}" role=${model.status === 'failed' ? 'alert' : 'status'}>${text}</p>`;
}

function previewSummary(p: Preview): TemplateResult {
  const notes = p.notes.length > 0 ? html`<ul class="notes">${p.notes.map((n) => html`<li>${n}</li>`)}</ul>` : nothing;
  return html`<section class="preview" aria-label=${T.previewSummary}>
    <p id="summary" class="summary">${p.summary}</p>
    <p class="value-label">${T.valueLabel(p.valueLabel, p.threshold.label)}</p>
    ${notes}
  </section>`;
}

function tableSection(model: ResultsModel, table: ResultsTable | undefined): TemplateResult | typeof nothing {
  if (!model.table) return nothing;
  const caption = model.preview ? T.firings : T.results;
  if (!table)
    return html`<section><h2>${caption}</h2><p class="empty">${model.preview ? T.wouldNotHaveFired : T.noRows}</p></section>`;
  const exportAs = (format: 'csv' | 'json', action: 'copy' | 'save') => () => {
    const view = table.view();
    send({ type: 'export', format, action, text: format === 'csv' ? toCsv(view) : toJson(view) });
  };
  const actions = [
    button(T.copyCsv, exportAs('csv', 'copy')),
    button(T.copyJson, exportAs('json', 'copy')),
    button(T.saveCsv, exportAs('csv', 'save')),
    button(T.saveJson, exportAs('json', 'save')),
  ];
  return html`<section class="table-section"><h2>${caption}</h2><div class="actions">${actions}</div>${table.element}</section>`;
}

function totalsSection(t: Totals): TemplateResult {
  const row = ([k, v]: Totals['rows'][number]): TemplateResult =>
    html`<tr><th scope="row">${k}</th><td class=${typeof v === 'number' ? 'num' : ''}>${v === null ? '' : String(v)}</td></tr>`;
  return html`<section class="totals"><h2>${t.title}</h2><table><tbody>${t.rows.map(row)}</tbody></table></section>`;
}

/** Shows a new model, drawn anew: a fresh chart and table, nothing busy, no export said. */
function show(model: ResultsModel): void {
  shown?.chart?.destroy();
  const c = model.chart;
  const table =
    model.table && model.table.rows.length > 0
      ? new ResultsTable(
          model.table,
          model.preview ? T.firings : T.results,
          T.filterRowsLabel(model.preview !== undefined),
        )
      : undefined;
  // The chart's "Times in UTC" is the page's time setting: the table's times follow it.
  const chart =
    c && c.times.length > 0 && c.lines.length > 0 ? new ChartSection(model, c, (utc) => table?.setUtc(utc)) : undefined;
  versions += 1;
  shown = { version: versions, model, chart, table };
  busy = null;
  exported = '';
  app.removeAttribute('aria-busy');
  draw();
  // uPlot sizes the chart to its place on the page: drawn once the section is there.
  chart?.plot();
}

/** Keeps what a window reload needs: the model (unless too large to keep) and how to run it again. */
function keep(model: ResultsModel, title: string | undefined, saved: SavedRun | undefined): void {
  const state: ResultsState = { title: title ?? model.title, ...(saved ? { saved } : {}) };
  if (JSON.stringify(model).length <= MAX_STATE_CHARS) state.model = model;
  writeState(state);
}

onHostMessage(ResultsToWebview, (m) => {
  if (m.type === 'show') {
    show(m.model);
    keep(m.model, m.title, m.saved);
  } else if (m.type === 'busy') {
    busy = m.label;
    draw();
  } else if (m.type === 'exported') {
    exported = m.message;
    draw();
  }
});
keepRelativeTimesCurrent(() => {
  draw();
  shown?.table?.draw();
});
send({ type: 'ready' });
