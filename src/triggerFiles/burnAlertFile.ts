// The canonical burn alert file (docs/SLO-FILES.md): one alert per file,
// `<folder>/<dataset>/<slo name>.<kind and threshold>.burn-alert.json`, holding what the alert's update (spec
// 4.4) writes, its id, and the SLO it belongs to (id and name, so a person and a later match by name find it).
// No vscode import.
import { BURN_ALERT_FILE_MEMBERS } from '../api/schemas/burnAlertFile';
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from '../api/schemas/slugs';
import { differencesOf, pairedRecipients, type Difference } from './compare';
import { canonicalRecipients } from './normalize';
import { BURN_ALERT_FILE_SUFFIX, sanitizeFileSegment } from './paths';

export { BURN_ALERT_FILE_SUFFIX };

/** The alert type the service takes when none is given (spec 2.2). */
export const DEFAULT_BURN_ALERT_TYPE = 'exhaustion_time';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A burn alert to pull: the alert as the service answers one alert, its SLO, and the dataset it was listed in. */
export interface BurnAlertItem {
  /** As the SLO was listed: a dataset slug, or `__all__` for an environment-wide SLO. */
  dataset: string;
  slo: { id: string; name: string };
  alert: Json & { id: string };
}

/** `__all__` whichever way an environment-wide dataset is written (`all` as triggers say it). */
export function burnAlertDataset(slug: string): string {
  return slug === ENVIRONMENT_WIDE_TRIGGER_SLUG ? ENVIRONMENT_WIDE : slug;
}

function slo(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const out: Json = {};
  if (v.id !== undefined && v.id !== null) out.id = v.id;
  if (v.name !== undefined && v.name !== null) out.name = v.name;
  return out;
}

const MEMBER: Record<(typeof BURN_ALERT_FILE_MEMBERS)[number], (v: unknown, byId: boolean) => unknown> = {
  id: (v) => (v === '' ? undefined : v),
  dataset_slug: (v) => (typeof v === 'string' ? burnAlertDataset(v) : v),
  slo,
  alert_type: (v) => v,
  exhaustion_minutes: (v) => v,
  budget_rate_window_minutes: (v) => v,
  budget_rate_decrease_threshold_per_million: (v) => v,
  // The service answers an alert without a description with "": the file leaves it out.
  description: (v) => (v === '' ? undefined : v),
  recipients: (v, byId) => (Array.isArray(v) ? canonicalRecipients(v, byId) : v),
};

/**
 * The canonical form of a burn alert: the file's members only (read-only members and those the service adds
 * left out), in a fixed order; `alert_type` always given (the service's default when absent); no empty
 * description; recipients sorted, each once, as in trigger files. Idempotent; a value that is not an object is
 * returned as is.
 */
export function normalizeBurnAlert(alert: unknown, o: { keepId?: boolean; recipientsById?: boolean } = {}): unknown {
  if (!isRecord(alert)) return alert;
  const value: Json = { ...alert, alert_type: alert.alert_type ?? DEFAULT_BURN_ALERT_TYPE };
  const out: Json = {};
  for (const key of BURN_ALERT_FILE_MEMBERS) {
    if (key === 'id' && o.keepId === false) continue;
    const v = value[key];
    if (v === null || v === undefined) continue;
    const mapped = MEMBER[key](v, o.recipientsById === true);
    if (mapped !== undefined) out[key] = mapped;
  }
  return out;
}

/** What the file of a pulled alert holds: the alert, with its dataset and its SLO's id and name. */
export function burnAlertFileValue(item: BurnAlertItem): Json {
  return { ...item.alert, dataset_slug: item.dataset, slo: { id: item.slo.id, name: item.slo.name } };
}

/** The text of a canonical burn alert file: two-space JSON and a final newline. */
export function burnAlertFileText(alert: unknown): string {
  return `${JSON.stringify(normalizeBurnAlert(alert), null, 2)}\n`;
}

/**
 * The differences between a local burn alert file and the service's alert, ids aside: both canonical,
 * recipients compared by id as in trigger files (one named by address is the service's of that address).
 * The SLO's name is the file's note for people: it is compared only by the SLO's id.
 */
export function compareBurnAlerts(local: unknown, service: unknown): Difference[] {
  if (!isRecord(local) || !isRecord(service)) return differencesOf(service, local);
  const l: Json = { ...local };
  const s: Json = { ...service };
  [l.recipients, s.recipients] = pairedRecipients(l.recipients, s.recipients);
  const bySloId = (v: Json): Json => (isRecord(v.slo) ? { ...v, slo: { id: v.slo.id } } : v);
  const compared = { keepId: false, recipientsById: true };
  return differencesOf(normalizeBurnAlert(bySloId(s), compared), normalizeBurnAlert(bySloId(l), compared));
}

/** `exhaustion-240min`, `budget-rate-60min-10000ppm`: the alert's kind and threshold in its file name. */
function kindAndThreshold(alert: Json): string {
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : 'unset');
  if ((alert.alert_type ?? DEFAULT_BURN_ALERT_TYPE) === 'budget_rate')
    return `budget-rate-${n(alert.budget_rate_window_minutes)}min-${n(alert.budget_rate_decrease_threshold_per_million)}ppm`;
  return `exhaustion-${n(alert.exhaustion_minutes)}min`;
}

/**
 * `<slo name>.<kind and threshold>.burn-alert.json`; with `suffix` (the alert's id, for a second alert of the
 * same SLO, kind and threshold) `<slo name>.<kind and threshold>-<suffix>.burn-alert.json`.
 */
export function burnAlertFileName(item: BurnAlertItem, suffix?: string): string {
  const slo = sanitizeFileSegment(item.slo.name, item.slo.id, 60);
  const kind = sanitizeFileSegment(kindAndThreshold(item.alert), 'alert', 60);
  const extra = suffix === undefined ? '' : `-${sanitizeFileSegment(suffix, 'id', 40)}`;
  return `${slo}.${kind}${extra}${BURN_ALERT_FILE_SUFFIX}`;
}
