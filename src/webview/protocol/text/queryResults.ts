// Every word of the query results panel's page, in one place. Read through l10n.t when used (see
// common.ts), so they are in the language the host handed the page.
import * as l10n from '@vscode/l10n';
import { formatCount as n } from './common';

export const RESULTS_PAGE_TEXT = {
  get loading() {
    return l10n.t('Loading…');
  },
  get allEvents() {
    return l10n.t('(all events)');
  },
  get filterGroups() {
    return l10n.t('Filter groups');
  },
  get filterGroupsLabel() {
    return l10n.t('Filter the groups');
  },
  drawn: (visible: number, total: number, hidden: number) =>
    hidden > 0
      ? l10n.t('{0} of {1} groups drawn; {2} more match: type to filter.', n(visible), n(total), n(hidden))
      : total === 1
        ? l10n.t('{0} of 1 group drawn.', n(visible))
        : l10n.t('{0} of {1} groups drawn.', n(visible), n(total)),
  get utc() {
    return l10n.t('Times in UTC');
  },
  get aggregate() {
    return l10n.t('Aggregate');
  },
  get aggregateLabel() {
    return l10n.t('Aggregate shown');
  },
  get topOnly() {
    return l10n.t('Top 10 only');
  },
  get groups() {
    return l10n.t('Groups');
  },
  get chartLabel() {
    return l10n.t('Chart');
  },
  get firings() {
    return l10n.t('Firings');
  },
  get results() {
    return l10n.t('Results');
  },
  get wouldNotHaveFired() {
    return l10n.t('It would not have fired.');
  },
  get noRows() {
    return l10n.t('The query returned no rows.');
  },
  get copyCsv() {
    return l10n.t('Copy CSV');
  },
  get copyJson() {
    return l10n.t('Copy JSON');
  },
  get saveCsv() {
    return l10n.t('Save CSV...');
  },
  get saveJson() {
    return l10n.t('Save JSON...');
  },
  failed: (subject: 'query' | 'preview', reason: string | undefined) => {
    if (subject === 'preview')
      return reason === undefined
        ? l10n.t('The preview failed: the service gave no reason')
        : l10n.t('The preview failed: {0}', reason);
    return reason === undefined
      ? l10n.t('The query failed: the service gave no reason')
      : l10n.t('The query failed: {0}', reason);
  },
  get incomplete() {
    return l10n.t('The result is not complete.');
  },
  get runAgain() {
    return l10n.t('Run Again');
  },
  get options() {
    return l10n.t('Options...');
  },
  get openInBrowser() {
    return l10n.t('Open in Browser');
  },
  get openGraph() {
    return l10n.t('Open Graph Image');
  },
  get previewSummary() {
    return l10n.t('Preview summary');
  },
  valueLabel: (what: string, threshold: string) =>
    l10n.t('Chart: {0}; dashed line: {1}; shaded: while it fired.', what, threshold),
  get noPoints() {
    return l10n.t('The result has no data points to draw.');
  },
  get noSeries() {
    return l10n.t('The result has no time series (it was run without one).');
  },
  /** {0}: when, as a relative time. */
  get ranAt() {
    return l10n.t('Run {0}');
  },
  /** {0}: when it ran, as a relative time. */
  get restoredAt() {
    return l10n.t('Restored after a window reload: as it was {0}');
  },
  get filterRows() {
    return l10n.t('Filter rows');
  },
  /** The filter of the firings table (a preview) or of the results table. */
  filterRowsLabel: (preview: boolean) => (preview ? l10n.t('Filter the firings') : l10n.t('Filter the results')),
  rows: (total: number) => (total === 1 ? l10n.t('1 row') : l10n.t('{0} rows', n(total))),
  rowsMatch: (shown: number, total: number) => l10n.t('{0} of {1} rows match', n(shown), n(total)),
  showMore: (count: number) => l10n.t('Show {0} more', n(count)),
  sortBy: (name: string) => l10n.t('Sort by {0}', name),
  get noGroupShown() {
    return l10n.t('No group is shown: pick groups below.');
  },
  get readoutHelp() {
    return l10n.t('Hover the chart, or focus it and use the arrow keys, to read values.');
  },
  /** The name of the one series of a result without an aggregate. */
  get value() {
    return l10n.t('value');
  },
  /** The chart's accessible name: what it draws (an aggregate, or '' when the result has none) for how many groups. */
  chartAria: (aggregate: string, groups: number) => {
    if (aggregate === '')
      return groups === 1
        ? l10n.t('Chart of the value over time for 1 group; use the left and right arrow keys to read values.')
        : l10n.t(
            'Chart of the value over time for {0} groups; use the left and right arrow keys to read values.',
            n(groups),
          );
    return groups === 1
      ? l10n.t('Chart of {0} over time for 1 group; use the left and right arrow keys to read values.', aggregate)
      : l10n.t(
          'Chart of {0} over time for {1} groups; use the left and right arrow keys to read values.',
          aggregate,
          n(groups),
        );
  },
  /** {0}: a relative time ("18 hours ago"), beside the time it is relative to. */
  get ago() {
    return l10n.t('({0})');
  },
  /** The tooltip at a time where no line shown has a value. */
  get noValues() {
    return l10n.t('no values');
  },
  /** The legend under the chart: its accessible name, and the keys of a preview's threshold line and bands. */
  get seriesLegend() {
    return l10n.t('Lines drawn');
  },
  toggleLine: (name: string) => l10n.t('Show the line of {0}', name),
  get whileFired() {
    return l10n.t('while it fired');
  },
  readout: (time: string, values: readonly string[]) =>
    values.length === 0 ? l10n.t('{0} — no values', time) : l10n.t('{0} — {1}', time, values.join(' · ')),
} as const;
