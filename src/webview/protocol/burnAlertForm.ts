// Update burn alert form (4.4): the edits a form holds, the full PUT body built from the alert as loaded
// plus those edits, the concurrency check and where problems land. Rules: UpdateBurnAlertRequest.
// No vscode import: the webview script validates with the same functions while the user types.
import * as z from 'zod';
// Imported per file, not through the schemas index, so the webview bundles leave the trigger schemas out.
import { BURN_ALERT_TYPES, BurnAlert, UpdateBurnAlertRequest } from '../../api/schemas/burnAlert';
import { RecipientDetails, type Recipient, type RecipientWrite } from '../../api/schemas/common';
import { noProblems, problemsFromZod, tableResolver, type FormProblems } from './problems';
import type { Checked } from './apiKeyForm';
import { BURN_ALERT_TEXT } from './text/burnAlertForm';
import { COMMON_TEXT } from './text/common';
import type { FormWording, Issue } from './wording';

/** A recipient as the form sends it; the rules (id, or type + target) are RecipientWrite's. */
export const RecipientEdit = z.strictObject({
  id: z.string().optional(),
  type: z.string().optional(),
  target: z.string().optional(),
  details: RecipientDetails.optional(),
});
export type RecipientEdit = z.infer<typeof RecipientEdit>;

/**
 * What the user changed, and nothing else: an absent member is untouched. A number member set to null
 * was cleared by the user (and is then missing from the body, which the rules report).
 */
export const BurnAlertEdits = z.strictObject({
  alert_type: z.enum(BURN_ALERT_TYPES).optional(),
  exhaustion_minutes: z.number().nullable().optional(),
  budget_rate_window_minutes: z.number().nullable().optional(),
  budget_rate_decrease_threshold_per_million: z.number().nullable().optional(),
  description: z.string().optional(),
  recipients: z.array(RecipientEdit).optional(),
});
export type BurnAlertEdits = z.infer<typeof BurnAlertEdits>;

type NumberField = 'exhaustion_minutes' | 'budget_rate_window_minutes' | 'budget_rate_decrease_threshold_per_million';

/** The numbers an alert of this type carries; the others are never sent. */
function numberFieldsOf(alertType: UpdateBurnAlertRequest['alert_type']): readonly NumberField[] {
  return alertType === 'budget_rate'
    ? ['budget_rate_window_minutes', 'budget_rate_decrease_threshold_per_million']
    : ['exhaustion_minutes'];
}

/** The members of a recipient a write carries (unknown members are not writable and are left out). */
export function writableRecipient(r: Recipient | RecipientEdit): RecipientWrite {
  const out: RecipientWrite = {};
  if (r.id !== undefined) out.id = r.id;
  if (r.type !== undefined) out.type = r.type;
  if (r.target !== undefined) out.target = r.target;
  if (r.details !== undefined) out.details = r.details;
  return out;
}

/**
 * The PUT body: every writable member of the alert as loaded, with the user's edits on top. The
 * type-specific numbers follow the resulting alert_type, so `exhaustion_minutes` is never sent for a
 * `budget_rate` alert and the budget_rate members never for an `exhaustion_time` one.
 */
export function buildBurnAlertUpdate(loaded: BurnAlert, edits: BurnAlertEdits): UpdateBurnAlertRequest {
  const alertType = edits.alert_type ?? loaded.alert_type;
  const body: UpdateBurnAlertRequest = {
    alert_type: alertType,
    recipients: (edits.recipients ?? loaded.recipients ?? []).map(writableRecipient),
  };
  const numberValue = (field: NumberField): number | undefined => {
    const edited = edits[field];
    if (edited === null) return undefined;
    return edited ?? loaded[field];
  };
  for (const field of numberFieldsOf(alertType)) {
    const value = numberValue(field);
    if (value !== undefined) body[field] = value;
  }
  const description = edits.description ?? loaded.description;
  if (description !== undefined) body.description = description;
  return body;
}

/**
 * The PUT body the edits would make, for a person to review: recipients that are not known (the alert came
 * from the list, and the user has not chosen any) are shown as unknown, never as an empty list.
 */
export function burnAlertForReview(alert: BurnAlert, edits: BurnAlertEdits): Record<string, unknown> {
  const body = buildBurnAlertUpdate(alert, edits);
  return edits.recipients === undefined && alert.recipients === undefined
    ? { ...body, recipients: BURN_ALERT_TEXT.unknownRecipients }
    : body;
}

/** Members a PUT carries (spec 4.4) and the ones the service sets: every other member of an alert is one the form cannot send. */
const FORM_MEMBERS = new Set([
  'alert_type',
  'exhaustion_minutes',
  'budget_rate_window_minutes',
  'budget_rate_decrease_threshold_per_million',
  'description',
  'recipients',
  'id',
  'slo',
  'triggered',
  'created_at',
  'updated_at',
]);

/** Members of the alert the PUT body cannot carry (e.g. auto_investigate), as `name = value` text. */
export function unsendableMembers(alert: BurnAlert): string[] {
  return Object.entries(alert)
    .filter(([member, value]) => !FORM_MEMBERS.has(member) && value !== undefined)
    .map(([member, value]) => `${member} = ${JSON.stringify(value)}`);
}

function recipientText(r: RecipientWrite): string {
  return r.id ?? `${r.type ?? '?'}:${r.target ?? '?'}`;
}

