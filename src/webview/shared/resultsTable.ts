// The results table: sortable by any column (click or Enter on its header), filtered by text, shown 500
// rows at a time; what is copied or saved is the table as sorted and filtered. Time columns show relative
// time with the exact UTC time on hover; they are copied and saved as the exact text. The header cells
// keep native buttons (a sort control styled as the header); the other controls are vscode-elements.
import type { Cell, Table } from '../protocol/queryResults';
import { RESULTS_PAGE_TEXT as T } from '../protocol/text/queryResults';
import { button, clear, h, setText } from './dom';
import { timeElement } from './time';

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
  private readonly head = h('thead');
  private readonly body = h('tbody');
  private readonly count = h('p', { className: 'table-count', attrs: { 'aria-live': 'polite' } });
  private readonly more = button('', () => {
    this.shown += PAGE;
    this.renderBody();
  }, true);
  private readonly times: ReadonlySet<number>;
  readonly element: HTMLElement;

  constructor(private readonly table: Table, caption: string, filterLabel: string) {
    this.times = new Set(table.timeColumns ?? []);
    this.more.classList.add('more');
    const filter = h('vscode-textfield', { className: 'table-filter', attrs: { type: 'search', placeholder: T.filterRows, 'aria-label': filterLabel } });
    filter.addEventListener('input', () => {
      this.filter = filter.value.trim().toLowerCase();
      this.shown = PAGE;
      this.renderBody();
    });
    this.element = h('div', { className: 'results-table' }, filter, h('div', { className: 'table-scroll' }, h('table', {}, h('caption', {}, caption), this.head, this.body)), this.count, this.more);
    this.renderHead();
    this.renderBody();
  }

  /** The rows as sorted and filtered now, all of them (not only the page shown). */
  view(): Table {
    let rows = this.table.rows;
    if (this.filter !== '') rows = rows.filter((r) => r.some((c) => c !== null && String(c).toLowerCase().includes(this.filter)));
    const s = this.sort;
    if (s) rows = [...rows].sort((a, b) => (s.ascending ? 1 : -1) * compareCells(a[s.column] ?? null, b[s.column] ?? null));
    return { columns: this.table.columns, rows };
  }

  sortBy(column: number): void {
    this.sort = this.sort?.column === column ? { column, ascending: !this.sort.ascending } : { column, ascending: typeof this.table.rows[0]?.[column] !== 'number' };
    this.renderHead();
    this.renderBody();
  }

  private renderHead(): void {
    clear(this.head);
    const row = h('tr');
    this.table.columns.forEach((name, i) => {
      const sorted = this.sort?.column === i ? (this.sort.ascending ? 'ascending' : 'descending') : 'none';
      const button = h('button', { className: 'sort', attrs: { type: 'button', title: T.sortBy(name) } }, name, sorted === 'none' ? '' : sorted === 'ascending' ? ' ▲' : ' ▼');
      button.addEventListener('click', () => {
        this.sortBy(i);
        (this.head.querySelectorAll('button.sort')[i] as HTMLElement | undefined)?.focus();
      });
      row.append(h('th', { attrs: { scope: 'col', 'aria-sort': sorted } }, button));
    });
    this.head.append(row);
  }

  private renderBody(): void {
    const { rows } = this.view();
    clear(this.body);
    const page = rows.slice(0, this.shown);
    const fragment = document.createDocumentFragment();
    const now = Date.now();
    for (const r of page) {
      const tr = document.createElement('tr');
      r.forEach((c, i) => {
        const td = document.createElement('td');
        if (typeof c === 'string' && this.times.has(i)) td.append(timeElement(c, now));
        else td.textContent = c === null ? '' : String(c);
        if (typeof c === 'number') td.className = 'num';
        tr.append(td);
      });
      fragment.append(tr);
    }
    this.body.append(fragment);
    const total = this.table.rows.length;
    setText(this.count, rows.length === total ? T.rows(total) : T.rowsMatch(rows.length, total));
    this.more.hidden = rows.length <= this.shown;
    setText(this.more, T.showMore(Math.min(PAGE, rows.length - this.shown)));
  }
}
