// The chart part of the results page: its controls (time zone, aggregate), the chart, its legend (each line
// drawn by name and colour, with a toggle that hides or shows it; a preview's threshold line and firing
// bands), and, when there are more groups than the ten drawn, the list of groups to pick from, largest
// first (a preview: the ones that fired first). It keeps its own state and draws itself (lit-html) into its
// own <section>; only the chart itself is uPlot's.
import { html, nothing, type TemplateResult } from 'lit-html';
import { drawPage } from './dom';
import { live } from 'lit-html/directives/live.js';
import { ref } from 'lit-html/directives/ref.js';
import type { Chart, ResultsModel } from '../protocol/queryResults';
import { RESULTS_PAGE_TEXT as T } from '../protocol/text/queryResults';
import { checkedOf, valueOf } from './fields';
import { palette, ResultsChart } from './resultsChart';

const TOP_GROUPS = 10;
const LISTED_GROUPS = 200;

/** Groups of one aggregate, largest total first (a preview: the ones that fired first). */
function rankedGroups(c: Chart, aggregate: string, fired: readonly string[]): string[] {
  const totals = c.lines
    .filter((l) => l.aggregate === aggregate)
    .map((l) => ({ g: l.group, total: l.values.reduce<number>((s, v) => s + (v === null ? 0 : Math.abs(v)), 0) }));
  const firedRank = new Map(fired.map((g, i) => [g, i]));
  totals.sort(
    (a, b) =>
      (firedRank.get(a.g) ?? Infinity) - (firedRank.get(b.g) ?? Infinity) ||
      b.total - a.total ||
      a.g.localeCompare(b.g),
  );
  return totals.map((t) => t.g);
}

export class ChartSection {
  readonly element = document.createElement('section');
  private readonly chart = new ResultsChart();
  private readonly fired: string[];
  private aggregate: string;
  private utc = false;
  private ranked: string[];
  private visible: Set<string>;
  /** Groups in the legend whose line is hidden. */
  private muted = new Set<string>();
  private filter = '';
  private readonly colours = new Map<string, string>();
  private readonly colourList = palette(TOP_GROUPS);
  /** Whether the group list is shown, and open at first: as the first aggregate's groups had it. */
  private readonly listed: boolean;
  private readonly openAtFirst: boolean;

  constructor(
    private readonly model: ResultsModel,
    private readonly c: Chart,
    /** The page's time setting changed (the tables follow it). */
    private readonly onUtc: (utc: boolean) => void = () => undefined,
  ) {
    this.fired = [...new Set(model.preview?.firings.flatMap((f) => f.groups) ?? [])];
    this.aggregate = c.aggregates[0] ?? '';
    this.ranked = rankedGroups(c, this.aggregate, this.fired);
    this.visible = new Set(this.ranked.slice(0, TOP_GROUPS));
    // Up to ten groups the legend holds them all; past that the list picks which ten it holds.
    this.listed = this.ranked.length > TOP_GROUPS;
    this.openAtFirst = this.ranked.length <= 20;
    this.element.className = 'chart-section';
    this.element.setAttribute('aria-label', T.chartLabel);
    this.draw();
  }

  /** Draws the chart anew and the list with it; call once the section is on the page (uPlot needs its width). */
  plot(): void {
    const drawn = this.ranked.filter((g) => this.visible.has(g));
    drawn.forEach((g, i) => this.colours.set(g, this.colourList[i % this.colourList.length] ?? '#888'));
    this.chart.render({
      chart: this.c,
      aggregate: this.aggregate,
      groups: drawn,
      colours: this.colours,
      muted: this.muted,
      utc: this.utc,
      preview: this.model.preview,
    });
    this.draw();
  }

  destroy(): void {
    this.chart.destroy();
  }

  private draw(): void {
    const groups = html`<details class="groups" ?open=${this.openAtFirst}>
      <summary>${T.groups}</summary>
      <div class="group-tools">
        <vscode-textfield class="group-filter" type="search" placeholder=${T.filterGroups} aria-label=${T.filterGroupsLabel} @input=${this.filtered}></vscode-textfield>
        <vscode-button secondary @click=${this.topOnly}>${T.topOnly}</vscode-button>
      </div>
      ${this.legend()}
    </details>`;
    drawPage(
      this.element,
      html`${this.c.note ? html`<p class="note">${this.c.note}</p>` : nothing}
        ${this.controls()}
        ${this.chart.element}
        ${this.seriesLegend()}
        ${this.listed ? groups : nothing}`,
    );
  }

