// What the editor shows of the drift of a burn alert or definitions file (sloDriftFiles.ts), as plain data: its
// Explorer badge, its CodeLens and its rows in the Drift view, in the words of the trigger files'
// (driftPresentation.ts) where they mean the same. These files are only ever updated on the service: a file
// whose alert or dataset the service does not have says so, and that it cannot be created from a file. No
// vscode import.
import * as l10n from '@vscode/l10n';
import { differenceText, differingMembers, type FileDrift, type SloFileDrift } from '../../triggerFiles';
import type { RecipientDirectory } from '../core/recipients';
import { capText, safeLabel } from '../core/text';
import {
  applyLens,
  cappedItem,
  differenceWithNames,
  recipientNote,
  stateLenses,
  type DecorationData,
  type DriftItem,
  type LensData,
} from './driftPresentation';
import type { DriftSnapshot } from './driftSnapshot';

const members = (f: SloFileDrift): string => differingMembers(f.differences).join(', ');
const reasonOf = (f: SloFileDrift): string => f.reason ?? l10n.t('unknown');

/** The Explorer decoration of a burn alert or definitions file: none when it is in sync. */
export function sloDecorationOf(drift: SloFileDrift | undefined, connection: string): DecorationData | undefined {
  if (drift === undefined || drift.status === 'in-sync') return undefined;
  const d: DecorationData =
    drift.status === 'differs'
      ? {
          badge: '≠',
          tooltip: l10n.t('Differs from {0}: {1}', connection, members(drift)),
          color: 'gitDecoration.modifiedResourceForeground',
        }
      : drift.missing === true
        ? {
            badge: 'L',
            tooltip: l10n.t('Not on {0}: {1}', connection, reasonOf(drift)),
            color: 'gitDecoration.untrackedResourceForeground',
          }
        : {
            badge: '?',
            tooltip: l10n.t('Not compared with {0}: {1}', connection, reasonOf(drift)),
            color: 'list.warningForeground',
          };
  return { ...d, tooltip: capText(d.tooltip) };
}

/** Why a file's object is not on the service, in a few words: a file cannot create it. */
function missingText(f: SloFileDrift): string {
  return f.kind === 'burn-alert'
    ? l10n.t('burn alerts cannot be created from files')
    : l10n.t('it has no dataset {0}', f.dataset ?? '');
}

function lensesUncapped(
  drift: SloFileDrift | undefined,
  connection: string | undefined,
  state: DriftSnapshot['state']['kind'],
  recipients?: RecipientDirectory,
): LensData[] {
  if (connection === undefined || state !== 'ready') return stateLenses(connection, state);
  if (drift === undefined) return [];
  if (drift.status === 'in-sync')
    return [
      {
        title: `$(check) ${l10n.t('In sync with {0}', connection)}`,
        tooltip: l10n.t('Compare with Service'),
        action: 'compareFile',
      },
    ];
  if (drift.status === 'differs')
    return [
      {
        title: `$(diff) ${l10n.t('Differs: {0} - Compare', members(drift))}`,
        tooltip: drift.differences.map((d) => differenceWithNames(d, recipients)).join('\n'),
        action: 'compareFile',
      },
      applyLens(connection, -1, true),
    ];
  if (drift.missing === true)
    return [
      {
        title: `$(circle-slash) ${l10n.t('Not on {0}: {1}', connection, missingText(drift))}`,
        tooltip: reasonOf(drift),
        action: 'none',
      },
    ];
  return [
    { title: `$(question) ${l10n.t('Not compared with {0}: {1}', connection, reasonOf(drift))}`, action: 'none' },
  ];
}

/** The lens at the top of a burn alert or definitions file (and Apply beside one that differs). */
export function sloLensesOf(...args: Parameters<typeof lensesUncapped>): LensData[] {
  return lensesUncapped(...args).map((l) => ({
    ...l,
    title: safeLabel(l.title, 200),
    ...(l.tooltip === undefined ? {} : { tooltip: capText(l.tooltip) }),
  }));
}

// Functions, not tables: l10n.t must run after the bundle is configured, not when the module loads.
function kindText(f: SloFileDrift): string {
  return f.kind === 'burn-alert' ? l10n.t('burn alert') : l10n.t('definitions');
}

function statusText(f: SloFileDrift): string {
  if (f.status === 'in-sync') return l10n.t('in sync');
  if (f.status === 'differs') return l10n.t('differs');
  return f.missing === true ? l10n.t('not on the service') : l10n.t('not compared');
}

/** The row's status in the words of the trigger files' rows: an alert the service lacks is only local. */
function rowStatus(f: SloFileDrift): FileDrift['status'] {
  if (f.status === 'unknown' && f.missing === true) return 'local-only';
  return f.status;
}

/** The Drift view's row of a burn alert or definitions file: its kind, status and folder; none when in sync. */
export function sloFileRow(f: SloFileDrift, relativePath: (uri: string) => string): DriftItem | undefined {
  if (f.status === 'in-sync') return undefined;
  const path = relativePath(f.file);
  const slash = path.lastIndexOf('/');
  const detail = f.status === 'differs' ? `: ${members(f)}` : '';
  const folder = slash > 0 ? path.slice(0, slash) : '';
  return cappedItem({
    kind: 'file',
    of: f.kind,
    uri: f.file,
    label: path.slice(slash + 1),
    description: `${l10n.t('{0}, {1}', kindText(f), statusText(f))}${detail} · ${folder}`,
    status: rowStatus(f),
    tooltip: f.status === 'differs' ? `${path}: ${statusText(f)}` : `${path}: ${statusText(f)} (${reasonOf(f)})`,
  });
}

/** The rows under a burn alert or definitions file in the Drift view: each difference. */
export function sloDifferenceItems(drift: SloFileDrift | undefined, recipients?: RecipientDirectory): DriftItem[] {
  if (drift === undefined) return [];
  return drift.differences.map((d) => {
    const note = recipientNote(d, recipients);
    return cappedItem({
      kind: 'difference',
      of: drift.kind,
      uri: drift.file,
      index: -1,
      label: differenceText(d),
      tooltip: differenceWithNames(d, recipients, 400),
      ...(note === undefined ? {} : { description: note }),
    });
  });
}
