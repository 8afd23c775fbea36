// Finds user-facing texts written as bare literals instead of going through `l10n.t` (vscode.l10n.t in
// adapters, @vscode/l10n in vscode-free cores). Used by l10n.test.ts; parses with the TypeScript compiler API.
import ts from 'typescript';

export interface BareString {
  line: number;
  /** Where the literal sits, e.g. "showErrorMessage argument" or "label property". */
  position: string;
  text: string;
}

/** Calls whose every argument (message, button items) is shown. */
const MESSAGE_CALLS = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage']);
/** Object-literal members that are shown wherever they appear (quick pick items and options, tree items, lenses, tooltips). */
const TEXT_PROPERTIES = new Set(['title', 'placeHolder', 'placeholder', 'prompt', 'label', 'description', 'detail', 'tooltip', 'validationMessage', 'message', 'reason', 'saveLabel', 'openLabel']);
/** Assignments to these members show their value (status bar items, quick picks, tree items, views, panels). */
const TEXT_ASSIGNMENTS = new Set(['text', 'tooltip', 'description', 'title', 'placeholder', 'prompt', 'label', 'message', 'validationMessage']);

/** The literal pieces of an expression that would be shown as they are written (not through a call). */
function bareLiterals(node: ts.Expression): ts.Node[] {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return bareLiterals(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return hasWords(node.text) ? [node] : [];
  if (ts.isTemplateExpression(node)) {
    const pieces = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
    return hasWords(pieces) ? [node] : [];
  }
  if (ts.isConditionalExpression(node)) return [...bareLiterals(node.whenTrue), ...bareLiterals(node.whenFalse)];
  if (ts.isBinaryExpression(node) && [ts.SyntaxKind.PlusToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(node.operatorToken.kind)) {
    return [...bareLiterals(node.left), ...bareLiterals(node.right)];
  }
  if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap((e) => bareLiterals(ts.isSpreadElement(e) ? e.expression : e));
  if (ts.isSpreadElement(node)) return bareLiterals(node.expression);
  return [];
}

/** Text a reader would translate: a letter outside codicons (`$(sync~spin)`) and `{0}` placeholders. */
function hasWords(text: string): boolean {
  if (/^https?:\/\/\S+$/.test(text.trim())) return false; // an example address, the same in every language
  return /\p{L}/u.test(text.replace(/\$\([a-z0-9~-]+\)/gi, '').replace(/\{\d+\}/g, ''));
}

function calleeName(call: ts.CallExpression | ts.NewExpression): string | undefined {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

function calleeText(call: ts.CallExpression | ts.NewExpression, source: ts.SourceFile): string {
  return call.expression.getText(source);
}

export function findBareStrings(fileName: string, text: string): BareString[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: BareString[] = [];
  const report = (nodes: ts.Node[], position: string): void => {
    for (const n of nodes) {
      found.push({ line: source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1, position, text: n.getText(source) });
    }
  };
  const reportObject = (obj: ts.Expression, position: string): void => {
    if (!ts.isObjectLiteralExpression(obj)) return;
    for (const p of obj.properties) {
      if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && TEXT_PROPERTIES.has(p.name.text)) {
        report(bareLiterals(p.initializer), `${p.name.text} of ${position}`);
      }
    }
  };

  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const callee = calleeText(node, source);
      const args = [...node.arguments];
      if (name === 't' && /(^|\.)l10n\.t$/.test(callee)) return; // the translated text itself
      if (name !== undefined && MESSAGE_CALLS.has(name)) {
        for (const a of args) {
          report(bareLiterals(ts.isSpreadElement(a) ? a.expression : a), `${name} argument`);
          reportObject(a, `${name} options`);
        }
      }
      if (name === 'showQuickPick' || name === 'showInputBox' || name === 'withProgress') {
        for (const a of args) reportObject(a, `${name} options`);
        const items = args[0];
        if (name === 'showQuickPick' && items && ts.isArrayLiteralExpression(items)) {
          for (const item of items.elements) {
            if (ts.isSpreadElement(item)) continue;
            report(bareLiterals(item), 'showQuickPick item');
            reportObject(item, 'showQuickPick item');
          }
        }
      }
      // Feedback (core/feedback.ts): runWithProgress(title, ...), reportError(operation, ...),
      // registerCommand(id, operation, run) — the operation is shown as "Could not <operation>: ..." (also
      // through the local `command(id, operation, run)` shorthands of the register* functions).
      if ((name === 'runWithProgress' || name === 'reportError') && args[0]) report(bareLiterals(args[0]), `${name} text`);
      if ((name === 'registerCommand' || name === 'command') && args.length >= 3 && args[1]) report(bareLiterals(args[1]), 'registerCommand operation');
      if (name === 'createWebviewPanel' && args[1]) report(bareLiterals(args[1]), 'createWebviewPanel title');
      // The Datasets tree's hint rows: hint(parent, id, label, ...) shows its label as a row of the tree.
      if (name === 'hint' && args.length >= 3 && args[2]) report(bareLiterals(args[2]), 'tree hint label');
    }
    if (ts.isNewExpression(node)) {
      const name = calleeName(node);
      const args = [...(node.arguments ?? [])];
      if (name === 'TreeItem' && args[0]) report(bareLiterals(args[0]), 'TreeItem label');
      if (name === 'CodeLens' && args[1]) reportObject(args[1], 'CodeLens command');
      if (name === 'MarkdownString' && args[0]) report(bareLiterals(args[0]), 'MarkdownString text');
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left)) {
      const member = node.left.name.text;
      if (TEXT_ASSIGNMENTS.has(member)) report(bareLiterals(node.right), `.${member} assignment`);
    }
    if (ts.isObjectLiteralExpression(node)) {
      // Quick pick items, tree item data, lens commands and tooltips built as plain objects.
      reportObject(node, 'object literal');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // An object passed straight to a call is checked by the call's rule and also as a plain object: keep one.
  const seen = new Set<string>();
  return found.filter((f) => {
    const key = `${f.line}\u0000${f.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
