// What the editor shows of drift, as plain data: the Explorer badge and colour of a file, the CodeLens
// at the top of a file, and the items of the Drift view. The adapters (driftViews.ts) turn these into
// vscode objects. No vscode import.
import * as l10n from '@vscode/l10n';
import {
  datasetOf,
  differenceText,
  differingMembers,
  type Difference,
  type FileDrift,
  type ServiceTrigger,
  type SloFileDrift,
  type TriggerDrift,
} from '../../triggerFiles';
import { recipientIdText, type RecipientDirectory } from '../core/recipients';
import { capText, safeLabel } from '../core/text';
import type { DriftSnapshot } from './driftModel';

/** The recipient ids a difference in `recipients` holds, on either side, each once in order. */
function recipientIds(d: Difference): string[] {
  const ids = new Set<string>();
  // `recipients[0].id: "a" -> "b"` holds ids; `recipients` a list of recipients, `recipients[0]` one.
  const isId = /^recipients\[\d+\]\.id$/.test(d.path);
  const holdsRecipients = /^recipients(\[\d+\])?$/.test(d.path);
  for (const side of [d.service, d.local]) {
    if (isId && typeof side === 'string') ids.add(side);
    if (!holdsRecipients) continue;
    for (const r of Array.isArray(side) ? side : [side]) {
      const id: unknown = typeof r === 'object' && r !== null ? (r as { id?: unknown }).id : undefined;
      if (typeof id === 'string') ids.add(id);
    }
  }
  return [...ids];
}

/**
 * The recipients a difference names, by name when the account's recipients are known: "rcp_a is On-call
 * (PagerDuty); rcp_b is #alerts (Slack)". Undefined when it names none, or none can be named.
 */
export function recipientNote(d: Difference, recipients: RecipientDirectory | undefined): string | undefined {
  if (recipients === undefined) return undefined;
  const ids = recipientIds(d);
  if (ids.length === 0) return undefined;
  return ids.map((id) => l10n.t('{0} is {1}', id, recipientIdText(id, recipients))).join('; ');
}

/** A difference in one line, with the recipients it names by name. */
export function differenceWithNames(d: Difference, recipients: RecipientDirectory | undefined, max?: number): string {
  const text = differenceText(d, max);
  const note = recipientNote(d, recipients);
  return note === undefined ? text : `${text} (${note})`;
}

export interface DecorationData {
  badge: string;
  tooltip: string;
  /** A theme colour id. */
  color: string;
}

/** The Explorer decoration of a trigger file: none when it is in sync. */
function decorationUncapped(drift: FileDrift | undefined, connection: string): DecorationData | undefined {
  if (drift === undefined) return undefined;
  switch (drift.status) {
    case 'in-sync':
      return undefined;
    case 'differs': {
      const members = drift.triggers.flatMap((t) => differingMembers(t.differences));
      return {
        badge: '≠',
        tooltip: l10n.t('Differs from {0}: {1}', connection, [...new Set(members)].join(', ')),
        color: 'gitDecoration.modifiedResourceForeground',
      };
    }
    case 'local-only':
      return {
        badge: 'L',
        tooltip: l10n.t('Only local: not on {0}', connection),
        color: 'gitDecoration.untrackedResourceForeground',
      };
    case 'unknown':
      return {
        badge: '?',
        tooltip: l10n.t('Not compared with {0}: {1}', connection, reasonOf(drift)),
        color: 'list.warningForeground',
      };
  }
}

function reasonOf(drift: FileDrift): string {
  return drift.reason ?? drift.triggers.find((t) => t.reason !== undefined)?.reason ?? l10n.t('unknown');
}

export interface LensData {
  title: string;
  tooltip?: string;
  /**
   * The command the lens runs; compare and apply take the trigger's index as their argument, compareFile (a
   * burn alert or definitions file) the file.
   */
  action: 'compare' | 'compareFile' | 'apply' | 'refresh' | 'none';
  index?: number;
}

function triggerLabel(t: TriggerDrift): string {
  return t.name === undefined ? l10n.t('trigger {0}', t.index) : JSON.stringify(t.name);
}

