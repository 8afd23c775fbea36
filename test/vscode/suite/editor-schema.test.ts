// In-host tests of the JSON Schema the extension contributes for trigger files
// (contributes.jsonValidation -> ./schemas/trigger.editor.schema.json, the full schema without its validating
// keywords, so each problem shows once, from obs-lint): completion and hover come from VS Code's
// built-in JSON language server, which starts on its own schedule, so every check polls (bounded) until
// the server answers. Expected values are read from the installed schema, not restated here.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, test } from './harness';
import { obsExtension, waitFor } from './helpers';

/** The JSON language server may take a while to start on a loaded 2-core machine. */
const SERVER_WAIT_MS = 45_000;

interface PropertySchema {
  readonly description?: string;
  readonly enum?: readonly unknown[];
}

/** A property of the trigger definition in the schema shipped inside the installed extension. */
async function schemaProperty(name: string): Promise<PropertySchema> {
  const file = vscode.Uri.joinPath(obsExtension().extensionUri, 'schemas', 'trigger.schema.json');
  const schema = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))) as {
    definitions?: { trigger?: { properties?: Record<string, PropertySchema> } };
  };
  const property = schema.definitions?.trigger?.properties?.[name];
  assert.ok(property, `the shipped schema has no trigger property "${name}"`);
  return property;
}

function workspaceFolder(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(folder, 'the test workspace has a folder');
  return folder;
}

/** The position just after the first occurrence of `text` in the document. */
function after(doc: vscode.TextDocument, text: string): vscode.Position {
  const offset = doc.getText().indexOf(text);
  assert.ok(offset >= 0, `"${text}" not found in ${doc.uri.path}`);
  return doc.positionAt(offset + text.length);
}

const labelOf = (item: vscode.CompletionItem): string =>
  typeof item.label === 'string' ? item.label : item.label.label;

/** The JSON server's completion labels at `position`, once they include every one of `wanted`. */
async function completionLabels(
  uri: vscode.Uri,
  position: vscode.Position,
  wanted: readonly string[],
): Promise<string[]> {
  let last: string[] = [];
  try {
    return await waitFor(
      `completions ${wanted.join(', ')}`,
      async () => {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>(
          'vscode.executeCompletionItemProvider',
          uri,
          position,
        );
        last = list.items.map(labelOf);
        return wanted.every((w) => last.includes(w)) ? last : undefined;
      },
      SERVER_WAIT_MS,
    );
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}; last completions: [${last.join(', ')}]`,
    );
  }
}

/** Markdown as plain text: the JSON server escapes punctuation in schema descriptions and writes spaces as &nbsp;. */
function unescapeMarkdown(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/\\([\\`*_{}[\]()#+\-.!<>|~])/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function hoverText(hovers: readonly vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .map(unescapeMarkdown)
    .join('\n');
}

/** Writes `text` to `relativePath` in the workspace, opens it in an editor, runs `body`, then closes and deletes it. */
async function withTriggerFile(
  relativePath: string,
  text: string,
  body: (doc: vscode.TextDocument) => Promise<void>,
): Promise<void> {
  const uri = vscode.Uri.joinPath(workspaceFolder(), relativePath);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.equal(doc.languageId, 'json');
    await vscode.window.showTextDocument(doc);
    await body(doc);
  } finally {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.workspace.fs.delete(uri, { useTrash: false }).then(undefined, () => undefined);
  }
}

/** The diagnostics of VS Code's JSON support (everything not from obs-lint). */
const fromJsonSupport = (doc: vscode.TextDocument): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source !== 'obs-lint');

/** Six syntax faults: two comments, two trailing commas, a missing comma and a missing colon. */
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

/** A trigger being typed: the cursor goes after `"alert_type": `, where a value is expected. */
const TYPING_ALERT_TYPE = `{
  "name": "Completion probe",
  "frequency": 900,
  "alert_type": 
}
`;