/**
 * The user's unsaved edits as one sentence (`description = "…"`, `exhaustion_minutes = 30`,
 * `recipients: rcp_x, email:ops@example.com`), or undefined when there are none: shown when a form
 * restored after a window reload cannot reach its connection. Compares the PUT body the edits make
 * with the one the alert as loaded makes, so only what would be sent counts; `drafts` (number text
 * that is not a number) and `recipientId` (an ID typed and not added) are shown as typed. `loaded` is
 * undefined when the form never read the alert.
 */
export function describeUnsavedBurnAlert(
  loaded: BurnAlert | undefined,
  edits: BurnAlertEdits,
  drafts: Readonly<Record<string, string>> = {},
  recipientId = '',
): string | undefined {
  const before = loaded === undefined ? undefined : buildBurnAlertUpdate(loaded, {});
  const after = buildBurnAlertUpdate(
    loaded ?? { id: 'unknown', alert_type: edits.alert_type ?? 'exhaustion_time' },
    edits,
  );
  const changes: string[] = [];
  if (edits.alert_type !== undefined && after.alert_type !== before?.alert_type)
    changes.push(`alert_type = ${after.alert_type}`);
  for (const field of numberFieldsOf(after.alert_type)) {
    const draft = drafts[field];
    const value = after[field];
    if (draft !== undefined) changes.push(COMMON_TEXT.notANumber(field, JSON.stringify(draft)));
    else if (value === undefined && before?.[field] !== undefined) changes.push(COMMON_TEXT.memberCleared(field));
    else if (value !== undefined && value !== before?.[field]) changes.push(`${field} = ${value}`);
  }
  if (edits.description !== undefined && after.description !== before?.description) {
    changes.push(`description = ${JSON.stringify(after.description ?? '')}`);
  }
  if (edits.recipients !== undefined && JSON.stringify(after.recipients) !== JSON.stringify(before?.recipients)) {
    changes.push(
      `recipients: ${after.recipients.length === 0 ? COMMON_TEXT.noneLeft : after.recipients.map(recipientText).join(', ')}`,
    );
  }
  if (recipientId.trim() !== '') changes.push(BURN_ALERT_TEXT.recipients.idTyped(JSON.stringify(recipientId)));
  return changes.length === 0 ? undefined : COMMON_TEXT.unsavedChanges(changes);
}

export const resolveBurnAlertField = tableResolver({
  alert_type: 'alert_type',
  exhaustion_minutes: 'exhaustion_minutes',
  budget_rate_window_minutes: 'budget_rate_window_minutes',
  budget_rate_decrease_threshold_per_million: 'budget_rate_decrease_threshold_per_million',
  description: 'description',
  recipients: 'recipients',
});

/** How the form words its problems, for an alert of `alertType`. */
function burnAlertWording(alertType: BurnAlert['alert_type']): FormWording {
  const { labels, rules, alertTypes } = BURN_ALERT_TEXT;
  return {
    labels,
    special(issue: Issue, field: string) {
      const label = (labels as Record<string, string>)[field] ?? field;
      if (field === 'recipients') {
        if (issue.code === 'too_small' && issue.origin === 'array') return rules.noRecipients;
        // Anything about one recipient: it needs an id, or a type and a target.
        if (issue.path.length > 1) return rules.recipientNamed;
      }
      const rule = issue.code === 'custom' ? (issue.params as { rule?: unknown } | undefined)?.rule : undefined;
      if (rule === 'required') return rules.requiredForType(label, alertTypes[alertType]);
      if (rule === 'not-allowed') return rules.notForType(label, alertTypes[alertType]);
      return undefined;
    },
  };
}

export function checkBurnAlertUpdate(loaded: BurnAlert, edits: BurnAlertEdits): Checked<UpdateBurnAlertRequest> {
  const body = buildBurnAlertUpdate(loaded, edits);
  const parsed = UpdateBurnAlertRequest.safeParse(body);
  return parsed.success
    ? { ok: true, body: parsed.data }
    : { ok: false, reason: problemsFromZod(parsed.error, resolveBurnAlertField, burnAlertWording(body.alert_type)) };
}

export function burnAlertProblems(loaded: BurnAlert, edits: BurnAlertEdits): FormProblems {
  const checked = checkBurnAlertUpdate(loaded, edits);
  return checked.ok ? noProblems() : checked.reason;
}

/**
 * True when the alert on the service is the version the form was opened on: same `updated_at`, or,
 * when the service gives none, the same writable content.
 */
export function isSameVersion(loaded: BurnAlert, current: BurnAlert): boolean {
  if (loaded.updated_at !== undefined || current.updated_at !== undefined)
    return loaded.updated_at === current.updated_at;
  return JSON.stringify(buildBurnAlertUpdate(loaded, {})) === JSON.stringify(buildBurnAlertUpdate(current, {}));
}

/** A recipient the user can pick (sent by id): one of the team's, or an id the environment already uses. */
export interface RecipientOption {
  id: string;
  label: string;
}

/** Recipients with an id, once each, from any number of burn alert and trigger recipient lists. */
export function recipientOptions(lists: Iterable<readonly Recipient[] | undefined>): RecipientOption[] {
  const byId = new Map<string, RecipientOption>();
  for (const list of lists) {
    for (const r of list ?? []) {
      if (r.id === undefined || r.id === '' || byId.has(r.id)) continue;
      const what = [r.type, r.target].filter((s): s is string => s !== undefined && s !== '').join(': ');
      byId.set(r.id, { id: r.id, label: what === '' ? r.id : `${what} (${r.id})` });
    }
  }
  return [...byId.values()].sort((a, b) => a.label.localeCompare(b.label));
}

/** Parses a burn alert that came back from the service or out of persisted webview state. */
export function parseBurnAlert(value: unknown): BurnAlert | undefined {
  const parsed = BurnAlert.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
