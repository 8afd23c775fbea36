// The noise report as the rows of its view: each trigger, noisiest first, with its notifications and a
// sparkline of them per day; under it what it sent, how often it flapped, and for a trigger over the budget
// the suggested change (a row that opens the edit for review), or why there is none. Estimates say so.
// Plain data: the view (in the activation bundle) draws it without the engine. No vscode import.
// Names, dataset slugs, test names and reasons come from workspace files and the service: every label and
// description is drawn as one bounded line, every tooltip text cut with its length said, controls and bidi
// characters made visible (core/text.ts), as the Datasets and Drift views do.
import { utcSpan } from '../../backtest';
import { durationWords, sparkline } from '../../backtest/noise';
import { spanLabel } from '../../backtest/summary';
import { capText, neutraliseControls, safeLabel } from '../core/text';
import type { NoiseEntry } from '../../backtest/noiseReport';
import type { SuggestedEdit } from './suggestionEdit';
import * as l10n from '@vscode/l10n';

type NoiseIcon = 'bell' | 'bell-dot' | 'lightbulb' | 'info' | 'warning' | 'circle-slash' | 'pulse';

export interface NoiseRow {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon: NoiseIcon;
  /** The trigger file, opened by the row. */
  open?: string;
  /** The suggestion this row opens for review. */
  review?: SuggestedEdit;
  children?: NoiseRow[];
}

const notificationsText = (n: number): string => (n === 1 ? l10n.t('1 notification') : l10n.t('{0} notifications', n));
const flapsText = (n: number): string => (n === 1 ? l10n.t('1 flap') : l10n.t('{0} flaps', n));

/** Longest label or description drawn, in characters. */
const LABEL_MAX = 200;

/** A tooltip of these lines (empty ones left out), each text cut at 1,000 characters and its controls made visible. */
const tooltipOf = (lines: readonly string[]): string =>
  lines
    .filter((l) => l !== '')
    .map((l) => capText(neutraliseControls(l)))
    .join('\n');

/** The row and its children as drawn: one-line labels and descriptions of at most LABEL_MAX characters. */
function drawn(row: NoiseRow): NoiseRow {
  const out: NoiseRow = { ...row, label: safeLabel(row.label, LABEL_MAX) };
  if (row.description !== undefined) out.description = safeLabel(row.description, LABEL_MAX);
  if (row.children !== undefined) out.children = row.children.map(drawn);
  return out;
}

/** The rows of a report, noisiest first (the entries come sorted). */
/**
 * The entries with no suggested edit for the triggers an environment sees (`seenBy`, by key): their threshold may be
 * the environment's override, not the file's, and an edit of the file would change what another environment holds.
 */
export function withoutSuggestions(entries: readonly NoiseEntry[], seenBy: ReadonlySet<string>): NoiseEntry[] {
  return entries.map((e) => {
    if (e.kind !== 'evaluated' || !seenBy.has(e.key)) return e;
    const { suggestion: _suggestion, ...rest } = e;
    return rest;
  });
}

export function noiseRows(entries: readonly NoiseEntry[], maxPerWeek: number): NoiseRow[] {
  return entries.map((e) => drawn(e.kind === 'skipped' ? skippedRow(e) : triggerRow(e, maxPerWeek)));
}

function skippedRow(e: Extract<NoiseEntry, { kind: 'skipped' }>): NoiseRow {
  return {
    id: e.key,
    label: e.name ?? e.label,
    description: l10n.t('not evaluated: {0}', e.reason),
    tooltip: tooltipOf([e.label, l10n.t('Not evaluated: {0}', e.reason)]),
    icon: 'circle-slash',
    open: e.key,
  };
}

