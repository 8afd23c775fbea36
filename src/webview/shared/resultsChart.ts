// The results chart: uPlot (bundled) drawing one line per shown group, the preview's threshold line and
// firing intervals, whole-number steps for counts, local time or UTC, and the values at the cursor in a
// tooltip beside it (hover, or focus and the arrow keys), said to screen readers too. Colours come from the
// theme (--vscode-charts-*). Its legend, with a toggle per line, is the chart section's (chartSection.ts).
import { html, type TemplateResult } from 'lit-html';
import { ref } from 'lit-html/directives/ref.js';
import uPlot from 'uplot';
import type { Chart, Preview } from '../protocol/queryResults';
import { RESULTS_PAGE_TEXT as T } from '../protocol/text/queryResults';
import { textLocale } from '../protocol/text/common';
import { visibleControls } from '../protocol/safeText';
import { seriesColours } from './chartPalette';
import { wholeNumbersOnly, WHOLE_STEPS } from './chartScale';
import { drawPage } from './dom';
import { formatTime } from './time';
import { timeAxisLabels } from './timeAxis';

/** The theme's chart colours a line may take, in this order; red is the preview's threshold and firings. */
const THEME = ['blue', 'orange', 'green', 'purple', 'yellow'];
const DANGER_FALLBACK = '#f14c4c';

/** `count` line colours, each clearly unlike the others and the threshold's red, from the theme (chartPalette.ts). */
export function palette(count: number): string[] {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string): string => style.getPropertyValue(name).trim();
  const theme = {
    series: THEME.map((c) => read(`--vscode-charts-${c}`)),
    danger: read('--vscode-charts-red') || DANGER_FALLBACK,
    background: read('--vscode-editor-background'),
  };
  return seriesColours(theme, count);
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v === '' ? fallback : v;
}

export interface ChartOptions {
  chart: Chart;
  aggregate: string;
  /** Groups to draw, in legend order (their colour follows their rank). */
  groups: string[];
  colours: Map<string, string>;
  /** Groups whose line the legend has hidden (still in the legend, drawn again when toggled back). */
  muted: ReadonlySet<string>;
  utc: boolean;
  preview?: Preview | undefined;
}

/** A value as the read-out and the axis show it, in the display language: 1,234.57 or 0.123 in English. */
const fmtNumber = (v: number): string =>
  v.toLocaleString(textLocale(), { maximumFractionDigits: Math.abs(v) >= 1000 ? 2 : 3 });

/** A new element of the chart with its class (uPlot and the read-out own what goes inside). */
function part<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.className = className;
  return el;
}

/** Where the tooltip keeps from the cursor, in CSS pixels. */
const GAP = 14;
/** The tooltip lists this many values at most, the largest first. */
const TOOLTIP_VALUES = 6;

export class ResultsChart {
  private plot: uPlot | undefined;
  private readonly plotHost = part('div', 'chart-plot');
  /** The values at the cursor, beside it (for the eye; the read-out below says the same to a screen reader). */
  private readonly tooltip = part('div', 'chart-tooltip');
  /** What the chart shows at the cursor, said to screen readers (aria-live); visually hidden. */
  readonly readout = part('p', 'chart-readout');
  /** How to read values: hover, or focus and the arrow keys. */
  private readonly hint = part('p', 'chart-hint');
  readonly element = part('div', 'chart');
  private readonly resize = new ResizeObserver(() => this.plot?.setSize(this.size()));
  private options: ChartOptions | undefined;

  constructor() {
    this.readout.setAttribute('aria-live', 'polite');
    this.tooltip.setAttribute('aria-hidden', 'true');
    this.tooltip.hidden = true;
    this.element.tabIndex = 0;
    this.element.setAttribute('role', 'img');
    this.element.append(this.plotHost, this.hint, this.readout);
    this.resize.observe(this.element);
    this.element.addEventListener('keydown', (e) => this.onKey(e));
  }

  private size(): { width: number; height: number } {
    return { width: Math.max(320, this.element.clientWidth - 2), height: 320 };
  }

