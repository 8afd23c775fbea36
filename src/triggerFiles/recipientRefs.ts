// Recipients named by what they are rather than by id (docs/ENVIRONMENTS.md): `{ "type", "target" }`, resolved
// to the id of the team's recipient of that type and target when a plan is made, so that one file names the
// same recipient in every environment. The target is what the team's list calls the recipient, never a
// credential: an address, a channel, an integration's or a webhook's name. No vscode import.
import type { AccountRecipient } from '../api/schemas/account';
import type { Outcome } from '../result';
import type { LocalFile } from './localFiles';

/** The one read the resolution makes (the client's ServiceClient satisfies it). */
export interface RecipientLister {
  listRecipients(o?: { signal?: AbortSignal }): Promise<{ data: AccountRecipient[] }>;
}

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
  /** Each listed recipient's type, and its target where the list tells one. */
  private readonly byId = new Map<string, { type?: string; target?: string }>();

  constructor(list: readonly AccountRecipient[]) {
    for (const r of list) {
      const target = referenceTarget(r);
      this.byId.set(r.id, {
        ...(r.type === undefined ? {} : { type: r.type }),
        ...(target === undefined ? {} : { target }),
      });
      if (r.type === undefined || target === undefined) continue;
      push(this.byReference, key(r.type, target), r.id);
      push(this.byType, r.type, target);
    }
  }

  /**
   * The reference that names the recipient of this id (resolving back to it alone), or why it has none: pull
   * then keeps the id.
   */
  referenceTo(id: string): Outcome<{ reference: RecipientReference }> {
    const r = this.byId.get(id);
    if (r === undefined) return { ok: false, reason: "it is not in the team's list of recipients" };
    if (r.type === undefined || r.target === undefined)
      return { ok: false, reason: `the team's list gives this ${r.type ?? 'untyped'} recipient no target` };
    const reference = { type: r.type, target: r.target };
    // Built from this id's own entry, it resolves to this id unless another recipient shares it (refused).
    const back = this.resolve(reference);
    return back.ok ? { ok: true, reference } : { ok: false, reason: back.reason };
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

/** A reference that names no one recipient of the team, and why. */
export interface Refusal extends RecipientReference {
  reason: string;
}

/** A file's recipients with each reference given its id, or why one could not be. */
export interface RecipientsResolved {
  /** The list with each reference resolved (its id added); as the file has it otherwise. */
  recipients: unknown;
  references: ResolvedReference[];
  /** The references the team does not answer with one recipient, or that could not be resolved (no list). */
  refusals: Refusal[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The types the team's list holds (service facts): only these are resolved. Another type, such as a marker,
 * which triggers hold but the list never does, is written as the file names it, as the service takes it.
 */
const LISTED_TYPES: ReadonlySet<string> = new Set([
  'email',
  'slack',
  'pagerduty',
  'webhook',
  'msteams',
  'msteams_workflow',
]);

/** A recipient of a listed type named by type and target without an id; undefined for any other. */
function referenceOf(r: unknown): RecipientReference | undefined {
  if (!isRecord(r) || (typeof r.id === 'string' && r.id !== '')) return undefined;
  return typeof r.type === 'string' && LISTED_TYPES.has(r.type) && typeof r.target === 'string' && r.target !== ''
    ? { type: r.type, target: r.target }
    : undefined;
}

/** Whether a recipients list holds a reference (a recipient named by type and target alone). */
export const holdsReference = (recipients: unknown): boolean =>
  Array.isArray(recipients) && recipients.some((r) => referenceOf(r) !== undefined);

const unlisted = (ref: RecipientReference): string =>
  `${ref.type} recipient ${JSON.stringify(ref.target)} could not be resolved: ` +
  "the team's recipients could not be listed";

/** The references of a recipients list resolved against the team; `team` undefined: its list was not read. */
export function resolveRecipients(recipients: unknown, team: TeamRecipients | undefined): RecipientsResolved {
  const out: RecipientsResolved = { recipients, references: [], refusals: [] };
  if (!Array.isArray(recipients) || !holdsReference(recipients)) return out;
  out.recipients = recipients.map((r: unknown) => {
    const ref = referenceOf(r);
    if (ref === undefined || !isRecord(r)) return r;
    const found: Outcome<{ id: string }> =
      team === undefined ? { ok: false, reason: unlisted(ref) } : team.resolve(ref);
    if (!found.ok) {
      out.refusals.push({ ...ref, reason: found.reason });
      return r;
    }
    out.references.push({ ...ref, id: found.id });
    return { ...r, id: found.id };
  });
  return out;
}

/**
 * The refusals that stand against what the service's object holds: a reference it holds itself, as it is
 * (`byId`: or by an id of that type and target, which drift pairs), is what the service has, never a reason to
 * refuse or not to compare.
 */
export function refusalsAgainst(refusals: readonly Refusal[], held: unknown, byId: boolean): Refusal[] {
  if (refusals.length === 0 || !Array.isArray(held)) return [...refusals];
  const holds = (f: Refusal) =>
    held.some(
      (r: unknown) =>
        isRecord(r) && r.type === f.type && r.target === f.target && (byId || typeof r.id !== 'string' || r.id === ''),
    );
  return refusals.filter((f) => !holds(f));
}

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

/** Whether any trigger of the read files names a recipient by type and target. */
export const filesHoldReference = (files: Iterable<LocalFile>): boolean =>
  [...files].some((f) => f.ok && f.triggers.some((t) => holdsReference(t.value.recipients)));

/**
 * The team's recipients, for comparing references (drift); why not when the key cannot list them, or the list
 * failed: the references are then not compared, and said so. A cancelled read rejects.
 */
export async function listTeam(
  lister: RecipientLister,
  signal?: AbortSignal,
): Promise<Outcome<{ team: TeamRecipients }>> {
  try {
    const res = await lister.listRecipients(signal === undefined ? {} : { signal });
    return { ok: true, team: new TeamRecipients(res.data) };
  } catch (e) {
    if (signal?.aborted === true) throw e;
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/** Why drift cannot compare a file's recipients: the references that stand refused. */
export const uncomparedReason = (refusals: readonly Refusal[]): string | undefined =>
  refusals.length === 0
    ? undefined
    : `its recipients could not be compared: ${refusals.map((f) => f.reason).join('; ')}`;

/** A recipient pull kept by id, and why it could not be named by type and target. */
export interface KeptById {
  id: string;
  reason: string;
}

/**
 * A recipients list as pull writes it by target: each recipient named by id written by its type and target as the
 * team's list names it (its details kept), or kept by id where it has none (said in `kept`).
 */
export function recipientsByTarget(
  recipients: unknown,
  team: TeamRecipients,
): { recipients: unknown; kept: KeptById[] } {
  if (!Array.isArray(recipients)) return { recipients, kept: [] };
  const kept: KeptById[] = [];
  const out = recipients.map((r: unknown) => {
    if (!isRecord(r) || typeof r.id !== 'string' || r.id === '') return r;
    const found = team.referenceTo(r.id);
    if (!found.ok) {
      kept.push({ id: r.id, reason: found.reason });
      return r;
    }
    const { id: _id, type: _type, target: _target, ...rest } = r;
    return { ...found.reference, ...rest };
  });
  return { recipients: out, kept };
}
