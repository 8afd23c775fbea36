// The query results panel: a query result's chart and table, or a trigger preview ("would it have
// fired?") with its threshold line, firing intervals and summary. Everything is built with DOM calls
// from the host's message (never innerHTML), so service strings stay text. The controls are
// vscode-elements; the last model shown is kept in the page's state, so a window reload brings it back.
import './shared/boot';
import './shared/elements';
import { MAX_STATE_CHARS, toCsv, toJson, ResultsToWebview, type Chart, type ResultsFromWebview, type ResultsModel, type ResultsState, type SavedRun } from './protocol/queryResults';
import { RESULTS_PAGE_TEXT as T } from './protocol/text/queryResults';
import { button as elementButton, byId, clear, h, sentence, setText } from './shared/dom';
import { palette, ResultsChart } from './shared/resultsChart';
import { ResultsTable } from './shared/resultsTable';
import { keepRelativeTimesCurrent, timeElement } from './shared/time';
import { onHostMessage, post, writeState } from './shared/vscodeApi';

const send = (m: ResultsFromWebview): void => post(m);
const app = byId('app');
const TOP_GROUPS = 10;
const LISTED_GROUPS = 200;

let chart: ResultsChart | undefined;

const button = (label: string, onClick: () => void, secondary = true): HTMLElement => elementButton(label, onClick, secondary);

/** A vscode-elements checkbox with its label. */
function checkbox(label: string, checked: boolean, onChange: (checked: boolean) => void): HTMLElementTagNameMap['vscode-checkbox'] {
  const box = h('vscode-checkbox', {}, label);
  box.checked = checked;
  box.addEventListener('change', () => onChange(box.checked));
  return box;
}

/** Groups of one aggregate, largest total first (a preview: the ones that fired first). */
function rankedGroups(c: Chart, aggregate: string, fired: readonly string[]): string[] {
  const totals = c.lines
    .filter((l) => l.aggregate === aggregate)
    .map((l) => ({ g: l.group, total: l.values.reduce<number>((s, v) => s + (v === null ? 0 : Math.abs(v)), 0) }));
  const firedRank = new Map(fired.map((g, i) => [g, i]));
  totals.sort((a, b) => (firedRank.get(a.g) ?? Infinity) - (firedRank.get(b.g) ?? Infinity) || b.total - a.total || a.g.localeCompare(b.g));
  return totals.map((t) => t.g);
}

