// The editor's pulls naming recipients as the setting obs.pullRecipients asks (docs/TRIGGER-FILES.md): by id,
// or by type and target as the team's list names them, the list read once per pull. A recipient the list gives
// no target keeps its id, logged once; without the list every recipient keeps its id, and the log says why. No
// vscode import.
import {
  keptByIdText,
  listTeam,
  type KeptById,
  type PullRecipients,
  type RecipientLister,
  type TeamRecipients,
} from '../../triggerFiles';

interface Log {
  info(message: string): void;
  warn(message: string): void;
}

/** The pulled items with their recipients named as the setting asks. */
export async function namedAsSet<I>(
  form: PullRecipients,
  client: RecipientLister,
  items: I[],
  byTarget: (items: readonly I[], team: TeamRecipients) => { items: I[]; kept: KeptById[] },
  log: Log,
  signal?: AbortSignal,
): Promise<I[]> {
  if (form !== 'target') return items;
  const team = await listTeam(client, signal);
  if (!team.ok) {
    log.warn(`pull: the team's recipients could not be listed (${team.reason}): the files name recipients by id`);
    return items;
  }
  const r = byTarget(items, team.team);
  for (const k of r.kept) log.info(`pull: ${keptByIdText(k)}`);
  return r.items;
}
