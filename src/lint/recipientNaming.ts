// What a recipient that names neither an id nor both a type and a target lacks, said by the member missing: a
// file may name a recipient by type and target alone (the plan resolves it to the team's id), so a type
// without its target is the likely slip, and the message names the target.
import * as l10n from '@vscode/l10n';
import { isRecord } from './util';

const given = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** The message for a recipient without an id that lacks its type or its target; undefined for any other. */
export function unnamedRecipientMessage(r: unknown): string | undefined {
  if (!isRecord(r) || given(r.id)) return undefined;
  if (given(r.type) && !given(r.target))
    return l10n.t(
      'recipient {0} has no {1}: give its {1} (what the team calls it: an address, a channel, a name) or its {2}',
      JSON.stringify(r.type),
      'target',
      'id',
    );
  if (given(r.target) && !given(r.type))
    return l10n.t(
      'recipient {0} has no {1}: give its {1} (email, slack, pagerduty...) or its {2}',
      JSON.stringify(r.target),
      'type',
      'id',
    );
  return undefined;
}
