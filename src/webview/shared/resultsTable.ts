// The results table: sortable by any column (click or Enter on its header), filtered by text, shown 500
// rows at a time; what is copied or saved is the table as sorted and filtered. Time columns show the time
// ("2025-06-02 10:00", in local time or UTC as the page's time setting says) beside the relative time, with
// the exact UTC time on hover; they are copied and saved as the exact text. The header cells
// keep native buttons (a sort control styled as the header); the other controls are vscode-elements.
// It draws itself (lit-html) into its own element, in place: a header button keeps focus while it sorts.
import { html, nothing, type TemplateResult } from 'lit-html';
import { drawPage } from './dom';
import type { Cell, Table } from '../protocol/queryResults';
import { RESULTS_PAGE_TEXT as T } from '../protocol/text/queryResults';
import { valueOf } from './fields';
import { sentence } from './dom';
import { formatTime, timeView } from './time';

const PAGE = 500;

function compareCells(a: Cell, b: Cell): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

export class ResultsTable {
  private sort: { column: number; ascending: boolean } | undefined;
  private filter = '';
  private shown = PAGE;
  private readonly times: ReadonlySet<number>;
  /** The page's time setting: time columns in UTC, or in local time. */
  private utc = false;
  readonly element = document.createElement('div');

  constructor(
    private readonly table: Table,
    private readonly caption: string,
    private readonly filterLabel: string,
  ) {
    this.times = new Set(table.timeColumns ?? []);
    this.element.className = 'results-table';
    this.draw();
  }

  /** The rows as sorted and filtered now, all of them (not only the page shown). */
  view(): Table {
    let rows = this.table.rows;
    if (this.filter !== '')
      rows = rows.filter((r) => r.some((c) => c !== null && String(c).toLowerCase().includes(this.filter)));
    const s = this.sort;
    if (s)
      rows = [...rows].sort((a, b) => (s.ascending ? 1 : -1) * compareCells(a[s.column] ?? null, b[s.column] ?? null));
    return { columns: this.table.columns, rows };
  }

  sortBy(column: number): void {
    this.sort =
      this.sort?.column === column
        ? { column, ascending: !this.sort.ascending }
        : { column, ascending: typeof this.table.rows[0]?.[column] !== 'number' };
    this.draw();
  }

  /** The page's time setting changed: time columns follow it. */
  setUtc(utc: boolean): void {
    this.utc = utc;
    this.draw();
  }

  /** Draws the table as it is now (also to bring its relative times up to date). */
  draw(): void {
    const { rows } = this.view();
    const total = this.table.rows.length;
    const filtered = (event: Event): void => {
      this.filter = valueOf(event).trim().toLowerCase();
      this.shown = PAGE;
      this.draw();
    };
    const more = (): void => {
      this.shown += PAGE;
      this.draw();
    };
    drawPage(
      this.element,
      html`<vscode-textfield class="table-filter" type="search" placeholder=${T.filterRows} aria-label=${this.filterLabel} @input=${filtered}></vscode-textfield>
        <div class="table-scroll">
          <table><caption>${this.caption}</caption><thead><tr>${this.table.columns.map((name, i) => this.header(name, i))}</tr></thead>
            <tbody>${this.body(rows.slice(0, this.shown))}</tbody></table>
        </div>
        <p class="table-count" aria-live="polite">${rows.length === total ? T.rows(total) : T.rowsMatch(rows.length, total)}</p>
        <vscode-button class="more" secondary ?hidden=${rows.length <= this.shown} @click=${more}>${T.showMore(Math.min(PAGE, rows.length - this.shown))}</vscode-button>`,
    );
  }

  /** A time: as the page's setting writes it, and how long ago, e.g. "2025-06-02 10:00 UTC (18 hours ago)". */
  private timeCell(iso: string, now: number): TemplateResult {
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) return timeView(iso, now);
    return html`<span class="time-exact">${formatTime(ms / 1000, this.utc)}</span> <span class="time-relative">${sentence(T.ago, timeView(iso, now))}</span>`;
  }

  private header(name: string, column: number): TemplateResult {
    const sorted = this.sort?.column === column ? (this.sort.ascending ? 'ascending' : 'descending') : 'none';
    const arrow = sorted === 'none' ? '' : sorted === 'ascending' ? ' ▲' : ' ▼';
    return html`<th scope="col" aria-sort=${sorted}><button class="sort" type="button" title=${T.sortBy(name)} @click=${() => this.sortBy(column)}>${name}${arrow}</button></th>`;
  }

  private body(rows: readonly Cell[][]): TemplateResult[] {
    const now = Date.now();
    const cell = (c: Cell, column: number): TemplateResult => {
      const text =
        typeof c === 'string' && this.times.has(column) ? this.timeCell(c, now) : c === null ? '' : String(c);
      return html`<td class=${typeof c === 'number' ? 'num' : nothing}>${text}</td>`;
    };
    return rows.map((r) => html`<tr>${r.map(cell)}</tr>`);
  }
}
