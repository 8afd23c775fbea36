import type { RecipientBody } from './requests';
import type { TypeDetail } from './responses';
import type { SandboxData, StoredRecipient } from './state';

// Recipients as alerts and triggers hold them (spec 2.3): one named by id must name a recipient of the
// recipients interface, and is stored completed from it; one given by type and target (deprecated) is
// stored as given.

export type ResolvedRecipients = { ok: true; recipients: StoredRecipient[] } | { ok: false; problems: TypeDetail[] };

export function resolveRecipients(state: SandboxData, recipients: readonly RecipientBody[]): ResolvedRecipients {
  const problems: TypeDetail[] = [];
  const out: StoredRecipient[] = [];
  recipients.forEach((r, i) => {
    if (r.id === undefined) {
      out.push({ ...(r.type !== undefined ? { type: r.type } : {}), ...(r.target !== undefined ? { target: r.target } : {}), ...(r.details ? { details: r.details } : {}) });
      return;
    }
    const known = state.recipients.find((k) => k.id === r.id);
    if (!known) {
      problems.push({ field: `recipients[${i}].id`, code: 'invalid', description: `no recipient with id "${r.id}"` });
      return;
    }
    const details = r.details ?? known.details;
    out.push({ id: known.id, type: known.type, target: known.target, ...(details ? { details } : {}) });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, recipients: out };
}
