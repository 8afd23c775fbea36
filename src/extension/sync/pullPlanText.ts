// The editor's pull as plain data: the question asked about a file that differs locally, and the report at
// the end (what a command on a tree item pulls is pullScope.ts). No vscode import.
import * as l10n from '@vscode/l10n';
import { differingMembers, type PullAction, type PullReport } from '../../triggerFiles';

export type UpdateAnswer = 'Overwrite' | 'Skip' | 'Overwrite All' | 'Skip All';

type Update = Extract<PullAction, { kind: 'update' }>;

/** The modal question for one file that differs from the service. */
export function updateQuestion(update: Update, left: number): { message: string; detail: string } {
  const message =
    left <= 1
      ? l10n.t("{0} differs from the service. Overwrite it with the service's trigger?", update.path)
      : left === 2
        ? l10n.t(
            "{0} differs from the service (1 more differs after this one). Overwrite it with the service's trigger?",
            update.path,
          )
        : l10n.t(
            "{0} differs from the service ({1} more differ after this one). Overwrite it with the service's trigger?",
            update.path,
            left - 1,
          );
  const detail = l10n.t(
    'Your file differs in: {0}. Skipped files are left as they are.',
    differingMembers(update.differences).join(', '),
  );
  if (update.linkTo === undefined) return { message, detail };
  return { message, detail: `${detail}\n${l10n.t('It is a link to {0}: overwriting it writes {0}.', update.linkTo)}` };
}

/**
 * Asks about each file in turn until the user answers for all: the set of paths to overwrite. Closing
 * the question (Escape) skips that file and every one after it: nothing is overwritten without a yes.
 */
export async function approveUpdates<U extends { path: string }>(
  updates: readonly U[],
  ask: (u: U, left: number) => Promise<UpdateAnswer | undefined>,
): Promise<Set<string>> {
  const approved = new Set<string>();
  for (let i = 0; i < updates.length; i++) {
    const u = updates[i];
    if (u === undefined) continue;
    const answer = await ask(u, updates.length - i);
    if (answer === 'Overwrite') approved.add(u.path);
    else if (answer === 'Overwrite All') {
      for (const rest of updates.slice(i)) approved.add(rest.path);
      break;
    } else if (answer === 'Skip All' || answer === undefined) break;
  }
  return approved;
}

/** "8 written (2 new), 3 unchanged, 1 skipped": the CLI's pullSummary, in the user's language. */
export function pullCounts(r: PullReport): string {
  const written = r.created.length + r.updated.length;
  const parts = [
    r.created.length > 0 && r.updated.length > 0
      ? l10n.t('{0} written ({1} new)', written, r.created.length)
      : l10n.t('{0} written', written),
    l10n.t('{0} unchanged', r.unchanged.length),
    l10n.t('{0} skipped', r.skipped.length),
  ];
  if (r.failed.length > 0) parts.push(l10n.t('{0} failed', r.failed.length));
  if (r.removed.length > 0)
    parts.push(
      r.removed.length === 1
        ? l10n.t('1 stale temporary file removed')
        : l10n.t('{0} stale temporary files removed', r.removed.length),
    );
  return parts.join(', ');
}

/** "Pulled 12 triggers of api from sandbox into triggers: 8 written (2 new), 3 unchanged, 1 skipped." */
export function pullReportText(
  what: string,
  connection: string,
  folder: string,
  r: PullReport,
  listFailures: number,
): string {
  const total = r.created.length + r.updated.length + r.unchanged.length + r.skipped.length + r.failed.length;
  const summary = pullCounts(r);
  const head = r.cancelled
    ? l10n.t('Pull of {0} from {1} into {2} cancelled part way: {3}.', what, connection, folder, summary)
    : total === 1
      ? l10n.t('Pulled 1 trigger of {0} from {1} into {2}: {3}.', what, connection, folder, summary)
      : l10n.t('Pulled {0} triggers of {1} from {2} into {3}: {4}.', total, what, connection, folder, summary);
  if (listFailures === 0) return head;
  const failures =
    listFailures === 1
      ? l10n.t('The triggers of 1 dataset could not be read (see the logs).')
      : l10n.t('The triggers of {0} datasets could not be read (see the logs).', listFailures);
  return `${head} ${failures}`;
}