/** "Apply to <connection>", next to a trigger (or another file: `ofFile`) that differs or is only local. */
export function applyLens(connection: string, index: number, ofFile = false): LensData {
  return {
    title: `$(cloud-upload) ${l10n.t('Apply to {0}', connection)}`,
    tooltip: ofFile
      ? l10n.t('Plan this file against {0} and apply it after one question', connection)
      : l10n.t('Plan this trigger against {0} and apply it after one question', connection),
    action: 'apply',
    index,
  };
}

/** The lenses of any file while there is no comparison to show: none, comparing, or it failed. */
export function stateLenses(connection: string | undefined, state: DriftSnapshot['state']['kind']): LensData[] {
  if (connection === undefined || state === 'no-connection') return [];
  if (state === 'loading')
    return [{ title: `$(sync~spin) ${l10n.t('Comparing with {0}...', connection)}`, action: 'none' }];
  if (state === 'failed')
    return [
      {
        title: `$(warning) ${l10n.t('Could not compare with {0}', connection)}`,
        tooltip: l10n.t('Compare again'),
        action: 'refresh',
      },
    ];
  return [];
}

/** The lenses before the caps (lensesOf). */
function lensesUncapped(
  drift: FileDrift | undefined,
  connection: string | undefined,
  state: DriftSnapshot['state']['kind'],
  recipients?: RecipientDirectory,
): LensData[] {
  if (connection === undefined || state !== 'ready') return stateLenses(connection, state);
  if (drift === undefined) return [];
  if (drift.triggers.length === 0)
    return [
      { title: `$(question) ${l10n.t('Not compared with {0}: {1}', connection, reasonOf(drift))}`, action: 'none' },
    ];
  const many = drift.triggers.length > 1;
  if (drift.status === 'in-sync') {
    return [
      {
        title: `$(check) ${l10n.t('In sync with {0}', connection)}`,
        tooltip: l10n.t('Compare with Service'),
        action: 'compare',
        index: drift.triggers[0]?.index ?? -1,
      },
    ];
  }
  const lenses: LensData[] = [];
  for (const t of drift.triggers) {
    const who = many ? triggerLabel(t) : undefined;
    if (t.status === 'differs') {
      lenses.push({
        title: `$(diff) ${who === undefined ? l10n.t('Differs: {0} - Compare', differingMembers(t.differences).join(', ')) : l10n.t('{0}: Differs: {1} - Compare', who, differingMembers(t.differences).join(', '))}`,
        tooltip: t.differences.map((d) => differenceWithNames(d, recipients)).join('\n'),
        action: 'compare',
        index: t.index,
      });
      lenses.push(applyLens(connection, t.index));
    } else if (t.status === 'local-only') {
      lenses.push({
        title: `$(circle-slash) ${who === undefined ? l10n.t('Only local: not on {0}', connection) : l10n.t('{0}: Only local: not on {1}', who, connection)}`,
        tooltip: t.reason ?? '',
        action: 'none',
      });
      lenses.push(applyLens(connection, t.index));
    } else if (t.status === 'unknown') {
      lenses.push({
        title: `$(question) ${who === undefined ? l10n.t('Not compared: {0}', t.reason ?? l10n.t('unknown')) : l10n.t('{0}: Not compared: {1}', who, t.reason ?? l10n.t('unknown'))}`,
        action: 'none',
      });
    } else if (many) {
      lenses.push({
        title: `$(check) ${who === undefined ? l10n.t('In sync') : l10n.t('{0}: In sync', who)}`,
        action: 'compare',
        index: t.index,
      });
    }
  }
  return lenses;
}

/** The kind of a burn alert or definitions file's rows (a trigger file's rows have none). */
type Of = { of?: SloFileDrift['kind'] };

export type DriftItem =
  | ({ kind: 'file'; uri: string; label: string; description: string; status: FileDrift['status'] } & Of & {
        tooltip: string;
      })
  | ({ kind: 'difference'; uri: string; index: number; label: string; tooltip: string; description?: string } & Of)
  | { kind: 'serviceOnly'; trigger: ServiceTrigger; dataset: string; label: string; description: string }
  | { kind: 'note'; label: string };

