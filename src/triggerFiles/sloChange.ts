// What a burn alert or definitions change writes and is checked by (docs/SLO-FILES.md): the body of the write,
// the version of the service's object a plan was made from, and what the service holds after a write compared
// with what was sent. Pure: no service call, no vscode import.
import { compareBurnAlerts, DEFAULT_BURN_ALERT_TYPE, normalizeBurnAlert } from './burnAlertFile';
import type { Difference } from './compare';
import { compareDefinitions, normalizeDefinitions } from './definitionsFile';
import { canonicalRecipients } from './normalize';
import { sha256 } from './plan';
import type { ServiceVersion } from './planKinds';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The members each alert type writes besides alert_type, description and recipients (spec 4.4). */
const TYPE_MEMBERS: Record<string, readonly string[]> = {
  exhaustion_time: ['exhaustion_minutes'],
  budget_rate: ['budget_rate_window_minutes', 'budget_rate_decrease_threshold_per_million'],
};

/** What a burn alert was when it was read: its updated_at and the hash of its canonical form (id kept). */
export function burnAlertVersion(alert: Json): ServiceVersion {
  const updatedAt = typeof alert.updated_at === 'string' ? alert.updated_at : undefined;
  return {
    ...(updatedAt === undefined ? {} : { updatedAt }),
    sha256: sha256(JSON.stringify(normalizeBurnAlert(alert))),
  };
}

/** Whether the alert read now is still the one a change was planned from. */
export function burnAlertUnchanged(version: ServiceVersion, now: Json): boolean {
  const current = burnAlertVersion(now);
  return current.sha256 === version.sha256 && current.updatedAt === version.updatedAt;
}

/**
 * The full PUT of a burn alert file, as the burn alert form sends it: alert_type, the members of that type only,
 * description (an empty one when the file has none, so a description removed from the file is cleared) and the
 * recipients by id (a recipient the file names by type and target alone keeps them).
 */
export function burnAlertBody(local: Json): Json {
  const type = typeof local.alert_type === 'string' ? local.alert_type : DEFAULT_BURN_ALERT_TYPE;
  const body: Json = { alert_type: type };
  for (const member of TYPE_MEMBERS[type] ?? []) if (local[member] !== undefined) body[member] = local[member];
  body.description = typeof local.description === 'string' ? local.description : '';
  body.recipients = canonicalRecipients(local.recipients, true) ?? [];
  return body;
}

/** What the service holds otherwise than a burn alert PUT sent (its SLO and dataset are not written). */
export function burnAlertStoredDifferently(body: Json, readBack: Json): Difference[] {
  const { slo: _slo, dataset_slug: _dataset, ...held } = readBack;
  return compareBurnAlerts(body, held);
}

/** `Gateway availability, exhaustion 240 min`: a burn alert as people read it. */
export function burnAlertLabel(sloName: string, alert: Json): string {
  const type = alert.alert_type ?? DEFAULT_BURN_ALERT_TYPE;
  if (type === 'budget_rate')
    return (
      `${sloName}, budget rate ${String(alert.budget_rate_window_minutes)} min ` +
      `${String(alert.budget_rate_decrease_threshold_per_million)} ppm`
    );
  return `${sloName}, exhaustion ${String(alert.exhaustion_minutes)} min`;
}

/** A definitions map in its canonical form: every type of the spec, unset ones null. */
const canonicalMap = (map: unknown): Json => {
  const n = normalizeDefinitions({ definitions: map });
  return isRecord(n) && isRecord(n.definitions) ? n.definitions : {};
};

/** What a dataset's definitions were when they were read: the hash of the canonical map (they have no updated_at). */
export function definitionsVersion(map: Json): ServiceVersion {
  return { sha256: sha256(JSON.stringify(canonicalMap(map))) };
}

/**
 * The PATCH of a definitions file: only the types where the file and the service differ, a column as `{ name }`,
 * a type the file leaves unset (null) that the service has set as `{ name: "" }` (how the service clears one).
 */
export function definitionsBody(local: unknown, serviceMap: Json): Json {
  const file = isRecord(local) ? canonicalMap(local.definitions) : {};
  const service = canonicalMap(serviceMap);
  const body: Json = {};
  for (const [type, value] of Object.entries(file)) {
    if (JSON.stringify(value) === JSON.stringify(service[type])) continue;
    body[type] = isRecord(value) ? { name: value.name } : { name: '' };
  }
  return body;
}

/** The map the service should hold after the PATCH: the map read, with the body's types set or cleared. */
export function definitionsAfter(serviceMap: Json, body: Json): Json {
  const out: Json = { ...canonicalMap(serviceMap) };
  for (const [type, value] of Object.entries(body))
    out[type] = isRecord(value) && value.name !== '' ? { name: value.name } : null;
  return out;
}

/** Where the map the service answered differs from the one expected after a PATCH. */
export function definitionsStoredDifferently(expected: Json, answered: Json): Difference[] {
  return compareDefinitions({ definitions: expected }, { definitions: answered });
}
