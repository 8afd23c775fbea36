// The recipient ids a trigger names, checked against the account's recipients as the service lists them
// (given in LintOptions.recipients). Without that list nothing is checked: an id is never reported from a
// guess. The nearest id (or the id of the recipient whose address or name was written instead) is suggested,
// with the same bounded searches as unknown columns, so the work stays linear in the file.
import * as l10n from '@vscode/l10n';
import { nearestName } from './nearest';
import type { Finding, UnknownMembers } from './issues';
import type { JsonPath, KnownRecipient } from './types';
import { isRecord } from './util';
import type { LintRun } from './run';

interface Known {
  byId: Map<string, KnownRecipient>;
  list: readonly KnownRecipient[];
  nearest: Map<string, KnownRecipient | undefined>;
}

// Options cross a thread boundary as copies: the set is built once per options object.
const prepared = new WeakMap<readonly KnownRecipient[], Known>();

function known(recipients: readonly KnownRecipient[]): Known {
  let k = prepared.get(recipients);
  if (k === undefined) {
    k = { byId: new Map(recipients.map((r) => [r.id, r])), list: recipients, nearest: new Map() };
    prepared.set(recipients, k);
  }
  return k;
}

/** The recipient meant by a value that is no id: one whose address or name it is, else the nearest id. */
function nearestRecipient(value: string, k: Known, run: LintRun): KnownRecipient | undefined {
  if (k.nearest.has(value)) return k.nearest.get(value);
  if (run.searchesLeft <= 0) return undefined;
  run.searchesLeft--;
  const lower = value.toLowerCase();
  let best = k.list.find((r) => r.shortName !== undefined && r.shortName.toLowerCase() === lower);
  if (best === undefined) {
    const id = nearestName(value, k.byId.keys());
    best = id === undefined ? undefined : k.byId.get(id);
  }
  k.nearest.set(value, best);
  return best;
}

const shown = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);

function unknownRecipientMessage(id: string, count: number, nearest: KnownRecipient | undefined): string {
  if (nearest === undefined)
    return l10n.t('{0} is not the id of any of the {1} recipients the service lists', shown(id), count);
  return nearest.name === undefined
    ? l10n.t('{0} is not the id of a recipient the service lists; did you mean {1}?', shown(id), shown(nearest.id))
    : l10n.t(
        '{0} is not the id of a recipient the service lists; did you mean {1} ({2})?',
        shown(id),
        shown(nearest.id),
        nearest.name,
      );
}

/** The findings of the recipient ids a trigger names that the account's list does not hold; `run` is the lint's. */
export function recipientFindings(
  trigger: Record<string, unknown>,
  prefix: JsonPath,
  recipients: readonly KnownRecipient[],
  run: LintRun,
): Finding[] {
  const list = trigger.recipients;
  if (!Array.isArray(list)) return [];
  const k = known(recipients);
  const out: Finding[] = [];
  list.forEach((r, i) => {
    // An empty or missing id is trigger/recipient's to report.
    if (!isRecord(r) || typeof r.id !== 'string' || r.id === '' || k.byId.has(r.id)) return;
    const nearest = nearestRecipient(r.id, k, run);
    out.push({
      rule: 'trigger/unknown-recipient',
      at: [...prefix, 'recipients', i, 'id'],
      inTrigger: 3,
      message: unknownRecipientMessage(r.id, k.list.length, nearest),
      ...(nearest === undefined
        ? {}
        : { params: { rule: 'trigger/unknown-recipient' as const, replaceText: nearest.id } }),
    });
  });
  return out;
}

/** The listed recipients by type and target (where the list tells a target), built once per list. */
const byTarget = new WeakMap<readonly KnownRecipient[], Map<string, KnownRecipient[]>>();
const targetKey = (type: string, target: string): string => `${type}\u0000${target}`;

function listedByTarget(recipients: readonly KnownRecipient[]): Map<string, KnownRecipient[]> {
  let map = byTarget.get(recipients);
  if (map === undefined) {
    map = new Map();
    for (const r of recipients) {
      if (r.type === undefined || r.target === undefined) continue;
      const key = targetKey(r.type, r.target);
      map.set(key, [...(map.get(key) ?? []), r]);
    }
    byTarget.set(recipients, map);
  }
  return map;
}

/**
 * The recipients a trigger names by type and target (`trigger/recipient-deprecated`, found by the schema),
 * seen against the account's list: the one listed recipient with that type and target is the id the
 * finding's quick fix names it by; several are named in its message, since which one is meant is not known.
 */
export function nameDeprecatedRecipients(
  found: readonly (Finding | UnknownMembers)[],
  trigger: Record<string, unknown>,
  prefix: JsonPath,
  recipients: readonly KnownRecipient[],
): void {
  const list = trigger.recipients;
  if (!Array.isArray(list)) return;
  for (const f of found) {
    if (f.rule !== 'trigger/recipient-deprecated' || 'keys' in f) continue;
    const index = f.at[prefix.length + 1];
    const r: unknown = typeof index === 'number' ? list[index] : undefined;
    if (!isRecord(r) || typeof r.type !== 'string' || typeof r.target !== 'string') continue;
    const listed = listedByTarget(recipients).get(targetKey(r.type, r.target)) ?? [];
    const [only] = listed;
    if (listed.length === 1 && only !== undefined) {
      f.params = { rule: 'trigger/recipient-deprecated', replaceText: only.id };
    } else if (listed.length > 1 && f.message !== '') {
      const ids =
        listed
          .slice(0, 10)
          .map((l) => l.id)
          .join(', ') + (listed.length > 10 ? ', ...' : '');
      f.message = l10n.t(
        '{0}; {1} recipients the service lists have type {2} and target {3} ({4}): name it by the id of the one meant',
        f.message,
        listed.length,
        shown(r.type),
        shown(r.target),
        ids,
      );
    }
  }
}
