// Recipients named by what they are rather than by id (docs/ENVIRONMENTS.md): `{ "type", "target" }`, resolved
// to the id of the team's recipient of that type and target when a plan is made, so that one file names the
// same recipient in every environment. The target is what the team's list calls the recipient, never a
// credential: an address, a channel, an integration's or a webhook's name. No vscode import.
import type { AccountRecipient } from '../api/schemas/account';
import type { Outcome } from '../result';
import type { LocalFile } from './localFiles';

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

/** A reference as a plan shows it: what the file names, and the id it resolved to in this team. */
export interface ResolvedReference extends RecipientReference {
  id: string;
}

/** A file's recipients with each reference given its id, or why one could not be. */
export interface RecipientsResolved {
  /** The list with each reference resolved (its id added); as the file has it otherwise. */
  recipients: unknown;
  references: ResolvedReference[];
  /** Why a reference names no one recipient of the team: the file must not be written so. */
  refusals: string[];
  /** References were held but the team's list was not read: they could not be resolved. */
  unlisted: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A recipient named by type and target without an id; undefined for any other. */
export function referenceOf(r: unknown): RecipientReference | undefined {
  if (!isRecord(r) || (typeof r.id === 'string' && r.id !== '')) return undefined;
  return typeof r.type === 'string' && typeof r.target === 'string' && r.target !== ''
    ? { type: r.type, target: r.target }
    : undefined;
}

/** Whether a recipients list holds a reference (a recipient named by type and target alone). */
export const holdsReference = (recipients: unknown): boolean =>
  Array.isArray(recipients) && recipients.some((r) => referenceOf(r) !== undefined);

/** The references of a recipients list resolved against the team; `team` undefined: its list was not read. */
export function resolveRecipients(recipients: unknown, team: TeamRecipients | undefined): RecipientsResolved {
  const out: RecipientsResolved = { recipients, references: [], refusals: [], unlisted: false };
  if (!Array.isArray(recipients) || !holdsReference(recipients)) return out;
  if (team === undefined) return { ...out, unlisted: true };
  out.recipients = recipients.map((r: unknown) => {
    const ref = referenceOf(r);
    if (ref === undefined || !isRecord(r)) return r;
    const found = team.resolve(ref);
    if (!found.ok) {
      out.refusals.push(found.reason);
      return r;
    }
    out.references.push({ ...ref, id: found.id });
    return { ...r, id: found.id };
  });
  return out;
}

/** Why references could not be resolved when the team's recipients were not listed. */
export const UNLISTED_REFERENCES =
  "its recipients named by type and target could not be resolved: the team's recipients could not be listed";

/**
 * A read file with each trigger's references resolved (their ids added, so the comparison and the write see
 * ids) and what resolving said recorded on the trigger. A trigger holding no reference is left as it is.
 */
export function withReferencesResolved(read: LocalFile, team: TeamRecipients | undefined): LocalFile {
  if (!read.ok) return read;
  return {
    ok: true,
    triggers: read.triggers.map((t) => {
      if (!holdsReference(t.value.recipients)) return t;
      const { recipients, ...resolution } = resolveRecipients(t.value.recipients, team);
      return { ...t, value: { ...t.value, recipients }, resolution };
    }),
  };
}
