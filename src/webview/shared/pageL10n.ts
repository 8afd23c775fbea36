// Reads the language and translations the host wrote into the page (protocol/pageL10n.ts) and hands
// them to @vscode/l10n, so that every l10n.t of the page's word tables answers in the user's language.
import * as l10n from '@vscode/l10n';
import { PageL10n, plainBundle } from '../protocol/pageL10n';
import { PAGE_L10N_ELEMENT_ID } from '../protocol/pageL10nBlock';
import { useTextLocale } from '../protocol/text/common';

/** Configures the page's language; without a readable block the page stays English and says why in the console. */
export function applyPageL10n(): void {
  const element = document.getElementById(PAGE_L10N_ELEMENT_ID);
  if (element === null) {
    console.warn('obs page: no language block in the page; texts stay English');
    return;
  }
  let parsed: ReturnType<typeof PageL10n.safeParse>;
  try {
    parsed = PageL10n.safeParse(JSON.parse(element.textContent ?? ''));
  } catch {
    console.warn('obs page: the language block is not JSON; texts stay English');
    return;
  }
  if (!parsed.success) {
    console.warn('obs page: the language block is malformed; texts stay English');
    return;
  }
  const { language, bundle } = parsed.data;
  document.documentElement.lang = language;
  useTextLocale(language);
  if (bundle !== null) l10n.config({ contents: plainBundle(bundle) });
}
