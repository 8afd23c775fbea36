// What "Remove Dataset" does, decided without vscode. Removing takes away the user's "added" mark; the
// remembered SLO ids of a dataset are forgotten only when the dataset leaves the tree with it (neither
// added nor discovered any more), and then only after a confirmation that names them. No vscode import.
import { safeLabel } from '../core/text';
import * as l10n from '@vscode/l10n';

export interface DatasetRemovalInput {
  slug: string;
  /** Added by hand (remembered). */
  added: boolean;
  /** Discovered from environment-wide triggers on the last load. */
  discovered: boolean;
  /** Listed by the service on the last load (it stays in the tree whatever the user removes). */
  listed?: boolean;
  /** The remembered SLO ids of the dataset, read at the time of the command. */
  sloIds: readonly string[];
}

export type DatasetRemovalPlan =
  /** Still discovered: only the "added" mark goes; the dataset stays in the tree with its SLOs. */
  | { kind: 'unmark'; message: string }
  /** Leaves the tree: the mark and the SLO ids go. `confirm` is set when SLO ids would be forgotten. */
  | { kind: 'forget'; sloIds: string[]; confirm?: { message: string; action: string } }
  /** Not added by hand: nothing to remove (Hide is the way to take a discovered dataset out of sight). */
  | { kind: 'not-added'; message: string };

/** How many SLO ids a confirmation names before "and N more". */
const NAMED_SLOS = 5;

/** The confirming button (a function: l10n.t must run after the bundle is configured, not at module load). */
export const removeAction = (): string => l10n.t('Remove and Forget SLOs');

export function planDatasetRemoval(input: DatasetRemovalInput): DatasetRemovalPlan {
  const { added, discovered } = input;
  const listed = input.listed === true;
  const slug = safeLabel(input.slug);
  const sloIds = [...input.sloIds];
  const slos = sloCount(sloIds.length);
  if (!added) {
    return {
      kind: 'not-added',
      message: listed
        ? l10n.t('{0} was not added by hand: the service lists it. Hide it instead?', slug)
        : discovered
          ? l10n.t('{0} was not added by hand: it is discovered from environment-wide triggers. Hide it instead?', slug)
          : l10n.t('{0} was not added by hand; nothing to remove.', slug),
    };
  }
  if (discovered || listed) {
    const kept = sloIds.length > 0 ? ` ${l10n.t('Its {0} stay remembered.', slos)}` : '';
    return {
      kind: 'unmark',
      message: listed
        ? l10n.t('{0} is also listed by the service, so it stays in the tree.{1} Hide it instead?', slug, kept)
        : l10n.t(
            '{0} is also discovered from environment-wide triggers, so it stays in the tree.{1} Hide it instead?',
            slug,
            kept,
          ),
    };
  }
  if (sloIds.length === 0) return { kind: 'forget', sloIds };
  const named = sloIds
    .slice(0, NAMED_SLOS)
    .map((id) => safeLabel(id, 40))
    .join(', ');
  const more = sloIds.length > NAMED_SLOS ? ` ${l10n.t('and {0} more', sloIds.length - NAMED_SLOS)}` : '';
  return {
    kind: 'forget',
    sloIds,
    confirm: {
      message: l10n.t(
        'Remove {0}? Neither listed by the service nor discovered from environment-wide triggers, it leaves the tree and its {1} ({2}) will be forgotten. The SLOs themselves stay on the service.',
        slug,
        slos,
        `${named}${more}`,
      ),
      action: removeAction(),
    },
  };
}

function sloCount(n: number): string {
  return n === 1 ? l10n.t('1 remembered SLO id') : l10n.t('{0} remembered SLO ids', n);
}