function chartSection(model: ResultsModel, c: Chart): HTMLElement {
  const fired = [...new Set(model.preview?.firings.flatMap((f) => f.groups) ?? [])];
  let aggregate = c.aggregates[0] ?? '';
  let utc = false;
  let ranked = rankedGroups(c, aggregate, fired);
  let visible = new Set(ranked.slice(0, TOP_GROUPS));
  const colours = new Map<string, string>();
  const colourList = palette();
  const view = new ResultsChart();
  chart?.destroy();
  chart = view;
  const legend = h('ul', { className: 'legend' });
  const legendNote = h('p', { className: 'legend-note' });
  const filter = h('vscode-textfield', { className: 'group-filter', attrs: { type: 'search', placeholder: T.filterGroups, 'aria-label': T.filterGroupsLabel } });
  const redraw = (): void => {
    const drawn = ranked.filter((g) => visible.has(g));
    drawn.forEach((g, i) => colours.set(g, colourList[i % colourList.length] ?? '#888'));
    view.render({ chart: c, aggregate, groups: drawn, colours, utc, preview: model.preview });
    renderLegend();
  };
  const renderLegend = (): void => {
    clear(legend);
    const text = filter.value.trim().toLowerCase();
    const matching = ranked.filter((g) => text === '' || g.toLowerCase().includes(text));
    for (const g of matching.slice(0, LISTED_GROUPS)) {
      const box = checkbox(g === '' ? T.allEvents : g, visible.has(g), (checked) => {
        visible = new Set(visible);
        if (checked) visible.add(g);
        else visible.delete(g);
        redraw();
      });
      const swatch = h('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } });
      swatch.style.background = visible.has(g) ? (colours.get(g) ?? 'transparent') : 'transparent';
      legend.append(h('li', {}, swatch, box));
    }
    const hidden = matching.length - Math.min(matching.length, LISTED_GROUPS);
    setText(legendNote, T.drawn(visible.size, ranked.length, hidden));
  };
  filter.addEventListener('input', renderLegend);

  const controls = h('div', { className: 'chart-controls' });
  const utcBox = checkbox(T.utc, false, (checked) => {
    utc = checked;
    redraw();
  });
  utcBox.id = 'utc';
  controls.append(utcBox);
  if (c.aggregates.length > 1) {
    const select = h('vscode-single-select', { id: 'aggregate', attrs: { 'aria-label': T.aggregateLabel } }, ...c.aggregates.map((a) => h('vscode-option', { attrs: { value: a } }, a)));
    select.value = aggregate;
    select.addEventListener('change', () => {
      aggregate = select.value;
      ranked = rankedGroups(c, aggregate, fired);
      visible = new Set(ranked.slice(0, TOP_GROUPS));
      redraw();
    });
    controls.append(h('label', { className: 'aggregate' }, T.aggregate, ' ', select));
  }
  const showTop = button(T.topOnly, () => {
    visible = new Set(ranked.slice(0, TOP_GROUPS));
    redraw();
  });
  const section = h('section', { className: 'chart-section', attrs: { 'aria-label': T.chartLabel } }, c.note ? h('p', { className: 'note' }, c.note) : null, controls, view.element, ranked.length > 1 ? h('details', { className: 'groups', attrs: { open: ranked.length <= 20 } }, h('summary', {}, T.groups), h('div', { className: 'group-tools' }, filter, showTop), legendNote, legend) : null);
  queueMicrotask(redraw);
  return section;
}

function tableSection(model: ResultsModel): HTMLElement | null {
  if (!model.table) return null;
  const caption = model.preview ? T.firings : T.results;
  if (model.table.rows.length === 0) return h('section', {}, h('h2', {}, caption), h('p', { className: 'empty' }, model.preview ? T.wouldNotHaveFired : T.noRows));
  const table = new ResultsTable(model.table, caption, T.filterRowsLabel(model.preview !== undefined));
  const exportAs = (format: 'csv' | 'json', action: 'copy' | 'save') => () => {
    const view = table.view();
    send({ type: 'export', format, action, text: format === 'csv' ? toCsv(view) : toJson(view) });
  };
  const actions = h('div', { className: 'actions' }, button(T.copyCsv, exportAs('csv', 'copy')), button(T.copyJson, exportAs('json', 'copy')), button(T.saveCsv, exportAs('csv', 'save')), button(T.saveJson, exportAs('json', 'save')));
  return h('section', { className: 'table-section' }, h('h2', {}, caption), actions, table.element);
}

function render(model: ResultsModel): void {
  app.removeAttribute('aria-busy');
  clear(app);
  const status = h('p', { id: 'status', className: `status ${model.status}`, attrs: { role: model.status === 'failed' ? 'alert' : 'status' } });
  if (model.status === 'failed') setText(status, T.failed(model.subject ?? 'query', model.message));
  else if (model.status === 'incomplete') setText(status, model.message ?? T.incomplete);
  const toolbar = h('div', { className: 'toolbar' });
  if (model.canRerun) toolbar.append(button(T.runAgain, () => send({ type: 'rerun', withOptions: false }), false), button(T.options, () => send({ type: 'rerun', withOptions: true })));
  if (model.links.query) toolbar.append(button(T.openInBrowser, () => send({ type: 'openLink', which: 'query' })));
  if (model.links.graph) toolbar.append(button(T.openGraph, () => send({ type: 'openLink', which: 'graph' })));
  const busy = h('p', { id: 'busy', className: 'busy', attrs: { 'aria-live': 'polite', hidden: true } });
  const exported = h('p', { id: 'exported', className: 'exported', attrs: { 'aria-live': 'polite' } });
  // When it ran: relative, the exact UTC time on hover (as in the forms).
  const ran = model.ranAt === undefined ? null : h('p', { id: 'ran-at', className: 'ran-at' }, ...sentence(model.restored ? T.restoredAt : T.ranAt, timeElement(new Date(model.ranAt).toISOString(), Date.now())));
  const note = model.note ? h('p', { id: 'note', className: 'note' }, model.note) : null;
  app.append(h('header', {}, h('h1', {}, model.title), h('p', { className: 'subtitle' }, model.subtitle), ran, note, toolbar, busy, status.textContent ? status : null));
  const p = model.preview;
  if (p) {
    const notes = p.notes.length > 0 ? h('ul', { className: 'notes' }, ...p.notes.map((n) => h('li', {}, n))) : null;
    app.append(h('section', { className: 'preview', attrs: { 'aria-label': T.previewSummary } }, h('p', { id: 'summary', className: 'summary' }, p.summary), h('p', { className: 'value-label' }, T.valueLabel(p.valueLabel, p.threshold.label)), notes));
  }
  const c = model.chart;
  if (c && c.times.length > 0 && c.lines.length > 0) app.append(chartSection(model, c));
  else if (model.status === 'complete') app.append(h('p', { id: 'no-chart', className: 'empty' }, model.chart ? T.noPoints : T.noSeries));
  const table = tableSection(model);
  if (table) app.append(table);
  app.append(exported);
  for (const t of model.totals) {
    app.append(h('section', { className: 'totals' }, h('h2', {}, t.title), h('table', {}, h('tbody', {}, ...t.rows.map(([k, v]) => h('tr', {}, h('th', { attrs: { scope: 'row' } }, k), h('td', { className: typeof v === 'number' ? 'num' : '' }, v === null ? '' : String(v))))))));
  }
}

/** Keeps what a window reload needs: the model (unless too large to keep) and how to run it again. */
function keep(model: ResultsModel, title: string | undefined, saved: SavedRun | undefined): void {
  const state: ResultsState = { title: title ?? model.title, ...(saved ? { saved } : {}) };
  if (JSON.stringify(model).length <= MAX_STATE_CHARS) state.model = model;
  writeState(state);
}

onHostMessage(ResultsToWebview, (m) => {
  if (m.type === 'show') {
    render(m.model);
    keep(m.model, m.title, m.saved);
  }
  else if (m.type === 'busy') {
    const busy = document.getElementById('busy');
    if (busy) {
      busy.hidden = m.label === null;
      setText(busy, m.label ?? '');
    }
  } else if (m.type === 'exported') {
    const el = document.getElementById('exported');
    if (el) setText(el, m.message);
  }
});
keepRelativeTimesCurrent();
send({ type: 'ready' });
