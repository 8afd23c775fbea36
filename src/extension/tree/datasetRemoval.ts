// What "Remove Dataset" does, decided without vscode. Removing takes away the user's "added" mark; the
// remembered SLO ids of a dataset are forgotten only when the dataset leaves the tree with it (neither
// added nor discovered any more), and then only after a confirmation that names them. No vscode import.
import { safeLabel } from '../core/text';

export interface DatasetRemovalInput {
  slug: string;
  /** Added by hand (remembered). */
  added: boolean;
  /** Discovered from environment-wide triggers on the last load. */
  discovered: boolean;
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

export const REMOVE_ACTION = 'Remove and Forget SLOs';

export function planDatasetRemoval(input: DatasetRemovalInput): DatasetRemovalPlan {
  const { added, discovered } = input;
  const slug = safeLabel(input.slug);
  const sloIds = [...input.sloIds];
  const slos = sloCount(sloIds.length);
  if (!added) {
    return {
      kind: 'not-added',
      message: discovered
        ? `${slug} was not added by hand: it is discovered from environment-wide triggers. Hide it instead?`
        : `${slug} was not added by hand; nothing to remove.`,
    };
  }
  if (discovered) {
    const kept = sloIds.length > 0 ? ` Its ${slos} stay remembered.` : '';
    return {
      kind: 'unmark',
      message: `${slug} is also discovered from environment-wide triggers, so it stays in the tree.${kept} Hide it instead?`,
    };
  }
  if (sloIds.length === 0) return { kind: 'forget', sloIds };
  const named = sloIds.slice(0, NAMED_SLOS).map((id) => safeLabel(id, 40)).join(', ');
  const more = sloIds.length > NAMED_SLOS ? ` and ${sloIds.length - NAMED_SLOS} more` : '';
  return {
    kind: 'forget',
    sloIds,
    confirm: {
      message: `Remove ${slug}? It is not discovered from environment-wide triggers, so it leaves the tree and its ${slos} (${named}${more}) will be forgotten. The SLOs themselves stay on the service.`,
      action: REMOVE_ACTION,
    },
  };
}

function sloCount(n: number): string {
  return `${n} remembered SLO id${n === 1 ? '' : 's'}`;
}