// A function, not a table: l10n.t must run after the bundle is configured, not when the module loads.
function statusText(status: FileDrift['status']): string {
  if (status === 'in-sync') return l10n.t('in sync');
  if (status === 'differs') return l10n.t('differs');
  if (status === 'local-only') return l10n.t('only local');
  return l10n.t('not compared');
}

/** The Drift view's row of a file not in sync; undefined for a file in sync. */
function fileRowUncapped(f: FileDrift, relativePath: (uri: string) => string): DriftItem | undefined {
  if (f.status === 'in-sync') return undefined;
  const path = relativePath(f.file);
  const slash = path.lastIndexOf('/');
  const detail = f.status === 'differs' ? f.triggers.flatMap((t) => differingMembers(t.differences)) : [];
  return {
    kind: 'file',
    uri: f.file,
    label: path.slice(slash + 1),
    description: `${statusText(f.status)}${detail.length > 0 ? `: ${[...new Set(detail)].join(', ')}` : ''} · ${slash > 0 ? path.slice(0, slash) : ''}`,
    status: f.status,
    tooltip:
      f.status === 'differs' ? `${path}: ${statusText(f.status)}` : `${path}: ${statusText(f.status)} (${reasonOf(f)})`,
  };
}

/** The Drift view's row of a service trigger no file holds. */
function serviceOnlyRowUncapped(t: ServiceTrigger, connection: string): DriftItem {
  const dataset = datasetOf(t, '');
  return {
    kind: 'serviceOnly',
    trigger: t,
    dataset,
    label: t.name,
    description: l10n.t('only on {0} · {1}', connection, dataset),
  };
}

/** The Drift view's top level before its rows (the note while comparing, or why it could not). */
function stateRow(snapshot: DriftSnapshot): DriftItem[] | undefined {
  const s = snapshot.state;
  if (s.kind === 'no-connection') return [];
  if (s.kind === 'loading') return [{ kind: 'note', label: l10n.t('Comparing with {0}...', s.connection) }];
  if (s.kind === 'failed')
    return [{ kind: 'note', label: l10n.t('Could not compare with {0}: {1}', s.connection, s.message) }];
  return undefined;
}

/** The differences of a file, one item each (`threshold.value: 5 -> 10`); one in recipients names them beside it. */
function differencesUncapped(drift: FileDrift | undefined, recipients?: RecipientDirectory): DriftItem[] {
  if (drift === undefined) return [];
  const many = drift.triggers.length > 1;
  return drift.triggers.flatMap((t) =>
    t.differences.map((d) => {
      const text = differenceText(d);
      const note = recipientNote(d, recipients);
      return {
        kind: 'difference' as const,
        uri: drift.file,
        index: t.index,
        label: many ? `${triggerLabel(t)} ${text}` : text,
        tooltip: differenceWithNames(d, recipients, 400),
        ...(note === undefined ? {} : { description: note }),
      };
    }),
  );
}

/** Triggers that are drafts: only local, never created on the service (TriggerDrift.draft). */
export function draftsOf(files: readonly FileDrift[]): number {
  let drafts = 0;
  for (const f of files) for (const t of f.triggers) if (t.status === 'local-only' && t.draft === true) drafts++;
  return drafts;
}

/**
 * The Drift view's badge (shown on the activity bar too): triggers that differ, that the service lost or
 * does not have a dataset for, and the service's triggers no file holds. A draft (a trigger file not
 * created on the service yet) is work in progress, not drift: it is listed, not counted.
 */
export function driftBadgeCount(snapshot: DriftSnapshot): number {
  const c = snapshot.counts;
  const slo = snapshot.sloCounts;
  return c.differs + c.localOnly - snapshot.drafts + c.serviceOnly + slo.differs + slo.missing;
}

