// What the editor offers on `recipients[].id` in a trigger file, as plain data: the completion items (the
// active connection's recipients: label = name, detail = type, inserted = id) and the hover of an id (its
// recipient by name). Nothing but what names a recipient ever reaches them: the client drops every
// credential while reading the list. No vscode import; recipientProviders.ts turns them into vscode objects.
import type { AccountRecipient } from '../../api/schemas';
import * as l10n from '@vscode/l10n';
import { recipientName, recipientShortName, recipientTypeText, type RecipientDirectory } from '../core/recipients';
import { safeLabel, tooltipMarkdown } from '../core/text';
import type { RecipientField } from './recipientField';

export interface RecipientCompletion {
  /** The recipient's name or address, one line. */
  label: string;
  /** Its type ("PagerDuty"). */
  detail: string;
  /** Its id (quoted where the value has no quotes yet). */
  insertText: string;
  /** What typing matches: the name and the id. */
  filterText: string;
  sortText: string;
  /** The offsets the item replaces (the string's content), or none: inserted at the cursor. */
  replace?: { start: number; end: number };
  /** The id, shown beside the item. */
  documentation: string;
}

/** Every recipient as a completion of the field (sorted by name, then id). */
export function recipientCompletions(directory: RecipientDirectory, field: RecipientField): RecipientCompletion[] {
  const sorted = [...directory.list].sort(
    (a, b) => recipientShortName(a).localeCompare(recipientShortName(b)) || a.id.localeCompare(b.id),
  );
  return sorted.map((r, i) => {
    const name = safeLabel(recipientShortName(r), 120);
    return {
      label: name,
      detail: safeLabel(recipientTypeText(r.type), 60),
      insertText: field.kind === 'empty' ? JSON.stringify(r.id) : r.id,
      filterText: `${name} ${r.id}`,
      sortText: String(i).padStart(6, '0'),
      ...(field.kind === 'string' ? { replace: { start: field.start, end: field.end } } : {}),
      documentation: l10n.t('Recipient id {0}', r.id),
    };
  });
}

/** The hover of a recipient id: its name and type, and the id (Markdown with every service text escaped). */
export function recipientHoverMarkdown(r: AccountRecipient): string {
  return tooltipMarkdown({
    title: recipientName(r),
    rows: [
      { label: l10n.t('Recipient id'), value: r.id },
      { label: l10n.t('Type'), value: r.type },
    ],
  });
}
