// The trigger in a trigger file's text, for "Preview" from its CodeLens (the editor's text, unsaved edits
// included). Only what the preview reads is checked; the linter reports everything else. No vscode import.
import * as z from 'zod';
import type { TriggerInput } from './plan';
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../result';

export type PreviewTrigger = TriggerInput & { query?: unknown; query_id?: unknown; dataset_slug?: unknown };

const Readable = z.looseObject({
  name: z.string().optional(),
  frequency: z.number().optional(),
  alert_type: z.string().optional(),
  disabled: z.boolean().optional(),
  evaluation_schedule_type: z.string().optional(),
  threshold: z.looseObject({}).optional(),
});

export type TriggerText = Outcome<{ trigger: PreviewTrigger }>;

export function triggerFromText(text: string): TriggerText {
  let value: unknown;
  try {
    // Editors hide a byte order mark; JSON.parse does not accept one.
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return { ok: false, reason: l10n.t('the file is not valid JSON (fix the problems the linter shows first)') };
  }
  if (Array.isArray(value))
    return {
      ok: false,
      reason: l10n.t(
        'the file holds several triggers; preview them one at a time from the Datasets view, or from a file holding one',
      ),
    };
  const parsed = Readable.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const member = issue?.path.join('.') ?? '';
    return {
      ok: false,
      reason:
        member === ''
          ? l10n.t('the file does not hold a trigger object')
          : l10n.t('{0} has the wrong type (fix the problems the linter shows first)', member),
    };
  }
  const name = parsed.data.name !== undefined && parsed.data.name !== '' ? parsed.data.name : l10n.t('unnamed trigger');
  return { ok: true, trigger: { ...parsed.data, name } };
}
