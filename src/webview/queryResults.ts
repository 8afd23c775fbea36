// The query results panel: a query result's chart and table, or a trigger preview ("would it have
// fired?") with its threshold line, firing intervals and summary. Everything is built with DOM calls
// from the host's message (never innerHTML), so service strings stay text.
import './shared/boot';
import { toCsv, toJson, ResultsToWebview, type Chart, type ResultsFromWebview, type ResultsModel } from './protocol/queryResults';
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
  const filter = h('input', { attrs: { type: 'search', placeholder: 'Filter groups', 'aria-label': 'Filter the groups' } });
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
      legend.append(h('li', {}, h('label', {}, box, swatch, g === '' ? '(all events)' : g)));
    }
    const hidden = matching.length - Math.min(matching.length, LISTED_GROUPS);
    setText(legendNote, `${visible.size} of ${ranked.length} group${ranked.length === 1 ? '' : 's'} drawn${hidden > 0 ? `; ${hidden} more match: type to filter` : ''}.`);
  };
  filter.addEventListener('input', renderLegend);

  const controls = h('div', { className: 'chart-controls' });
  const utcBox = h('input', { id: 'utc', attrs: { type: 'checkbox' } });
  utcBox.addEventListener('change', () => {
    utc = utcBox.checked;
    redraw();
  });
  controls.append(h('label', {}, utcBox, ' Times in UTC'));
  if (c.aggregates.length > 1) {
    const select = h('select', { attrs: { 'aria-label': 'Aggregate shown' } }, ...c.aggregates.map((a) => h('option', { attrs: { value: a } }, a)));
    select.addEventListener('change', () => {
      aggregate = select.value;
      ranked = rankedGroups(c, aggregate, fired);
      visible = new Set(ranked.slice(0, TOP_GROUPS));
      redraw();
    });
    controls.append(h('label', {}, 'Aggregate ', select));
  }
  const showTop = button('Top 10 only', () => {
    visible = new Set(ranked.slice(0, TOP_GROUPS));
    redraw();
  });
  const section = h('section', { className: 'chart-section', attrs: { 'aria-label': 'Chart' } }, c.note ? h('p', { className: 'note' }, c.note) : null, controls, view.element, ranked.length > 1 ? h('details', { className: 'groups', attrs: { open: ranked.length <= 20 } }, h('summary', {}, 'Groups'), filter, showTop, legendNote, legend) : null);
  queueMicrotask(redraw);
  return section;
}

function tableSection(model: ResultsModel): HTMLElement | null {
  if (!model.table) return null;
  const caption = model.preview ? 'Firings' : 'Results';
  if (model.table.rows.length === 0) return h('section', {}, h('h2', {}, caption), h('p', { className: 'empty' }, model.preview ? 'It would not have fired.' : 'The query returned no rows.'));
  const table = new ResultsTable(model.table, caption);
  const exportAs = (format: 'csv' | 'json', action: 'copy' | 'save') => () => {
    const view = table.view();
    send({ type: 'export', format, action, text: format === 'csv' ? toCsv(view) : toJson(view) });
  };
  const actions = h('div', { className: 'actions' }, button('Copy CSV', exportAs('csv', 'copy')), button('Copy JSON', exportAs('json', 'copy')), button('Save CSV...', exportAs('csv', 'save')), button('Save JSON...', exportAs('json', 'save')));
  return h('section', { className: 'table-section' }, h('h2', {}, caption), actions, table.element);
}

function render(model: ResultsModel): void {
  app.removeAttribute('aria-busy');
  clear(app);
  const status = h('p', { id: 'status', className: `status ${model.status}`, attrs: { role: model.status === 'failed' ? 'alert' : 'status' } });
  if (model.status === 'failed') setText(status, `The query failed: ${model.message ?? 'the service gave no reason'}`);
  else if (model.status === 'incomplete') setText(status, model.message ?? 'The result is not complete.');
  const toolbar = h('div', { className: 'toolbar' });
  if (model.canRerun) toolbar.append(button('Run Again', () => send({ type: 'rerun', withOptions: false }), false), button('Options...', () => send({ type: 'rerun', withOptions: true })));
  if (model.links.query) toolbar.append(button('Open in Browser', () => send({ type: 'openLink', which: 'query' })));
  if (model.links.graph) toolbar.append(button('Open Graph Image', () => send({ type: 'openLink', which: 'graph' })));
  const busy = h('p', { id: 'busy', className: 'busy', attrs: { 'aria-live': 'polite', hidden: true } });
  const exported = h('p', { id: 'exported', className: 'exported', attrs: { 'aria-live': 'polite' } });
  app.append(h('header', {}, h('h1', {}, model.title), h('p', { className: 'subtitle' }, model.subtitle), toolbar, busy, status.textContent ? status : null));
  const p = model.preview;
  if (p) {
    const notes = p.notes.length > 0 ? h('ul', { className: 'notes' }, ...p.notes.map((n) => h('li', {}, n))) : null;
    app.append(h('section', { className: 'preview', attrs: { 'aria-label': 'Preview summary' } }, h('p', { id: 'summary', className: 'summary' }, p.summary), h('p', { className: 'value-label' }, `Chart: ${p.valueLabel}; dashed line: ${p.threshold.label}; shaded: while it fired.`), notes));
  }
  const c = model.chart;
  if (c && c.times.length > 0 && c.lines.length > 0) app.append(chartSection(model, c));
  else if (model.status === 'complete') app.append(h('p', { id: 'no-chart', className: 'empty' }, model.chart ? 'The result has no data points to draw.' : 'The result has no time series (it was run without one).'));
  const table = tableSection(model);
  if (table) app.append(table);
  app.append(exported);
  for (const t of model.totals) {
    app.append(h('section', { className: 'totals' }, h('h2', {}, t.title), h('table', {}, h('tbody', {}, ...t.rows.map(([k, v]) => h('tr', {}, h('th', { attrs: { scope: 'row' } }, k), h('td', { className: typeof v === 'number' ? 'num' : '' }, v === null ? '' : String(v))))))));
  }
}

onHostMessage(ResultsToWebview, (m) => {
  if (m.type === 'show') render(m.model);
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