  /** Draws the chart anew (a changed aggregate, set of groups, hidden line or time zone). */
  render(o: ChartOptions): void {
    this.options = o;
    this.plot?.destroy();
    const { chart, aggregate } = o;
    const byGroup = new Map(chart.lines.filter((l) => l.aggregate === aggregate).map((l) => [l.group, l.values]));
    const shown = o.groups.filter((g) => byGroup.has(g));
    const data: uPlot.AlignedData = [chart.times, ...shown.map((g) => byGroup.get(g) ?? [])];
    this.element.setAttribute('aria-label', T.chartAria(aggregate, shown.length));
    this.plot = new uPlot(this.plotOptions(o, shown, byGroup), data, this.plotHost);
    this.plot.over.append(this.tooltip);
    this.showAt(null, shown, byGroup);
  }

  private plotOptions(o: ChartOptions, shown: string[], byGroup: Map<string, (number | null)[]>): uPlot.Options {
    const fg = cssVar('--vscode-foreground', '#cccccc');
    const grid = cssVar('--vscode-editorWidget-border', 'rgba(128,128,128,0.25)');
    const danger = cssVar('--vscode-charts-red', DANGER_FALLBACK);
    const { chart, preview } = o;
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    // Counts get whole steps: a COUNT axis at 0.2 steps says there could be 0.4 events.
    const whole = wholeNumbersOnly(shown.filter((g) => !o.muted.has(g)).map((g) => byGroup.get(g) ?? []));
    return {
      ...this.size(),
      legend: { show: false },
      cursor: { drag: { x: true, y: false } },
      tzDate: (ts) => (o.utc ? uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') : new Date(ts * 1000)),
      scales: { x: { time: true }, y: { range: (_u, min, max) => valueRange(min, max, preview) } },
      axes: [
        {
          ...axis,
          values: (_u, splits, _axis, _space, increment) =>
            timeAxisLabels(splits, increment, { utc: o.utc, locale: textLocale() }),
        },
        {
          ...axis,
          size: 60,
          ...(whole ? { incrs: [...WHOLE_STEPS] } : {}),
          values: (_u, splits) => splits.map(fmtNumber),
        },
      ],
      series: [
        {},
        ...shown.map((g) => ({
          label: this.nameOf(g),
          show: !o.muted.has(g),
          stroke: o.colours.get(g) ?? '#888',
          width: 1.5,
          spanGaps: false,
          points: { show: chart.times.length < 3 ? true : undefined },
        })),
      ],
      hooks: {
        draw: [(u) => preview && drawPreview(u, preview, chart.times, danger)],
        setCursor: [(u) => this.showAt(u.cursor.idx ?? null, shown, byGroup)],
      },
    };
  }

  /** A series' name: its group, or the aggregate for the one series of a result without breakdowns. */
  private nameOf(g: string): string {
    const aggregate = this.options?.aggregate ?? '';
    return g === '' ? (aggregate === '' ? T.value : aggregate) : g;
  }

  /** The values at point `idx` (null: none) in the tooltip beside the cursor and in the read-out. */
  private showAt(idx: number | null, shown: string[], byGroup: Map<string, (number | null)[]>): void {
    const o = this.options;
    if (!o) return;
    const visible = shown.filter((g) => !o.muted.has(g));
    this.hint.textContent = visible.length === 0 ? T.noGroupShown : T.readoutHelp;
    const t = idx === null ? undefined : o.chart.times[idx];
    if (idx === null || t === undefined) {
      this.tooltip.hidden = true;
      this.readout.textContent = '';
      return;
    }
    const values = visible
      .map((g) => ({ g, v: byGroup.get(g)?.[idx] ?? null }))
      .filter((x): x is { g: string; v: number } => x.v !== null)
      .sort((a, b) => b.v - a.v)
      .slice(0, TOOLTIP_VALUES);
    const when = formatTime(t, o.utc);
    this.readout.textContent = visibleControls(
      T.readout(
        when,
        values.map(({ g, v }) => `${this.nameOf(g)}: ${fmtNumber(v)}`),
      ),
    );
    drawPage(
      this.tooltip,
      tooltipView(
        when,
        values.map(({ g, v }) => ({ name: this.nameOf(g), value: fmtNumber(v), colour: o.colours.get(g) ?? '#888' })),
      ),
    );
    this.tooltip.hidden = false;
    this.placeTooltip();
  }

  /** Beside the cursor, on the side where it fits inside the plot. */
  private placeTooltip(): void {
    const u = this.plot;
    if (!u) return;
    const { left = 0, top = 0 } = u.cursor;
    const width = this.tooltip.offsetWidth;
    const height = this.tooltip.offsetHeight;
    const room = { width: u.over.clientWidth, height: u.over.clientHeight };
    const x = left + GAP + width <= room.width ? left + GAP : Math.max(0, left - GAP - width);
    const y = top + GAP + height <= room.height ? top + GAP : Math.max(0, top - GAP - height);
    this.tooltip.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  }

  private onKey(e: KeyboardEvent): void {
    const u = this.plot;
    const times = this.options?.chart.times ?? [];
    if (
      !u ||
      times.length === 0 ||
      (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight' && e.key !== 'Home' && e.key !== 'End')
    )
      return;
    e.preventDefault();
    const current = u.cursor.idx ?? -1;
    const next =
      e.key === 'Home'
        ? 0
        : e.key === 'End'
          ? times.length - 1
          : Math.min(times.length - 1, Math.max(0, current + (e.key === 'ArrowLeft' ? -1 : 1)));
    u.setCursor({ left: u.valToPos(times[next] ?? 0, 'x'), top: u.bbox.height / devicePixelRatio / 2 });
  }

  destroy(): void {
    this.resize.disconnect();
    this.plot?.destroy();
  }
}

/** The value axis: from 0 (or below, for negative values or a threshold) to a little above the largest value. */
function valueRange(min: number | null, max: number | null, preview: Preview | undefined): uPlot.Range.MinMax {
  const lo = Math.min(min ?? 0, preview ? preview.threshold.value : Infinity, 0);
  const hi = Math.max(max ?? 1, preview ? preview.threshold.value : -Infinity);
  const pad = (hi - lo) * 0.08 || 1;
  return [lo === 0 ? 0 : lo - pad, hi + pad];
}

/** The tooltip: the time, then each value with its line's colour. */
function tooltipView(when: string, values: readonly { name: string; value: string; colour: string }[]): TemplateResult {
  const rows = values.map(
    (v) =>
      html`<li><span class="swatch" ${ref((el) => {
        // Through the CSSOM, not a style attribute: the page's CSP (style-src) refuses inline style attributes.
        if (el instanceof HTMLElement) el.style.background = v.colour;
      })}></span><span class="tooltip-name">${v.name}</span><span class="tooltip-value">${v.value}</span></li>`,
  );
  return html`<div class="tooltip-time">${when}</div>${values.length === 0 ? html`<p class="tooltip-none">${T.noValues}</p>` : html`<ul>${rows}</ul>`}`;
}

/** The threshold as a dashed line, and each firing as a band from its start to its resolve. */
function drawPreview(u: uPlot, p: Preview, times: number[], colour: string): void {
  const ctx = u.ctx;
  const { left, top, width, height } = u.bbox;
  const last = times[times.length - 1] ?? 0;
  ctx.save();
  ctx.fillStyle = colour;
  ctx.globalAlpha = 0.16;
  for (const f of p.firings) {
    const x0 = u.valToPos(f.start, 'x', true);
    const x1 = u.valToPos(f.end ?? last, 'x', true);
    ctx.fillRect(x0, top, Math.max(2, x1 - x0), height);
  }
  ctx.globalAlpha = 1;
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.5 * devicePixelRatio;
  ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
  const y = u.valToPos(p.threshold.value, 'y', true);
  ctx.beginPath();
  ctx.moveTo(left, y);
  ctx.lineTo(left + width, y);
  ctx.stroke();
  ctx.restore();
}
