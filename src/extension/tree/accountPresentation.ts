// How datasets and SLOs look in the tree, from what the service lists of them (or, where it does not list
// them, what the user told the tree). Plain data, no vscode import; presentation.ts dispatches here.
import * as l10n from '@vscode/l10n';
import { ENVIRONMENT_WIDE } from '../../api/schemas/slugs';
import { knownLocale } from '../../webview/protocol/text/when';
import { safeLabel } from '../core/text';
import type { DatasetNode, SloNode } from './nodes';
import type { Presentation } from './look';
import { whenText, type Moment } from './when';

const FORMATS = new Map<string, Intl.NumberFormat>();

function numberFormat(language: string, kind: 'percent' | 'days'): Intl.NumberFormat {
  const locale = knownLocale(language);
  const key = `${locale}\u0000${kind}`;
  let format = FORMATS.get(key);
  if (format === undefined) {
    format =
      kind === 'percent'
        ? new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 4 })
        : new Intl.NumberFormat(locale, { style: 'unit', unit: 'day', unitDisplay: 'long' });
    FORMATS.set(key, format);
  }
  return format;
}

/** An SLO's target: 999000 per million is "99.9%" in English, "99,9 %" in German. */
export function formatTarget(perMillion: number, language = 'en'): string {
  return numberFormat(language, 'percent').format(perMillion / 1_000_000);
}

/** An SLO's period: "30 days", "30 Tage". */
export function formatPeriod(days: number, language = 'en'): string {
  return numberFormat(language, 'days').format(days);
}

function yesNo(v: boolean | undefined): string | undefined {
  return v === undefined ? undefined : v ? l10n.t('yes') : l10n.t('no');
}

function datasetSource(node: DatasetNode): string {
  const all = node.slug === ENVIRONMENT_WIDE;
  if (all) return l10n.t('every dataset of the environment');
  return [
    node.listed !== undefined ? l10n.t('listed by the service') : undefined,
    node.added ? l10n.t('added by you') : undefined,
    node.discovered ? l10n.t('discovered from environment-wide triggers') : undefined,
  ]
    .filter(Boolean)
    .join(', ');
}

/** A dataset: dimmed, "no data yet", until the service says it received data. */
export function datasetPresentation(node: DatasetNode, m: Moment): Presentation {
  const all = node.slug === ENVIRONMENT_WIDE;
  const listed = node.listed;
  const unwritten = listed !== undefined && listed.lastWrittenAt === undefined;
  const flags = [
    node.metrics ? l10n.t('metrics') : undefined,
    unwritten ? l10n.t('no data yet') : undefined,
    !all && !node.added && listed === undefined ? l10n.t('discovered') : undefined,
  ].filter(Boolean);
  return {
    label: all ? l10n.t('Environment-wide') : safeLabel(node.slug),
    description: all ? ENVIRONMENT_WIDE : flags.join(' · '),
    icon: all ? { id: 'globe' } : unwritten ? { id: 'database', color: 'disabledForeground' } : { id: 'database' },
    contextValue: all
      ? 'obs:environment'
      : ['obs:dataset', node.added ? 'added' : undefined, node.metrics ? 'metrics' : undefined]
          .filter(Boolean)
          .join(':'),
    collapsible: 'collapsed',
    tooltip: {
      title: all ? l10n.t('Environment-wide ({0})', ENVIRONMENT_WIDE) : node.slug,
      text: listed?.description,
      rows: [
        { label: l10n.t('Name'), value: listed?.name },
        {
          label: l10n.t('Last written'),
          value:
            listed === undefined ? undefined : (whenText(listed.lastWrittenAt, m) ?? l10n.t('never (no data yet)')),
        },
        { label: l10n.t('Columns'), value: listed === undefined ? undefined : (listed.columns ?? l10n.t('none yet')) },
        { label: l10n.t('Created'), value: whenText(listed?.createdAt, m) },
        { label: l10n.t('Delete protected'), value: yesNo(listed?.deleteProtected) },
        { label: l10n.t('Source'), value: datasetSource(node) },
        { label: l10n.t('Metrics dataset'), value: node.metrics ? l10n.t('yes') : undefined },
      ],
    },
  };
}

/** "1 alert", "3 alerts": how SLO rows and Burn alerts groups count their alerts. */
export function alertsText(alerts: number): string {
  return alerts === 1 ? l10n.t('1 alert') : l10n.t('{0} alerts', alerts);
}

/** An SLO: by name with its target and period when listed; by id where the user added it and SLOs are not listed. */
export function sloPresentation(node: SloNode, alerts: number | undefined, m: Moment): Presentation {
  const slo = node.slo;
  const target = slo?.targetPerMillion === undefined ? undefined : formatTarget(slo.targetPerMillion, m.language);
  const period = slo?.periodDays === undefined ? undefined : formatPeriod(slo.periodDays, m.language);
  const counted = alerts === undefined ? undefined : alertsText(alerts);
  const description = slo === undefined ? [l10n.t('SLO'), counted] : [target, period, counted];
  return {
    label: safeLabel(slo?.name ?? node.sloId),
    description: safeLabel(description.filter((s) => s !== undefined).join(' · ')),
    icon: { id: 'target' },
    // Only an SLO added by hand can be removed from the tree.
    contextValue: node.added === true || slo === undefined ? 'obs:slo' : 'obs:slo:listed',
    collapsible: 'collapsed',
    tooltip: {
      title: slo?.name ?? l10n.t('SLO {0}', node.sloId),
      text: slo?.description,
      rows: [
        { label: l10n.t('Target'), value: target },
        { label: l10n.t('Period'), value: period },
        { label: l10n.t('SLI'), value: slo?.sli },
        { label: l10n.t('Id'), value: node.sloId },
        node.dataset === ENVIRONMENT_WIDE && slo?.datasets !== undefined
          ? { label: l10n.t('Datasets'), value: slo.datasets.join(', ') }
          : { label: l10n.t('Dataset'), value: node.dataset },
        {
          label: l10n.t('Source'),
          value: [
            slo !== undefined ? l10n.t('listed by the service') : undefined,
            node.added === true ? l10n.t('added by you') : undefined,
          ]
            .filter(Boolean)
            .join(', '),
        },
      ],
    },
  };
}
