// Recipients by name in trigger files: completion on `recipients[].id` offers the active connection's
// recipients (label = name, detail = type, inserted = id) and hovering an id names its recipient. Where
// the field is is read by the lint worker (recipientAt jobs); the recipients come from the account's list
// (one GET /1/recipients per connection). Without a connection or that list, nothing is offered.
import * as vscode from 'vscode';
import type { AccountRecipients } from '../core/accountRecipients';
import { LintCancelled, type LintRunner } from './lintRunner';
import type { RecipientField } from './recipientField';
import { recipientCompletions, recipientHoverMarkdown } from './recipientItems';
import type { TriggerFileMatcher } from './triggerFiles';

/** Larger documents are not searched for a field on every hover or keystroke. */
const MAX_TEXT = 1024 * 1024;

export interface RecipientProvidersDeps {
  matcher: TriggerFileMatcher;
  runner: LintRunner;
  recipients: AccountRecipients;
}

async function fieldAt(
  runner: LintRunner,
  doc: vscode.TextDocument,
  position: vscode.Position,
  token: vscode.CancellationToken,
): Promise<RecipientField | undefined> {
  const text = doc.getText();
  if (text.length > MAX_TEXT) return undefined;
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  try {
    const result = await runner.run({ kind: 'recipientAt', text, offset: doc.offsetAt(position) }, controller.signal);
    return result.kind === 'recipientAt' ? result.field : undefined;
  } catch (err) {
    if (err instanceof LintCancelled) return undefined;
    throw err;
  } finally {
    sub.dispose();
  }
}

export function registerRecipientProviders(deps: RecipientProvidersDeps): vscode.Disposable {
  const selector: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }];
  const hover: vscode.HoverProvider = {
    provideHover: async (doc, position, token) => {
      if (!deps.matcher.matches(doc)) return undefined;
      const directory = deps.recipients.known();
      if (directory === undefined) {
        deps.recipients.want();
        return undefined;
      }
      const field = await fieldAt(deps.runner, doc, position, token);
      if (field?.kind !== 'string') return undefined;
      const recipient = directory.get(field.value);
      if (recipient === undefined) return undefined;
      const md = new vscode.MarkdownString(recipientHoverMarkdown(recipient), false);
      md.isTrusted = false;
      md.supportHtml = false;
      return new vscode.Hover(md, new vscode.Range(doc.positionAt(field.start), doc.positionAt(field.end)));
    },
  };
  const completion: vscode.CompletionItemProvider = {
    provideCompletionItems: async (doc, position, token) => {
      if (!deps.matcher.matches(doc)) return undefined;
      const field = await fieldAt(deps.runner, doc, position, token);
      if (field === undefined || token.isCancellationRequested) return undefined;
      const directory = await deps.recipients.directory();
      if (directory === undefined) return undefined;
      return recipientCompletions(directory, field).map((c) => {
        const item = new vscode.CompletionItem(c.label, vscode.CompletionItemKind.Value);
        item.detail = c.detail;
        item.insertText = c.insertText;
        item.filterText = c.filterText;
        item.sortText = c.sortText;
        item.documentation = c.documentation;
        if (c.replace !== undefined)
          item.range = new vscode.Range(doc.positionAt(c.replace.start), doc.positionAt(c.replace.end));
        return item;
      });
    },
  };
  return vscode.Disposable.from(
    vscode.languages.registerHoverProvider(selector, hover),
    // A quote opens the value: the recipients are offered as soon as `"id": "` is typed.
    vscode.languages.registerCompletionItemProvider(selector, completion, '"'),
  );
}
