// Each JSON syntax fault of an open trigger file shows once in Problems. VS Code's JSON support validates
// open documents of the json and jsonc languages (unless `json.validate.enable` is off) and reports their
// syntax faults, except comments and trailing commas: the editor schema allows those
// (src/lint/editorSchema.ts), since the service refuses them and obs-lint says so with its rule and link.
// So for such a document obs-lint leaves every other syntax fault to the JSON support. A closed file
// (linted by "Lint All") is not validated by the JSON support: obs-lint reports everything there.
// No vscode import.
import type { Diagnostic as LintDiagnostic } from '../../lint';

/** The languages whose open documents VS Code's JSON support validates. */
const JSON_LANGUAGES = new Set(['json', 'jsonc']);

export interface JsonSupport {
  /** The document's language id. */
  languageId: string;
  /** `json.validate.enable` (default true). */
  validates: boolean;
}

/** Whether VS Code's JSON support reports this diagnostic's fault in an open document itself. */
function reportedByJsonSupport(d: LintDiagnostic, json: JsonSupport): boolean {
  if (d.rule !== 'json/syntax' || !json.validates || !JSON_LANGUAGES.has(json.languageId)) return false;
  return d.syntax === 'other';
}

/** The diagnostics obs-lint shows for an open document: each syntax fault once. */
export function shownBeside(diagnostics: readonly LintDiagnostic[], json: JsonSupport): LintDiagnostic[] {
  return diagnostics.filter((d) => !reportedByJsonSupport(d, json));
}
