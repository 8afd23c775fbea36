// Pull writing recipients by type and target instead of by id (`obs pull --recipients-by target`, the setting
// obs.pullRecipients): the items pulled are rewritten before the files are planned, so the file text and the
// comparison with an existing file both see the form asked for. A recipient the team's list gives no target
// keeps its id, said once per recipient. No vscode import.
import type { BurnAlertItem } from './burnAlertFile';
import type { PullItem } from './listing';
import { recipientsByTarget, type KeptById, type TeamRecipients } from './recipientRefs';

/** How pull names a recipient in the files it writes. */
export type PullRecipients = 'id' | 'target';

interface ByTarget<I> {
  items: I[];
  /** Each recipient kept by id, once, with why. */
  kept: KeptById[];
}

function rewrite<I>(
  items: readonly I[],
  recipientsOf: (item: I) => unknown,
  withRecipients: (item: I, recipients: unknown) => I,
  team: TeamRecipients,
): ByTarget<I> {
  const kept = new Map<string, KeptById>();
  const out = items.map((item) => {
    const before = recipientsOf(item);
    if (!Array.isArray(before)) return item;
    const r = recipientsByTarget(before, team);
    for (const k of r.kept) if (!kept.has(k.id)) kept.set(k.id, k);
    return withRecipients(item, r.recipients);
  });
  return { items: out, kept: [...kept.values()] };
}

/** Pulled triggers with their recipients named by type and target where the team's list allows. */
export const triggersByTarget = (items: readonly PullItem[], team: TeamRecipients): ByTarget<PullItem> =>
  rewrite(
    items,
    (i) => i.trigger.recipients,
    (i, recipients) => ({ ...i, trigger: { ...i.trigger, recipients } }),
    team,
  );

/** Pulled burn alerts with their recipients named by type and target where the team's list allows. */
export const burnAlertsByTarget = (items: readonly BurnAlertItem[], team: TeamRecipients): ByTarget<BurnAlertItem> =>
  rewrite(
    items,
    (i) => i.alert.recipients,
    (i, recipients) => ({ ...i, alert: { ...i.alert, recipients } }),
    team,
  );

/** What pull says of a recipient it kept by id. */
export const keptByIdText = (k: KeptById): string =>
  `recipient ${k.id} is written by id, not by type and target: ${k.reason}`;
