// The burn alert form's recipient picker: the team's recipients (GET /1/recipients) by type and name, then
// any id the environment's alerts and triggers use that the team's list does not hold, as it was shown
// before. The client keeps only what names a recipient (never a key, URL, secret or header), so nothing
// else can reach the page. No vscode import.
import * as l10n from '@vscode/l10n';
import type { AccountRecipient } from '../../api/schemas';
import type { RecipientOption } from '../../webview/protocol/burnAlertForm';
import { recipientName, recipientShortName, recipientTypeText } from '../core/recipients';

const byText = (a: string, b: string): number => a.localeCompare(b);

/** The team's recipients sorted by type, then name; two of the same type and name are told apart by id. */
export function namedRecipientOptions(
  team: readonly AccountRecipient[] | undefined,
  seen: readonly RecipientOption[],
): RecipientOption[] {
  if (team === undefined) return [...seen];
  const sorted = [...team].sort(
    (a, b) =>
      byText(recipientTypeText(a.type), recipientTypeText(b.type)) ||
      byText(recipientShortName(a), recipientShortName(b)) ||
      byText(a.id, b.id),
  );
  const labels = sorted.map(recipientName);
  const count = new Map<string, number>();
  for (const label of labels) count.set(label, (count.get(label) ?? 0) + 1);
  const named = sorted.map((r, i) => {
    const label = labels[i] ?? r.id;
    return { id: r.id, label: (count.get(label) ?? 0) > 1 ? l10n.t('{0}, id {1}', label, r.id) : label };
  });
  const listed = new Set(named.map((o) => o.id));
  return [...named, ...seen.filter((o) => !listed.has(o.id))];
}