/** The Drift view's summary line: "3 differ, 1 only local, 2 only on the service, 12 in sync (sandbox)". */
export function driftSummary(snapshot: DriftSnapshot): string | undefined {
  if (snapshot.state.kind !== 'ready') return undefined;
  const c = snapshot.counts;
  const slo = snapshot.sloCounts;
  const parts: string[] = [];
  const differs = c.differs + slo.differs;
  if (differs > 0) parts.push(differs === 1 ? l10n.t('1 differs') : l10n.t('{0} differ', differs));
  const drafts = snapshot.drafts;
  if (c.localOnly > drafts) parts.push(l10n.t('{0} only local', c.localOnly - drafts));
  if (drafts > 0) parts.push(l10n.t('{0} new (not on the service yet)', drafts));
  if (slo.missing > 0) parts.push(l10n.t('{0} not on the service (cannot be created from files)', slo.missing));
  if (c.serviceOnly > 0) parts.push(l10n.t('{0} only on the service', c.serviceOnly));
  if (c.unknown + slo.unknown > 0) parts.push(l10n.t('{0} not compared', c.unknown + slo.unknown));
  parts.push(l10n.t('{0} in sync', c.inSync + slo.inSync));
  return `${parts.join(', ')} (${snapshot.state.connection})`;
}

// What is drawn is bounded whatever a file or the service holds (a name of megabytes, a member path of a
// million characters): one-line labels and titles, tooltips cut with the length said.
const LABEL_MAX = 200;
const label = (text: string) => safeLabel(text, LABEL_MAX);

export function cappedItem(item: DriftItem): DriftItem {
  const out = { ...item, label: label(item.label) };
  if ('description' in out && out.description !== undefined) out.description = label(out.description);
  if ('tooltip' in out) out.tooltip = capText(out.tooltip);
  return out;
}

/** The Explorer badge, colour and tooltip of a file. */
export function decorationOf(drift: FileDrift | undefined, connection: string): DecorationData | undefined {
  const d = decorationUncapped(drift, connection);
  return d === undefined ? undefined : { ...d, tooltip: capText(d.tooltip) };
}

/** The lenses at the top of a trigger file: one for a file of one trigger, one per trigger that is not in sync for an array. */
export function lensesOf(...args: Parameters<typeof lensesUncapped>): LensData[] {
  return lensesUncapped(...args).map((l) => ({
    ...l,
    title: label(l.title),
    ...(l.tooltip === undefined ? {} : { tooltip: capText(l.tooltip) }),
  }));
}

/** A trigger file's row in the Drift view; undefined for a file in sync (it has none). */
export function fileRow(f: FileDrift, relativePath: (uri: string) => string): DriftItem | undefined {
  const row = fileRowUncapped(f, relativePath);
  return row === undefined ? undefined : cappedItem(row);
}

/** The row of a service trigger no file holds. */
export function serviceOnlyRow(t: ServiceTrigger, connection: string): DriftItem {
  return cappedItem(serviceOnlyRowUncapped(t, connection));
}

/**
 * The Drift view's top rows: trigger files not in sync, the service's triggers no file holds, then the burn alert
 * and definitions files not in sync. `row` and `sloRow` give a file's row (DriftTree keeps them between changes
 * and makes only those of the files that changed).
 */
export function driftRoots(
  snapshot: DriftSnapshot,
  relativePath: (uri: string) => string,
  /** A burn alert or definitions file's row (sloDriftPresentation.ts), undefined for a file in sync. */
  sloRow: (f: SloFileDrift) => DriftItem | undefined,
  row: (f: FileDrift) => DriftItem | undefined = (f) => fileRow(f, relativePath),
  onlyRow: (t: ServiceTrigger, connection: string) => DriftItem = serviceOnlyRow,
): DriftItem[] {
  const early = stateRow(snapshot);
  if (early !== undefined || snapshot.state.kind !== 'ready') return early ?? [];
  const connection = snapshot.state.connection;
  const out: DriftItem[] = [];
  for (const f of snapshot.files) {
    const r = row(f);
    if (r !== undefined) out.push(r);
  }
  for (const t of snapshot.onlyOnService) out.push(onlyRow(t, connection));
  for (const f of snapshot.sloFiles) {
    const r = sloRow(f);
    if (r !== undefined) out.push(r);
  }
  if (out.length === 0 && snapshot.files.length + snapshot.sloFiles.length > 0)
    out.push(cappedItem({ kind: 'note', label: l10n.t('Every file is in sync with {0}', connection) }));
  return out;
}

/** The rows under a trigger file in the Drift view: each difference. */
export function differenceItems(drift: FileDrift | undefined, recipients?: RecipientDirectory): DriftItem[] {
  return differencesUncapped(drift, recipients).map(cappedItem);
}
