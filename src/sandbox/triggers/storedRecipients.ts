// A trigger's recipients as the service stores them (service facts): one sent by type and target gets an
// id (the recipient of that type and target, else a new one), one sent by id is filled in from it, a
// PagerDuty one then with `target: ""`, and a PagerDuty one without a severity gets "critical"; each where
// its rewrite is on (rewrites.ts).
import { inServiceOrder, type TriggerRewrites } from './rewrites';
import { takeId, type SandboxData, type StoredRecipient } from '../state';

/** The types `GET /1/recipients` lists, and the detail that names a recipient of each (its target on a trigger). */
const LISTED: Readonly<Record<string, string>> = {
  email: 'email_address',
  slack: 'slack_channel',
  pagerduty: 'pagerduty_integration_name',
  webhook: 'webhook_name',
  msteams: 'webhook_name',
  msteams_workflow: 'webhook_name',
};

const PAGING = 'pagerduty';

/** The id of the team's recipient of this type and target; a new one when there is none. */
function recipientIdFor(state: SandboxData, type: string, target: string, now: string): string {
  const known = state.recipients.find((k) => k.type === type && k.target === target);
  if (known !== undefined) return known.id;
  const id = takeId(state, 'rcp_');
  const detail = LISTED[type];
  // A marker (and any kind the list does not show) gets an id but no place in the list (service facts).
  if (detail !== undefined)
    state.recipients.push({ id, type, target, settings: { [detail]: target }, created_at: now, updated_at: now });
  return id;
}

/**
 * The recipients of a checked write (resolved: those sent by id carry it, the others do not) as stored.
 * May add a recipient to the team's list, so it runs only for a write that is made.
 */
export function storedRecipients(
  state: SandboxData,
  resolved: readonly StoredRecipient[],
  r: Readonly<TriggerRewrites>,
  now: string,
): StoredRecipient[] {
  const out = resolved.map((sent) => {
    const stored: StoredRecipient = { ...sent };
    if (r.recipientIds && stored.id !== undefined && stored.type === PAGING) stored.target = '';
    if (r.recipientIds && stored.id === undefined && stored.type !== undefined && stored.target !== undefined) {
      stored.id = recipientIdFor(state, stored.type, stored.target, now);
    }
    if (r.pagerdutySeverity && stored.type === PAGING && stored.details?.pagerduty_severity === undefined) {
      stored.details = { ...stored.details, pagerduty_severity: 'critical' };
    }
    return stored;
  });
  return r.reorderLists ? inServiceOrder(out) : out;
}

/** The recipients the triggers hold by id: an id the service holds on a trigger is one it knows, listed or not. */
export function heldRecipients(state: SandboxData): StoredRecipient[] {
  return state.triggers.flatMap((t) => (t.recipients ?? []).filter((rc) => rc.id !== undefined));
}