suite('editor', () => {
  test(
    'completion at the alert_type value of a *.trigger.json file offers the schema values on_change and on_true',
    async () => {
      const values = (await schemaProperty('alert_type')).enum;
      assert.deepEqual(values, ['on_change', 'on_true'], 'alert_type values in the shipped schema');
      await withTriggerFile('editor-test/probe.trigger.json', TYPING_ALERT_TYPE, async (doc) => {
        const labels = await completionLabels(doc.uri, after(doc, '"alert_type": '), ['"on_change"', '"on_true"']);
        // Only what the schema allows for alert_type: its values, no other property's.
        assert.deepEqual(labels.filter((l) => l.startsWith('"')).sort(), ['"on_change"', '"on_true"']);
      });
    },
    { timeoutMs: 60_000 },
  );

  test(
    'completion also works in a .json file under triggers/ (the second fileMatch pattern)',
    async () => {
      await withTriggerFile('triggers/editor-test/probe.json', TYPING_ALERT_TYPE, async (doc) => {
        await completionLabels(doc.uri, after(doc, '"alert_type": '), ['"on_change"', '"on_true"']);
      });
    },
    { timeoutMs: 60_000 },
  );

  test(
    'hover on frequency in a trigger file shows the description from the schema',
    async () => {
      const description = (await schemaProperty('frequency')).description ?? '';
      assert.ok(description.includes('Minimum 60'), `frequency description in the shipped schema: ${description}`);
      const uri = vscode.Uri.joinPath(workspaceFolder(), 'triggers', 'api-gateway', 'High-error-rate.trigger.json');
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      try {
        const position = after(doc, '"freq');
        let last = '';
        const text = await waitFor(
          'a hover with the frequency description',
          async () => {
            last = hoverText(
              await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position),
            );
            return last.includes(description) ? last : undefined;
          },
          SERVER_WAIT_MS,
        ).catch((error: unknown) => {
          throw new Error(
            `${error instanceof Error ? error.message : String(error)}; last hover: ${JSON.stringify(last)}`,
          );
        });
        assert.ok(text.includes(description));
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      }
    },
    { timeoutMs: 60_000 },
  );

  test(
    'a problem the schema could find shows once in Problems: from obs-lint, with its rule, not also from the JSON support',
    async () => {
      // A missing comma is a syntax fault only the JSON support reports (obs-lint leaves it to it in an open
      // json document). Once completion shows the schema is loaded, a second one is made: when the JSON
      // support reports two, it has validated that version with the schema, and whatever it would say
      // about alert_type is there too.
      const text = `{\n  "name": "Once"\n  "frequency": 900,\n  "alert_type": "sometimes",\n  "query_id": "q1"\n}\n`;
      await withTriggerFile('editor-test/once.trigger.json', text, async (doc) => {
        await completionLabels(doc.uri, after(doc, '"alert_type": '), ['"on_change"']);
        const edit = new vscode.WorkspaceEdit();
        // The JSON support reports a missing comma at the member after it: on the query_id line, not alert_type's.
        const comma = after(doc, '"alert_type": "sometimes"');
        edit.delete(doc.uri, new vscode.Range(comma, comma.translate(0, 1)));
        assert.ok(await vscode.workspace.applyEdit(edit));
        await waitFor(
          'the JSON support reporting both missing commas',
          () => fromJsonSupport(doc).length === 2 || undefined,
          SERVER_WAIT_MS,
        );
        const line = after(doc, '"alert_type"').line;
        await waitFor(
          'the obs-lint diagnostic on alert_type',
          () =>
            vscode.languages
              .getDiagnostics(doc.uri)
              .some((d) => d.source === 'obs-lint' && d.range.start.line === line) || undefined,
        );
        const onLine = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.range.start.line === line);
        assert.deepEqual(
          onLine.map((d) => [d.source, typeof d.code === 'object' ? String(d.code.value) : String(d.code)]),
          [['obs-lint', 'trigger/alert-type']],
        );
      });
    },
    { timeoutMs: 60_000 },
  );

  test(
    'a trigger file with six JSON syntax faults has six problems: comments and trailing commas from obs-lint, the others from the JSON support',
    async () => {
      await withTriggerFile('editor-test/six.trigger.json', SIX_FAULTS, async (doc) => {
        const fromLint = (): vscode.Diagnostic[] =>
          vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'obs-lint');
        await waitFor(
          'the JSON support reporting the missing comma and colon',
          () => fromJsonSupport(doc).length >= 2 || undefined,
          SERVER_WAIT_MS,
        );
        await waitFor('obs-lint reporting the comments and trailing commas', () => fromLint().length >= 4 || undefined);
        const all = vscode.languages.getDiagnostics(doc.uri);
        assert.equal(
          all.length,
          6,
          all
            .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.source ?? ''} ${d.message}`)
            .join('\n'),
        );
        assert.deepEqual(
          fromLint()
            .map((d) => d.range.start.line)
            .sort((a, b) => a - b),
          [0, 5, 6, 11],
        );
        assert.deepEqual(
          fromJsonSupport(doc)
            .map((d) => d.range.start.line)
            .sort((a, b) => a - b),
          [5, 7],
        );
      });
    },
    { timeoutMs: 60_000 },
  );
});
