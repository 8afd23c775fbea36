// What a page needs to speak the user's language: VS Code's display language and the bundle of
// translations VS Code loaded for it (none when it is English or has no translation). The host writes it
// into the page's HTML as JSON, so the page has it before its first text, even on a form that fails to
// load (protocol/pageL10nBlock.ts); the page reads it back with this schema. No vscode import: host and pages
// share it.
import * as z from 'zod';

/** A bundle's value: the translation, or (in a bundle with translators' comments) an object holding it. */
const Translation = z.union([z.string(), z.looseObject({ message: z.string() })]);

export const PageL10n = z.strictObject({
  language: z.string().min(1),
  bundle: z.record(z.string(), Translation).nullable(),
});
export type PageL10n = z.infer<typeof PageL10n>;

/** The bundle as `@vscode/l10n` takes it: every value a plain translation. */
export function plainBundle(bundle: NonNullable<PageL10n['bundle']>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(bundle).map(([key, value]) => [key, typeof value === 'string' ? value : value.message]),
  );
}
