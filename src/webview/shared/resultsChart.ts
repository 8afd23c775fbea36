// The results chart: uPlot (bundled) drawing one line per shown group, the preview's threshold line and
// firing intervals, a hover read-out in text, local time or UTC, and arrow keys to move along the time
// axis. Colours come from the theme (--vscode-charts-*).
import uPlot from 'uplot';
import type { Chart, Preview } from '../protocol/queryResults';
import { RESULTS_PAGE_TEXT as T } from '../protocol/text/queryResults';
import { textLocale } from '../protocol/text/common';
import { visibleControls } from '../protocol/safeText';
import { formatTime } from './time';
import { timeAxisLabels } from './timeAxis';

const FALLBACK = ['#3794ff', '#cca700', '#89d185', '#b180d7', '#f14c4c', '#d18616', '#4ec9b0', '#c586c0', '#9cdcfe', '#ce9178'];
const THEME = ['blue', 'orange', 'green', 'purple', 'red', 'yellow'];

/** The theme's chart colours, then fixed ones, cycled. */
export function palette(): string[] {
  const style = getComputedStyle(document.documentElement);
  const themed = THEME.map((c) => style.getPropertyValue(`--vscode-charts-${c}`).trim()).filter((c) => c !== '');
  return [...themed, ...FALLBACK];
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
  utc: boolean;
  preview?: Preview | undefined;
}

/** A value as the readout shows it, in the display language: 1,234.57 or 0.123 in English. */
const fmtNumber = (v: number): string => v.toLocaleString(textLocale(), { maximumFractionDigits: Math.abs(v) >= 1000 ? 2 : 3 });

/** A new element of the chart with its class (uPlot and the read-out own what goes inside). */
function part<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.className = className;
  return el;
}

export class ResultsChart {
  private plot: uPlot | undefined;
  private readonly plotHost = part('div', 'chart-plot');
  readonly readout = part('p', 'chart-readout');
  readonly element = part('div', 'chart');
  private readonly resize = new ResizeObserver(() => this.plot?.setSize(this.size()));
  private options: ChartOptions | undefined;

  constructor() {
    this.readout.setAttribute('aria-live', 'polite');
    this.element.tabIndex = 0;
    this.element.setAttribute('role', 'img');
    this.element.append(this.plotHost, this.readout);
    this.resize.observe(this.element);
    this.element.addEventListener('keydown', (e) => this.onKey(e));
  }

  private size(): { width: number; height: number } {
    return { width: Math.max(320, this.element.clientWidth - 2), height: 320 };
  }

  /** Draws the chart anew (a changed aggregate, set of groups or time zone). */
  render(o: ChartOptions): void {
    this.options = o;
    this.plot?.destroy();
    const { chart, aggregate } = o;
    const byGroup = new Map(chart.lines.filter((l) => l.aggregate === aggregate).map((l) => [l.group, l.values]));
    const shown = o.groups.filter((g) => byGroup.has(g));
    const data: uPlot.AlignedData = [chart.times, ...shown.map((g) => byGroup.get(g) ?? [])];
    const fg = cssVar('--vscode-foreground', '#cccccc');
    const grid = cssVar('--vscode-editorWidget-border', 'rgba(128,128,128,0.25)');
    const danger = cssVar('--vscode-charts-red', '#f14c4c');
    const preview = o.preview;
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const label = aggregate === '' ? T.value : aggregate;
    this.element.setAttribute('aria-label', T.chartAria(aggregate, shown.length));
    const opts: uPlot.Options = {
      ...this.size(),
      legend: { show: false },
      cursor: { drag: { x: true, y: false } },
      tzDate: (ts) => (o.utc ? uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') : new Date(ts * 1000)),
      scales: {
        x: { time: true },
        y: {
          range: (_u, min, max) => {
            const lo = Math.min(min ?? 0, preview ? preview.threshold.value : Infinity, 0);
            const hi = Math.max(max ?? 1, preview ? preview.threshold.value : -Infinity);
            const pad = (hi - lo) * 0.08 || 1;
            return [lo === 0 ? 0 : lo - pad, hi + pad];
          },
        },
      },
      axes: [
        { ...axis, values: (_u, splits, _axis, _space, increment) => timeAxisLabels(splits, increment, { utc: o.utc, locale: textLocale() }) },
        { ...axis, size: 60 },
      ],
      series: [{}, ...shown.map((g) => ({ label: g === '' ? label : g, stroke: o.colours.get(g) ?? '#888', width: 1.5, spanGaps: false, points: { show: chart.times.length < 3 ? true : undefined } }))],
      hooks: {
        draw: [(u) => preview && drawPreview(u, preview, chart.times, danger)],
        setCursor: [(u) => this.showReadout(u.cursor.idx ?? null, shown, byGroup)],
      },
    };
    this.plot = new uPlot(opts, data, this.plotHost);
    this.showReadout(null, shown, byGroup);
  }

  private showReadout(idx: number | null, shown: string[], byGroup: Map<string, (number | null)[]>): void {
    const o = this.options;
    if (!o) return;
    if (idx === null || idx === undefined) {
      this.readout.textContent = shown.length === 0 ? T.noGroupShown : T.readoutHelp;
      return;
    }
    const t = o.chart.times[idx];
    if (t === undefined) return;
    const values = shown
      .map((g) => ({ g, v: byGroup.get(g)?.[idx] ?? null }))
      .filter((x): x is { g: string; v: number } => x.v !== null)
      .sort((a, b) => b.v - a.v)
      .slice(0, 6);
    const parts = values.map(({ g, v }) => `${g === '' ? o.aggregate : g}: ${fmtNumber(v)}`);
    this.readout.textContent = visibleControls(T.readout(formatTime(t, o.utc), parts));
  }

  private onKey(e: KeyboardEvent): void {
    const u = this.plot;
    const times = this.options?.chart.times ?? [];
    if (!u || times.length === 0 || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight' && e.key !== 'Home' && e.key !== 'End')) return;
    e.preventDefault();
    const current = u.cursor.idx ?? -1;
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? times.length - 1 : Math.min(times.length - 1, Math.max(0, current + (e.key === 'ArrowLeft' ? -1 : 1)));
    u.setCursor({ left: u.valToPos(times[next] ?? 0, 'x'), top: u.bbox.height / devicePixelRatio / 2 });
  }

  destroy(): void {
    this.resize.disconnect();
    this.plot?.destroy();
  }
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
