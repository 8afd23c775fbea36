// Each JSON syntax fault of an open trigger file shows once in Problems (diagnostics/jsonSupport.ts): VS
// Code's JSON support (vscode-json-languageservice, as its server runs it, with the editor schema the
// extension contributes) reports every fault but comments and trailing commas, and obs-lint those two.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService, TextDocument, type Diagnostic as JsonDiagnostic } from 'vscode-json-languageservice';
import { lint } from '../../src/lint';
import { triggerEditorSchemaText } from '../../src/lint/editorSchema';
import { shownBeside } from '../../src/extension/diagnostics/jsonSupport';

/** Six faults: two comments, two trailing commas, a missing comma and a missing colon. */
const SIX_FAULTS = `// a comment
{
  "name": "Six faults",
  "dataset_slug": "api-gateway",
  "alert_type": "on_change"
  "threshold": { "op": ">", "value": 1, },
  /* a block comment */
  "disabled" false,
  "frequency": 900,
  "query": { "calculations": [{ "op": "COUNT" }], "time_range": 900 },
  "recipients": [{ "id": "r1" }],
}
`;

/** What VS Code's JSON server reports for a json document with the editor schema (its settings for the json language). */
async function jsonSupportReports(text: string): Promise<JsonDiagnostic[]> {
  const ls = getLanguageService({});
  ls.configure({
    validate: true,
    schemas: [
      {
        uri: 'obs://trigger.editor.schema.json',
        fileMatch: ['*.trigger.json'],
        schema: JSON.parse(triggerEditorSchemaText()) as object,
      },
    ],
  });
  const doc = TextDocument.create('file:///w/six.trigger.json', 'json', 1, text);
  return ls.doValidation(doc, ls.parseJSONDocument(doc), { comments: 'error', trailingCommas: 'error' });
}

const at = (d: { range: { start: { line: number; character: number } } }) =>
  `${d.range.start.line}:${d.range.start.character}`;

test('six syntax faults make six problems in a json document: the comments and trailing commas from obs-lint, the rest from the JSON support', async () => {
  const ours = shownBeside(lint(SIX_FAULTS), { languageId: 'json', validates: true });
  const theirs = await jsonSupportReports(SIX_FAULTS);
  assert.deepEqual(
    ours.map((d) => [d.rule, d.syntax, at(d)]),
    [
      ['json/syntax', 'comment', '0:0'],
      ['json/syntax', 'trailing-comma', '5:40'],
      ['json/syntax', 'comment', '6:2'],
      ['json/syntax', 'trailing-comma', '11:0'],
    ],
  );
  assert.deepEqual(
    theirs.map((d) => [d.message, at(d)]),
    [
      ['Expected comma', '5:2'],
      ['Colon expected', '7:13'],
    ],
  );
});

test('obs-lint reports every syntax fault where the JSON support does not: another language, validation off', () => {
  const all = lint(SIX_FAULTS).filter((d) => d.rule === 'json/syntax');
  assert.equal(all.length, 6);
  assert.equal(shownBeside(all, { languageId: 'plaintext', validates: true }).length, 6);
  assert.equal(shownBeside(all, { languageId: 'json', validates: false }).length, 6);
  assert.equal(shownBeside(all, { languageId: 'jsonc', validates: true }).length, 4);
});

test('an empty file is said by obs-lint alone (the JSON support ignores empty documents); rule problems are never left out', () => {
  assert.deepEqual(
    shownBeside(lint(''), { languageId: 'json', validates: true }).map((d) => [d.rule, d.syntax]),
    [['json/syntax', 'empty']],
  );
  const ruleOnly = lint('{ "name": "" }');
  assert.deepEqual(shownBeside(ruleOnly, { languageId: 'json', validates: true }), ruleOnly);
});
