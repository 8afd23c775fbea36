// The rules of a burn alert file (docs/rules.md, burn-alert/*): spec 2.2, 4.4, errors 1 to 4 of part 7 and
// the limits of part 8, with the budget_rate bounds the service is seen to enforce (service facts).
import * as l10n from '@vscode/l10n';
import { BURN_ALERT_LIMITS, BURN_ALERT_TYPES } from '../api/schemas/burnAlert';
import { BURN_ALERT_FILE_MEMBERS } from '../api/schemas/burnAlertFile';
import type { SloFinding } from './sloKinds';
import { unnamedRecipientMessage } from './recipientNaming';
import type { JsonPath, LintOptions } from './types';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isWhole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** The members a burn alert file holds (src/triggerFiles/burnAlertFile.ts writes them). */
const MEMBERS: ReadonlySet<string> = new Set(BURN_ALERT_FILE_MEMBERS);
/** Members the service sets and ignores in an update (spec 2.2, service facts). */
const READ_ONLY = new Set(['triggered', 'created_at', 'updated_at']);

const remove = (member: string) => ({ title: l10n.t('Remove {0}', member), value: undefined });

function membersFindings(alert: Json, out: SloFinding[]): void {
  for (const key of Object.keys(alert)) {
    if (MEMBERS.has(key)) continue;
    if (READ_ONLY.has(key))
      out.push({
        rule: 'burn-alert/read-only-member',
        path: [key],
        message: l10n.t('{0} is set by the service and never written: the file leaves it out', key),
        fix: remove(key),
      });
    else
      out.push({
        rule: 'burn-alert/unknown-member',
        path: [key],
        message: l10n.t('{0} is not a member of a burn alert file; it is not written', key),
      });
  }
}

function linkFindings(alert: Json, out: SloFinding[]): void {
  if (!nonEmpty(alert.id))
    out.push({
      rule: 'burn-alert/id',
      path: ['id'],
      message: l10n.t(
        'id is required, the id of the burn alert on the service: a file can only update an alert that exists',
      ),
    });
  if (!nonEmpty(alert.dataset_slug))
    out.push({
      rule: 'burn-alert/dataset-slug',
      path: ['dataset_slug'],
      message: l10n.t(
        "dataset_slug is required: the dataset of the alert's SLO, or __all__ for an environment-wide SLO",
      ),
    });
  const slo = alert.slo;
  if (!isRecord(slo) || !nonEmpty(slo.id) || (slo.name !== undefined && typeof slo.name !== 'string'))
    out.push({
      rule: 'burn-alert/slo',
      path: ['slo'],
      message: l10n.t("slo is required: an object with the SLO's id and, for people, its name"),
    });
}

/** A member that only the other alert type takes: removed. */
function notAllowed(member: string, type: string): SloFinding['message'] {
  return l10n.t('{0} must not be given when alert_type is {1}', member, type);
}

function required(member: string, type: string): SloFinding['message'] {
  return l10n.t('{0} is required when alert_type is {1}', member, type);
}

/** One type-specific member: present only for its type, a whole number within its bounds. */
function typedMember(
  alert: Json,
  o: { member: string; rule: SloFinding['rule']; forType: string; min: number; max?: number },
  out: SloFinding[],
): void {
  const type = alert.alert_type ?? 'exhaustion_time';
  const v = alert[o.member];
  const path: JsonPath = [o.member];
  if (type !== o.forType) {
    if (v !== undefined && typeof type === 'string' && (BURN_ALERT_TYPES as readonly string[]).includes(type))
      out.push({ rule: o.rule, path, message: notAllowed(o.member, type), fix: remove(o.member) });
    return;
  }
  if (v === undefined) return void out.push({ rule: o.rule, path, message: required(o.member, o.forType) });
  const bounds =
    o.max === undefined
      ? l10n.t('a whole number of at least {0}', o.min)
      : l10n.t('a whole number from {0} to {1}', o.min, o.max);
  if (!isWhole(v) || v < o.min || (o.max !== undefined && v > o.max))
    out.push({ rule: o.rule, path, message: l10n.t('{0} is {1}; expected {2}', o.member, JSON.stringify(v), bounds) });
}

function typeFindings(alert: Json, out: SloFinding[]): void {
  const type = alert.alert_type;
  if (typeof type !== 'string' || !(BURN_ALERT_TYPES as readonly string[]).includes(type))
    out.push({
      rule: 'burn-alert/alert-type',
      path: ['alert_type'],
      message: l10n.t('alert_type is required, one of {0} or {1}', BURN_ALERT_TYPES[0], BURN_ALERT_TYPES[1]),
    });
  const L = BURN_ALERT_LIMITS;
  typedMember(
    alert,
    {
      member: 'exhaustion_minutes',
      rule: 'burn-alert/exhaustion-minutes',
      forType: 'exhaustion_time',
      min: L.exhaustionMinutesMin,
    },
    out,
  );
  typedMember(
    alert,
    {
      member: 'budget_rate_window_minutes',
      rule: 'burn-alert/budget-rate-window',
      forType: 'budget_rate',
      min: L.budgetRateWindowMinutesMin,
    },
    out,
  );
  typedMember(
    alert,
    {
      member: 'budget_rate_decrease_threshold_per_million',
      rule: 'burn-alert/budget-rate-threshold',
      forType: 'budget_rate',
      min: L.budgetRateThresholdMin,
      max: L.budgetRateThresholdMax,
    },
    out,
  );
}

function recipientFindings(alert: Json, out: SloFinding[]): void {
  const list = alert.recipients;
  if (!Array.isArray(list) || list.length < BURN_ALERT_LIMITS.recipientsMin)
    return void out.push({
      rule: 'burn-alert/recipients',
      path: ['recipients'],
      message: l10n.t(
        'recipients is required and holds at least one recipient: the service refuses an alert with none',
      ),
    });
  list.forEach((r: unknown, i) => {
    const named = isRecord(r) && (nonEmpty(r.id) || (nonEmpty(r.type) && nonEmpty(r.target)));
    if (!named)
      out.push({
        rule: 'burn-alert/recipient',
        path: ['recipients', i],
        message:
          unnamedRecipientMessage(r) ??
          l10n.t('a recipient is an object naming the recipient by its id (or by type and target)'),
      });
  });
}

/** What the rules find in a burn alert file's value. */
export function burnAlertFindings(value: unknown, _options: LintOptions): SloFinding[] {
  if (!isRecord(value))
    return [{ rule: 'burn-alert/file', path: [], message: l10n.t('a burn alert file holds one burn alert object') }];
  const out: SloFinding[] = [];
  membersFindings(value, out);
  linkFindings(value, out);
  typeFindings(value, out);
  const description = value.description;
  if (
    description !== undefined &&
    (typeof description !== 'string' || description.length > BURN_ALERT_LIMITS.descriptionMax)
  )
    out.push({
      rule: 'burn-alert/description',
      path: ['description'],
      message: l10n.t('description is a string of at most {0} characters', BURN_ALERT_LIMITS.descriptionMax),
    });
  recipientFindings(value, out);
  return out;
}