function triggerRow(e: Extract<NoiseEntry, { kind: 'evaluated' }>, maxPerWeek: number): NoiseRow {
  const c = e.counts;
  const estimate = c.exact ? '' : ` ${l10n.t('(estimated)')}`;
  const over = c.notifications > maxPerWeek;
  const span = utcSpan(e.from, e.to);
  const window = durationWords(c.windowSeconds);
  const sent = l10n.t(
    '{0} ({1}) and {2} in the last {3}{4}',
    notificationsText(c.notifications),
    e.rules.alertType,
    c.resolves === 1 ? l10n.t('1 resolve') : l10n.t('{0} resolves', c.resolves),
    window,
    estimate,
  );
  const flapping = l10n.t('{0}: fired again within an hour of resolving', flapsText(c.flaps));
  const children: NoiseRow[] = [
    {
      id: `${e.key}#sent`,
      label: sent,
      tooltip: tooltipOf([
        l10n.t(
          'Evaluated as the service would have, every {0} from {1} to {2}: {3} evaluations.',
          spanLabel(e.rules.frequency),
          span.from,
          span.to,
          c.evaluated,
        ),
      ]),
      icon: 'bell',
    },
    { id: `${e.key}#flaps`, label: flapping, icon: 'pulse' },
    {
      id: `${e.key}#days`,
      label: l10n.t('Per day: {0}', c.perDay.join(' · ')),
      description: sparkline(c.perDay),
      icon: 'info',
    },
    ...suggestionRows(e, maxPerWeek, estimate),
    ...e.notes.map((n, i) => ({ id: `${e.key}#note${i}`, label: n, icon: 'info' as const })),
  ];
  return {
    id: e.key,
    label: e.name,
    description:
      l10n.t('{0} · {1} · {2}', notificationsText(c.notifications), flapsText(c.flaps), sparkline(c.perDay)) + estimate,
    tooltip: tooltipOf([
      e.label,
      l10n.t(
        '{0} on {1}: threshold {2} {3}, exceeded_limit {4}',
        e.name,
        e.dataset,
        e.rules.op,
        e.rules.value,
        e.rules.exceededLimit,
      ),
      sent,
      flapping,
      c.exact ? '' : l10n.t('Estimated: some values could not be added up over buckets.'),
    ]),
    icon: over ? 'bell-dot' : 'bell',
    open: e.key,
    children,
  };
}

function suggestionRows(
  e: Extract<NoiseEntry, { kind: 'evaluated' }>,
  maxPerWeek: number,
  estimate: string,
): NoiseRow[] {
  const s = e.suggestion;
  if (!s) return [];
  const rows: NoiseRow[] = [];
  const seen = { op: e.rules.op, value: e.rules.value, exceededLimit: e.rules.exceededLimit };
  const window = durationWords(e.counts.windowSeconds);
  for (const x of s.suggestions) {
    const label =
      x.change.member === 'value'
        ? l10n.t('Suggested: threshold {0} {1} (now {0} {2})', e.rules.op, x.change.value, e.rules.value)
        : l10n.t('Suggested: exceeded_limit {0} (now {1})', x.change.value, e.rules.exceededLimit);
    rows.push({
      id: `${e.key}#suggest-${x.change.member}`,
      label,
      description: l10n.t('{0} in the last {1}{2}', notificationsText(x.notifications), window, estimate),
      tooltip: l10n.t(
        'The smallest change that would have kept it to at most {0} in the last {1}, while it still fires in every window its tests say it must. Click to review the edit of the file (nothing is saved or applied).',
        notificationsText(maxPerWeek),
        window,
      ),
      icon: 'lightbulb',
      review: { key: e.key, member: x.change.member, value: x.change.value, seen },
    });
  }
  if (s.blockedBy !== undefined)
    rows.push({
      id: `${e.key}#blocked`,
      label: l10n.t(
        'No quieter threshold (or exceeded_limit) within {0} still fires in "{1}", which its test says it must',
        notificationsText(maxPerWeek),
        s.blockedBy,
      ),
      icon: 'warning',
    });
  for (const name of s.missed)
    rows.push({
      id: `${e.key}#missed-${name}`,
      label: l10n.t('Its test "{0}" fails now: it does not fire in that window', name),
      icon: 'warning',
    });
  e.unchecked.forEach((u, i) =>
    rows.push({ id: `${e.key}#unchecked${i}`, label: l10n.t('Not checked against {0}', u), icon: 'info' }),
  );
  return rows;
}
