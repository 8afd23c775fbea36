// The editor's pull of burn alerts and definitions as plain data: what each kind's pull reads for a tree
// item, the question asked about a file that differs locally, and the report at the end (the trigger
// pull's are pullPlanText.ts). No vscode import.
import * as l10n from '@vscode/l10n';
import { differingMembers, type Difference, type PullReport } from '../../triggerFiles';
import { pullCounts } from './pullPlanText';
import type { PullScope } from './pullScope';

export type SloKind = 'burn-alerts' | 'definitions';

/**
 * The datasets a kind's pull reads for a scope: burn alerts of a dataset's SLOs, of the environment's
 * (`__all__`), or of both for every dataset; definitions of a dataset, or of every dataset (the environment
 * has none). `listed`: the datasets the Datasets view shows for the connection.
 */
export function sloPullDatasets(kind: SloKind, scope: PullScope, listed: readonly string[]): string[] {
  const environment = kind === 'burn-alerts' ? ['__all__'] : [];
  if (scope.kind === 'dataset') return [scope.slug];
  if (scope.kind === 'environment') return environment;
  return [...environment, ...listed.filter((d) => d !== '__all__')];
}

/** The modal question for one file of the kind that differs from the service. */
export function sloUpdateQuestion(
  kind: SloKind,
  update: { path: string; differences: Difference[]; linkTo?: string },
  left: number,
): { message: string; detail: string } {
  const more = left - 1;
  const message =
    kind === 'burn-alerts'
      ? more <= 0
        ? l10n.t("{0} differs from the service. Overwrite it with the service's burn alert?", update.path)
        : l10n.t(
            "{0} differs from the service (files to ask about after this one: {1}). Overwrite it with the service's burn alert?",
            update.path,
            more,
          )
      : more <= 0
        ? l10n.t("{0} differs from the service. Overwrite it with the service's definitions?", update.path)
        : l10n.t(
            "{0} differs from the service (files to ask about after this one: {1}). Overwrite it with the service's definitions?",
            update.path,
            more,
          );
  const detail = l10n.t(
    'Your file differs in: {0}. Skipped files are left as they are.',
    differingMembers(update.differences).join(', '),
  );
  if (update.linkTo === undefined) return { message, detail };
  return { message, detail: `${detail}\n${l10n.t('It is a link to {0}: overwriting it writes {0}.', update.linkTo)}` };
}

/** "Pulled the burn alerts of api from sandbox into burn-alerts: 2 written, 0 unchanged, 0 skipped." */
export function sloPullReportText(
  kind: SloKind,
  what: string,
  connection: string,
  folder: string,
  r: PullReport,
  readFailures: number,
): string {
  const summary = pullCounts(r);
  const head = r.cancelled
    ? l10n.t('Pull of {0} from {1} into {2} cancelled part way: {3}.', what, connection, folder, summary)
    : kind === 'burn-alerts'
      ? l10n.t('Pulled the burn alerts of {0} from {1} into {2}: {3}.', what, connection, folder, summary)
      : l10n.t('Pulled the definitions of {0} from {1} into {2}: {3}.', what, connection, folder, summary);
  if (readFailures === 0) return head;
  const failures =
    readFailures === 1
      ? l10n.t('1 thing could not be read from the service (see the logs).')
      : l10n.t('{0} things could not be read from the service (see the logs).', readFailures);
  return `${head} ${failures}`;
}
