// An apply as plain text: the plan (creates, updates with each member old -> new, deletes apart, what is
// blocked and why; then the burn alerts' and the definitions' updates and blocked files) and the question the agents' apply asks once; the counts of the outcomes; and the parts the
// plan view (planViewModel.ts) shows the same way.
// Names, paths, values and the service's words come from files and the service: every line has its hidden
// characters (controls, bidi, line separators) written as visible escapes, so none can forge a line of the
// plan or reorder it. No vscode import.
import * as l10n from '@vscode/l10n';
import {
  differenceText,
  planCounts,
  valueText,
  type ChangeResult,
  type Plan,
  type PlanKind,
  type PlannedChange,
} from '../../triggerFiles';
import { recipientIdText, type RecipientDirectory } from '../core/recipients';
import { capText } from '../core/text';
import { recipientNote } from './driftPresentation';

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** The text with every control, format and separator character as `\u{…}`. */
export function visible(text: string): string {
  return text.replace(HIDDEN, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}

const quoted = (s: string) => JSON.stringify(s);
const SIGN: Record<PlannedChange['action'], string> = { create: '+', update: '~', delete: '-' };

/** A name, dataset or path from a file or the service is cut after this many characters, its length said. */
const NAME_MAX = 200;
/** A reason or message from the service: cut after this many characters, its length said. */
const REASON_MAX = 1_000;

/** `api-gateway "High error rate" (trig_1)`, `definitions of api-gateway`: each part cut at NAME_MAX characters. */
export function changeLabel(c: PlannedChange): string {
  if (c.kind === 'definitions') return l10n.t('definitions of {0}', capText(c.dataset, NAME_MAX));
  const label = `${capText(c.dataset, NAME_MAX)} ${quoted(capText(c.name, NAME_MAX))}`;
  return c.action === 'create' ? label : `${label} (${capText(c.id, NAME_MAX)})`;
}

/** `recipients[0].id: "a" -> "b" (a is On-call (PagerDuty); b is #alerts (Slack))`: a difference, its recipients by name. */
/** A value in the plan: compact JSON, whole up to PLAN_VALUE_MAX characters, then cut with its length said. */
export const planValue = (v: unknown): string => capText(valueText(v, Number.MAX_SAFE_INTEGER), PLAN_VALUE_MAX);

function differenceLine(d: Parameters<typeof differenceText>[0], recipients: RecipientDirectory | undefined): string {
  const note = recipientNote(d, recipients);
  // A value past PLAN_VALUE_MAX is cut, and the line says what the cut hides (differenceText).
  return `      ${capText(differenceText({ ...d, path: capText(d.path, NAME_MAX) }, PLAN_VALUE_MAX), 4 * PLAN_VALUE_MAX)}${note === undefined ? '' : ` (${note})`}`;
}

/** A value of the plan is shown whole up to this many characters, then cut with its length said. */
const PLAN_VALUE_MAX = 2_000;

/** `rcp_a (On-call (PagerDuty))`: the ids of a create's recipients, each with its name when the connection lists it. */
function recipientsText(value: unknown, recipients: RecipientDirectory): string | undefined {
  if (!Array.isArray(value)) return undefined;
  const ids = value.map((r: unknown) =>
    typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string'
      ? (r as { id: string }).id
      : undefined,
  );
  if (ids.some((id) => id === undefined)) return undefined;
  return (ids as string[]).map((id) => `${id} (${recipientIdText(id, recipients)})`).join(', ');
}

/** A member a create sends, as the plan shows it: its recipients by name where the connection lists them. */
export function createdValue(member: string, value: unknown, recipients: RecipientDirectory | undefined): string {
  const named = member === 'recipients' && recipients !== undefined ? recipientsText(value, recipients) : undefined;
  return named === undefined ? planValue(value) : capText(named, PLAN_VALUE_MAX);
}

/** Every member a create sends, one line each: what the trigger will be, not only its name. */
function createdLines(body: Record<string, unknown>, recipients: RecipientDirectory | undefined): string[] {
  return Object.entries(body).map(([member, value]) => `      ${member}: ${createdValue(member, value, recipients)}`);
}

/**
 * What a change's heading leaves to say: a create that is probably a rename, an update matched by name, and the
 * id each recipient the file names by type and target resolved to.
 */
export function changeNotes(c: PlannedChange, idsIgnored: boolean): string[] {
  const refs = c.action === 'delete' || c.kind === 'definitions' ? undefined : c.recipientReferences;
  const resolved = (refs ?? []).map((r) =>
    l10n.t('(recipient {0} {1} is {2} in this team)', r.type, quoted(capText(r.target, NAME_MAX)), r.id),
  );
  return [...matchNotes(c, idsIgnored), ...resolved];
}

function matchNotes(c: PlannedChange, idsIgnored: boolean): string[] {
  if (c.action === 'create' && c.renameOf !== undefined) {
    return [
      l10n.t(
        '(probably {0} ({1}) renamed, which this plan deletes: give the file "id": {2} to rename it in place)',
        quoted(capText(c.renameOf.name, NAME_MAX)),
        c.renameOf.id,
        quoted(c.renameOf.id),
      ),
    ];
  }
  // With the files' ids ignored, every trigger is matched by name: the plan's heading says so once.
  if (c.action !== 'update' || c.matchedBy !== 'name' || idsIgnored) return [];
  return c.kind === 'burn-alert'
    ? [l10n.t("(the file has no id: matched by its SLO's name and alert type)")]
    : [l10n.t('(the file has no id: matched by dataset and name)')];
}

function changeLines(c: PlannedChange, recipients: RecipientDirectory | undefined, idsIgnored: boolean): string[] {
  const head = `  ${SIGN[c.action]} ${changeLabel(c)}`;
  if (c.action === 'delete') return [head];
  const file = `      ${l10n.t('file: {0}', c.file)}`;
  const notes = changeNotes(c, idsIgnored).map((n) => `      ${n}`);
  if (c.action === 'create') return [head, file, ...notes, ...createdLines(c.body, recipients)];
  return [head, file, ...notes, ...c.differences.map((d) => differenceLine(d, recipients))];
}

function section(
  title: string,
  changes: readonly PlannedChange[],
  recipients: RecipientDirectory | undefined,
  idsIgnored = false,
): string[] {
  return changes.length === 0 ? [] : ['', title, ...changes.flatMap((c) => changeLines(c, recipients, idsIgnored))];
}

/** "1 to create, 1 to update, 0 to delete, 8 unchanged, 1 blocked" */
export function planCountsText(plan: Plan): string {
  const c = planCounts(plan);
  return l10n.t(
    '{0} to create, {1} to update, {2} to delete, {3} unchanged, {4} blocked',
    c.create,
    c.update,
    c.delete,
    c.unchanged,
    c.blocked,
  );
}

/** `triggers/api/a.trigger.json[1] "Name"`: where a blocked trigger is, and its name when known. */
export function blockedWhere(b: Plan['blocked'][number]): string {
  const where = `${b.file ?? b.dataset ?? ''}${b.file !== undefined && b.index >= 0 ? `[${b.index}]` : ''}`;
  return `${where}${b.name === undefined ? '' : ` ${quoted(capText(b.name, NAME_MAX))}`}`;
}

/** A reason or message from the service or a file, cut after REASON_MAX characters with its length said. */
export const reasonText = (r: string): string => capText(r, REASON_MAX);

function blockedLines(plan: Plan, kind: PlanKind, title: string): string[] {
  const blocked = plan.blocked.filter((b) => b.kind === kind);
  if (blocked.length === 0) return [];
  const lines = ['', title];
  for (const b of blocked) lines.push(`  ! ${blockedWhere(b)}:`, ...b.reasons.map((r) => `      ${reasonText(r)}`));
  return lines;
}

/** The burn alerts' and the definitions' sections, after the triggers': their updates, then what is blocked of them. */
function sloSections(
  plan: Plan,
  connection: string,
  recipients: RecipientDirectory | undefined,
  idsIgnored: boolean,
): string[] {
  const of = (kind: PlanKind) => plan.changes.filter((c) => c.kind === kind);
  return [
    ...section(
      l10n.t("Update burn alerts ({0}'s value -> the file's value):", connection),
      of('burn-alert'),
      recipients,
      idsIgnored,
    ),
    ...blockedLines(plan, 'burn-alert', l10n.t('Blocked burn alerts (never written):')),
    ...section(
      l10n.t("Update definitions ({0}'s value -> the file's value):", connection),
      of('definitions'),
      recipients,
    ),
    ...blockedLines(plan, 'definitions', l10n.t('Blocked definitions (never written):')),
  ];
}

/**
 * The plan as the read-only document beside the question shows it; `recipients`, the target connection's
 * when known, name the recipient ids of a difference. `idsIgnored`: the plan is for a connection other than
 * the active one, whose ids the files hold; it matched each trigger by dataset and name. `results`: the plan
 * was applied, and its last line counts the outcomes instead of saying that nothing is written yet.
 */
export function planDocumentText(
  plan: Plan,
  notes: readonly string[] = [],
  recipients?: RecipientDirectory,
  idsIgnored = false,
  results?: readonly ChangeResult[],
): string {
  const of = (action: PlannedChange['action']) =>
    plan.changes.filter((c) => c.kind === 'trigger' && c.action === action);
  const connection = plan.target.connection ?? plan.target.baseUrl;
  const lines = [
    l10n.t('Plan: apply the trigger files to {0} ({1})', connection, plan.target.baseUrl),
    plan.files.length === 1
      ? l10n.t('1 file read: {0}', planCountsText(plan))
      : l10n.t('{0} files read: {1}', plan.files.length, planCountsText(plan)),
    ...(idsIgnored
      ? [
          l10n.t(
            "{0} is not the active connection: the files' ids are not its own, so each trigger is matched by dataset and name, and a created trigger's id is not written into its file.",
            connection,
          ),
        ]
      : []),
    ...section(l10n.t('Create:'), of('create'), recipients),
    ...section(l10n.t("Update ({0}'s value -> the file's value):", connection), of('update'), recipients, idsIgnored),
    ...section(l10n.t('Delete from {0} (no trigger file holds them):', connection), of('delete'), recipients),
    ...blockedLines(plan, 'trigger', l10n.t('Blocked (never written):')),
    ...sloSections(plan, connection, recipients, idsIgnored),
  ];
  if (notes.length > 0) lines.push('', l10n.t('Not checked:'), ...notes.map((n) => `  ${n}`));
  const last =
    results !== undefined
      ? l10n.t('Applied to {0}: {1}.', connection, resultCountsText(results))
      : plan.changes.length === 0
        ? nothingText(plan)
        : l10n.t('Nothing is written until you confirm.');
  lines.push('', last);
  return `${lines.map(visible).join('\n')}\n`;
}

export function nothingText(plan: Plan): string {
  const connection = plan.target.connection ?? plan.target.baseUrl;
  return plan.blocked.length === 0
    ? l10n.t('Nothing to change on {0}: the service matches the files.', connection)
    : l10n.t('Nothing can be applied to {0}: every change is blocked.', connection);
}

/** The one question before anything is written, naming the connection; stronger for one that looks like production. */
export function confirmation(plan: Plan, production: boolean): { message: string; detail: string; button: string } {
  const connection = plan.target.connection ?? plan.target.baseUrl;
  const n = plan.changes.length;
  const message = production
    ? n === 1
      ? l10n.t('{0} looks like a production connection. Apply 1 change to {0}?', connection)
      : l10n.t('{0} looks like a production connection. Apply {1} changes to {0}?', connection, n)
    : n === 1
      ? l10n.t('Apply 1 change to {0}?', connection)
      : l10n.t('Apply {0} changes to {1}?', n, connection);
  const blocked =
    plan.blocked.length === 0
      ? ''
      : ` ${plan.blocked.length === 1 ? l10n.t('1 blocked trigger is not written.') : l10n.t('{0} blocked triggers are not written.', plan.blocked.length)}`;
  const detail = `${planCountsText(plan)} (${plan.target.baseUrl}).${blocked} ${l10n.t('The plan is shown beside. After you confirm it is made again, and written only if it is still this plan.')}`;
  return { message: visible(message), detail: visible(detail), button: visible(l10n.t('Apply to {0}', connection)) };
}

/** "2 applied (1 stored differently), 1 skipped, 0 refused, 0 failed", then the unknown and unverified when there are any. */
export function resultCountsText(results: readonly ChangeResult[]): string {
  const count = (o: ChangeResult['outcome']) => results.filter((r) => r.outcome === o).length;
  const differently = results.filter((r) => r.outcome === 'applied' && r.storedDifferently.length > 0).length;
  const applied =
    differently > 0
      ? l10n.t('{0} applied ({1} stored differently)', count('applied'), differently)
      : l10n.t('{0} applied', count('applied'));
  let counts = l10n.t(
    '{0}, {1} skipped, {2} refused, {3} failed',
    applied,
    count('skipped'),
    count('refused'),
    count('failed'),
  );
  const unknown = count('unknown');
  if (unknown > 0) counts = l10n.t('{0}, {1} with an unknown outcome', counts, unknown);
  const unverified = count('unverified');
  return unverified === 0 ? counts : l10n.t('{0}, {1} written but not verified', counts, unverified);
}
