// Recipients named by what they are rather than by id (docs/ENVIRONMENTS.md): `{ "type", "target" }`, resolved
// to the id of the team's recipient of that type and target when a plan is made, so that one file names the
// same recipient in every environment. The target is what the team's list calls the recipient, never a
// credential: an address, a channel, an integration's or a webhook's name. No vscode import.
import type { AccountRecipient } from '../api/schemas/account';
import type { Outcome } from '../result';

/** The team's recipient as the list names it within its type; undefined when the list does not say. */
export function referenceTarget(r: AccountRecipient): string | undefined {
  const d = r.details;
  const target =
    r.type === 'email'
      ? d?.email_address
      : r.type === 'slack'
        ? d?.slack_channel
        : r.type === 'pagerduty'
          ? d?.pagerduty_integration_name
          : r.type === 'webhook' || r.type === 'msteams' || r.type === 'msteams_workflow'
            ? d?.webhook_name
            : undefined;
  return target !== undefined && target.trim() !== '' ? target : undefined;
}

export interface RecipientReference {
  type: string;
  target: string;
}

/** How many of the team's recipients a refusal names before it counts the rest. */
const NAMED = 10;

const key = (type: string, target: string): string => `${type}\u0000${target}`;

function push(map: Map<string, string[]>, k: string, value: string): void {
  const list = map.get(k);
  if (list === undefined) map.set(k, [value]);
  else list.push(value);
}

/** The team's recipients by type and target, built once per plan: each reference is then one lookup. */
export class TeamRecipients {
  private readonly byReference = new Map<string, string[]>();
  private readonly byType = new Map<string, string[]>();

  constructor(list: readonly AccountRecipient[]) {
    for (const r of list) {
      const target = referenceTarget(r);
      if (r.type === undefined || target === undefined) continue;
      push(this.byReference, key(r.type, target), r.id);
      push(this.byType, r.type, target);
    }
  }

  /** The id a reference names in this team, or why there is none (the team's recipients of that type listed). */
  resolve(ref: RecipientReference): Outcome<{ id: string }> {
    const ids = this.byReference.get(key(ref.type, ref.target)) ?? [];
    const [id] = ids;
    if (id !== undefined && ids.length === 1) return { ok: true, id };
    const what = `${ref.type} recipient ${JSON.stringify(ref.target)}`;
    if (ids.length > 1)
      return {
        ok: false,
        reason: `the team has ${ids.length} ${ref.type} recipients ${JSON.stringify(ref.target)} (${ids.join(', ')}): name the one meant by its id`,
      };
    const candidates = [...new Set(this.byType.get(ref.type) ?? [])].sort();
    if (candidates.length === 0) return { ok: false, reason: `the team has no ${what}, and no ${ref.type} recipient` };
    const named = candidates.slice(0, NAMED).map((c) => JSON.stringify(c));
    const rest = candidates.length - named.length;
    const list = rest > 0 ? `${named.join(', ')} and ${rest} more` : named.join(', ');
    return { ok: false, reason: `the team has no ${what}; its ${ref.type} recipients: ${list}` };
  }
}