  private controls(): TemplateResult {
    const aggregates = this.c.aggregates;
    const select = html`<label class="aggregate">${T.aggregate} <vscode-single-select id="aggregate" aria-label=${T.aggregateLabel} .value=${live(this.aggregate)} @change=${this.chooseAggregate}>${aggregates.map(
      (a) => html`<vscode-option value=${a}>${a}</vscode-option>`,
    )}</vscode-single-select></label>`;
    return html`<div class="chart-controls">
      <vscode-checkbox id="utc" .checked=${live(this.utc)} @change=${this.inUtc}>${T.utc}</vscode-checkbox>
      ${aggregates.length > 1 ? select : nothing}
    </div>`;
  }

  /** The legend under the chart: each line drawn, by colour and name, with a toggle; a preview's threshold and bands. */
  private seriesLegend(): TemplateResult {
    const lines = this.ranked.filter((g) => this.visible.has(g));
    const preview = this.model.preview;
    const keys = preview
      ? html`<li class="key"><span class="swatch threshold" aria-hidden="true"></span>${preview.threshold.label}</li>
          <li class="key"><span class="swatch firing" aria-hidden="true"></span>${T.whileFired}</li>`
      : nothing;
    return html`<ul class="series-legend" aria-label=${T.seriesLegend}>${lines.map((g) => this.seriesItem(g))}${keys}</ul>`;
  }

  private seriesItem(g: string): TemplateResult {
    const on = !this.muted.has(g);
    const name = g === '' ? this.aggregate || T.value : g;
    const colour = this.colours.get(g) ?? 'transparent';
    // Through the CSSOM, not a style attribute: the page's CSP (style-src) refuses inline style attributes.
    const paint = (el: Element | undefined): void => {
      if (el instanceof HTMLElement) el.style.background = on ? colour : 'transparent';
    };
    return html`<li class=${on ? 'series' : 'series muted'}><span class="swatch" aria-hidden="true" ${ref(paint)}></span><vscode-checkbox class="series-toggle" .checked=${live(on)}
      title=${T.toggleLine(name)} @change=${(e: Event) => this.mute(g, !checkedOf(e))}>${name}</vscode-checkbox></li>`;
  }

  private mute(g: string, hide: boolean): void {
    this.muted = new Set(this.muted);
    if (hide) this.muted.add(g);
    else this.muted.delete(g);
    this.plot();
  }

  /** The legend: a box per group (at most LISTED_GROUPS of those matching the filter) with its colour. */
  private legend(): TemplateResult {
    const text = this.filter.trim().toLowerCase();
    const matching = this.ranked.filter((g) => text === '' || g.toLowerCase().includes(text));
    const hidden = matching.length - Math.min(matching.length, LISTED_GROUPS);
    return html`<p class="legend-note">${T.drawn(this.visible.size, this.ranked.length, hidden)}</p>
      <ul class="legend">${matching.slice(0, LISTED_GROUPS).map((g) => this.legendItem(g))}</ul>`;
  }

  private legendItem(g: string): TemplateResult {
    const on = this.visible.has(g);
    const colour = on ? (this.colours.get(g) ?? 'transparent') : 'transparent';
    // Through the CSSOM, not a style attribute: the page's CSP (style-src) refuses inline style attributes.
    const paint = (el: Element | undefined): void => {
      if (el instanceof HTMLElement) el.style.background = colour;
    };
    return html`<li><span class="swatch" aria-hidden="true" ${ref(paint)}></span><vscode-checkbox .checked=${live(on)} @change=${(e: Event) => this.toggle(g, checkedOf(e))}>${g === '' ? T.allEvents : g}</vscode-checkbox></li>`;
  }

  private toggle(g: string, on: boolean): void {
    this.visible = new Set(this.visible);
    if (on) this.visible.add(g);
    else this.visible.delete(g);
    this.plot();
  }

  private readonly filtered = (event: Event): void => {
    this.filter = valueOf(event);
    this.draw();
  };

  private readonly topOnly = (): void => {
    this.visible = new Set(this.ranked.slice(0, TOP_GROUPS));
    this.plot();
  };

  private readonly inUtc = (event: Event): void => {
    this.utc = checkedOf(event);
    this.plot();
    this.onUtc(this.utc);
  };

  private readonly chooseAggregate = (event: Event): void => {
    this.aggregate = valueOf(event);
    this.ranked = rankedGroups(this.c, this.aggregate, this.fired);
    this.visible = new Set(this.ranked.slice(0, TOP_GROUPS));
    this.muted = new Set();
    this.plot();
  };
}
