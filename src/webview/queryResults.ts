// The query results panel: a query result's chart and table, or a trigger preview ("would it have
// fired?") with its threshold line, firing intervals and summary. Everything is built with DOM calls
// from the host's message (never innerHTML), so service strings stay text.
import './shared/boot';
import { formatText, toCsv, toJson, ResultsToWebview, type Chart, type ResultsFromWebview, type ResultsModel, type ResultsStrings } from './protocol/queryResults';
import { byId, clear, h, setText } from './shared/dom';
import { palette, ResultsChart } from './shared/resultsChart';
import { ResultsTable } from './shared/resultsTable';
import { onHostMessage, post } from './shared/vscodeApi';

const send = (m: ResultsFromWebview): void => post(m);
const app = byId('app');
const TOP_GROUPS = 10;
const LISTED_GROUPS = 200;

let chart: ResultsChart | undefined;

function button(label: string, onClick: () => void, secondary = true): HTMLButtonElement {
  const b = h('button', { className: secondary ? 'secondary' : '', attrs: { type: 'button' } }, label);
  b.addEventListener('click', onClick);
  return b;
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

function chartSection(model: ResultsModel, c: Chart, s: ResultsStrings): HTMLElement {
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
  const filter = h('input', { attrs: { type: 'search', placeholder: s.filterGroups, 'aria-label': s.filterGroupsLabel } });
  const redraw = (): void => {
    const drawn = ranked.filter((g) => visible.has(g));
    drawn.forEach((g, i) => colours.set(g, colourList[i % colourList.length] ?? '#888'));
    view.render({ chart: c, aggregate, groups: drawn, colours, utc, preview: model.preview, strings: s });
    renderLegend();
  };
  const renderLegend = (): void => {
    clear(legend);
    const text = filter.value.trim().toLowerCase();
    const matching = ranked.filter((g) => text === '' || g.toLowerCase().includes(text));
    for (const g of matching.slice(0, LISTED_GROUPS)) {
      const box = h('input', { attrs: { type: 'checkbox' } });
      box.checked = visible.has(g);
      box.addEventListener('change', () => {
        visible = new Set(visible);
        if (box.checked) visible.add(g);
        else visible.delete(g);
        redraw();
      });
      const swatch = h('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } });
      swatch.style.background = visible.has(g) ? (colours.get(g) ?? 'transparent') : 'transparent';
      legend.append(h('li', {}, h('label', {}, box, swatch, g === '' ? s.allEvents : g)));
    }
    const hidden = matching.length - Math.min(matching.length, LISTED_GROUPS);
    setText(legendNote, formatText(hidden > 0 ? s.groupsDrawnMore : ranked.length === 1 ? s.groupsDrawnOne : s.groupsDrawn, visible.size, ranked.length, hidden));
  };
  filter.addEventListener('input', renderLegend);

  const controls = h('div', { className: 'chart-controls' });
  const utcBox = h('input', { id: 'utc', attrs: { type: 'checkbox' } });
  utcBox.addEventListener('change', () => {
    utc = utcBox.checked;
    redraw();
  });
  controls.append(h('label', {}, utcBox, ` ${s.timesInUtc}`));
  if (c.aggregates.length > 1) {
    const select = h('select', { attrs: { 'aria-label': s.aggregateShown } }, ...c.aggregates.map((a) => h('option', { attrs: { value: a } }, a)));
    select.addEventListener('change', () => {
      aggregate = select.value;
      ranked = rankedGroups(c, aggregate, fired);
      visible = new Set(ranked.slice(0, TOP_GROUPS));
      redraw();
    });
    controls.append(h('label', {}, `${s.aggregate} `, select));
  }
  const showTop = button(formatText(s.topOnly, TOP_GROUPS), () => {
    visible = new Set(ranked.slice(0, TOP_GROUPS));
    redraw();
  });
  const section = h('section', { className: 'chart-section', attrs: { 'aria-label': s.chart } }, c.note ? h('p', { className: 'note' }, c.note) : null, controls, view.element, ranked.length > 1 ? h('details', { className: 'groups', attrs: { open: ranked.length <= 20 } }, h('summary', {}, s.groups), filter, showTop, legendNote, legend) : null);
  queueMicrotask(redraw);
  return section;
}

function tableSection(model: ResultsModel, s: ResultsStrings): HTMLElement | null {
  if (!model.table) return null;
  const caption = model.preview ? s.firings : s.results;
  if (model.table.rows.length === 0) return h('section', {}, h('h2', {}, caption), h('p', { className: 'empty' }, model.preview ? s.wouldNotHaveFired : s.noRows));
  const table = new ResultsTable(model.table, caption, model.preview ? s.filterFirings : s.filterResults, s);
  const exportAs = (format: 'csv' | 'json', action: 'copy' | 'save') => () => {
    const view = table.view();
    send({ type: 'export', format, action, text: format === 'csv' ? toCsv(view) : toJson(view) });
  };
  const actions = h('div', { className: 'actions' }, button(s.copyCsv, exportAs('csv', 'copy')), button(s.copyJson, exportAs('json', 'copy')), button(s.saveCsv, exportAs('csv', 'save')), button(s.saveJson, exportAs('json', 'save')));
  return h('section', { className: 'table-section' }, h('h2', {}, caption), actions, table.element);
}

function render(model: ResultsModel, s: ResultsStrings): void {
  app.removeAttribute('aria-busy');
  clear(app);
  const status = h('p', { id: 'status', className: `status ${model.status}`, attrs: { role: model.status === 'failed' ? 'alert' : 'status' } });
  if (model.status === 'failed') setText(status, formatText(s.queryFailed, model.message ?? s.noReason));
  else if (model.status === 'incomplete') setText(status, model.message ?? s.incomplete);
  const toolbar = h('div', { className: 'toolbar' });
  if (model.canRerun) toolbar.append(button(s.runAgain, () => send({ type: 'rerun', withOptions: false }), false), button(s.options, () => send({ type: 'rerun', withOptions: true })));
  if (model.links.query) toolbar.append(button(s.openInBrowser, () => send({ type: 'openLink', which: 'query' })));
  if (model.links.graph) toolbar.append(button(s.openGraphImage, () => send({ type: 'openLink', which: 'graph' })));
  const busy = h('p', { id: 'busy', className: 'busy', attrs: { 'aria-live': 'polite', hidden: true } });
  const exported = h('p', { id: 'exported', className: 'exported', attrs: { 'aria-live': 'polite' } });
  app.append(h('header', {}, h('h1', {}, model.title), h('p', { className: 'subtitle' }, model.subtitle), toolbar, busy, status.textContent ? status : null));
  const p = model.preview;
  if (p) {
    const notes = p.notes.length > 0 ? h('ul', { className: 'notes' }, ...p.notes.map((n) => h('li', {}, n))) : null;
    app.append(h('section', { className: 'preview', attrs: { 'aria-label': s.previewSummary } }, h('p', { id: 'summary', className: 'summary' }, p.summary), h('p', { className: 'value-label' }, formatText(s.previewLegend, p.valueLabel, p.threshold.label)), notes));
  }
  const c = model.chart;
  if (c && c.times.length > 0 && c.lines.length > 0) app.append(chartSection(model, c, s));
  else if (model.status === 'complete') app.append(h('p', { id: 'no-chart', className: 'empty' }, model.chart ? s.noDataPoints : s.noTimeSeries));
  const table = tableSection(model, s);
  if (table) app.append(table);
  app.append(exported);
  for (const t of model.totals) {
    app.append(h('section', { className: 'totals' }, h('h2', {}, t.title), h('table', {}, h('tbody', {}, ...t.rows.map(([k, v]) => h('tr', {}, h('th', { attrs: { scope: 'row' } }, k), h('td', { className: typeof v === 'number' ? 'num' : '' }, v === null ? '' : String(v))))))));
  }
}

onHostMessage(ResultsToWebview, (m) => {
  if (m.type === 'show') render(m.model, m.strings);
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
send({ type: 'ready' });
