import type { RecipientBody } from './requests';
import type { TypeDetail } from './responses';
import type { SandboxData, StoredRecipient } from './state';
import type { Outcome } from '../result';

// Recipients as alerts and triggers hold them (spec 2.3): one named by id must name a recipient of the
// recipients interface (or one `held` already, which the list may leave out), and is stored completed from
// it; one given by type and target (deprecated) is stored as given.

export type ResolvedRecipients = Outcome<{ recipients: StoredRecipient[] }, TypeDetail[]>;

export function resolveRecipients(
  state: SandboxData,
  recipients: readonly RecipientBody[],
  held: readonly StoredRecipient[] = [],
): ResolvedRecipients {
  const problems: TypeDetail[] = [];
  const out: StoredRecipient[] = [];
  recipients.forEach((r, i) => {
    if (r.id === undefined) {
      out.push({
        ...(r.type !== undefined ? { type: r.type } : {}),
        ...(r.target !== undefined ? { target: r.target } : {}),
        ...(r.details ? { details: r.details } : {}),
      });
      return;
    }
    const listed = state.recipients.find((k) => k.id === r.id);
    // A held recipient's details are the trigger's that holds it, not the recipient's.
    const known = listed ?? held.find((k) => k.id === r.id);
    if (!known) {
      problems.push({ field: `recipients[${i}].id`, code: 'invalid', description: `no recipient with id "${r.id}"` });
      return;
    }
    const details = r.details ?? listed?.details;
    out.push({
      id: r.id,
      ...(known.type !== undefined ? { type: known.type } : {}),
      ...(known.target !== undefined ? { target: known.target } : {}),
      ...(details ? { details } : {}),
    });
  });
  return problems.length > 0 ? { ok: false, reason: problems } : { ok: true, recipients: out };
}
