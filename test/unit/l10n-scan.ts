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
const TEXT_PROPERTIES = new Set([
  'title',
  'placeHolder',
  'placeholder',
  'prompt',
  'label',
  'description',
  'detail',
  'tooltip',
  'validationMessage',
  'message',
  'reason',
  'saveLabel',
  'openLabel',
]);
/** Assignments to these members show their value (status bar items, quick picks, tree items, views, panels). */
const TEXT_ASSIGNMENTS = new Set([
  'text',
  'tooltip',
  'description',
  'title',
  'placeholder',
  'prompt',
  'label',
  'message',
  'validationMessage',
]);

/** The literal pieces of an expression that would be shown as they are written (not through a call). */
function bareLiterals(node: ts.Expression): ts.Node[] {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node))
    return bareLiterals(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return hasWords(node.text) ? [node] : [];
  if (ts.isTemplateExpression(node)) {
    const pieces = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
    return hasWords(pieces) ? [node] : [];
  }
  if (ts.isConditionalExpression(node)) return [...bareLiterals(node.whenTrue), ...bareLiterals(node.whenFalse)];
  if (
    ts.isBinaryExpression(node) &&
    [ts.SyntaxKind.PlusToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(
      node.operatorToken.kind,
    )
  ) {
    return [...bareLiterals(node.left), ...bareLiterals(node.right)];
  }
  if (ts.isArrayLiteralExpression(node))
    return node.elements.flatMap((e) => bareLiterals(ts.isSpreadElement(e) ? e.expression : e));
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

/** Each text once per line, however many rules found it. */
function oncePerLine(found: readonly BareString[]): BareString[] {
  const seen = new Set<string>();
  return found.filter((f) => {
    const key = `${f.line}\u0000${f.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function findBareStrings(fileName: string, text: string): BareString[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: BareString[] = [];
  const report = (nodes: ts.Node[], position: string): void => {
    for (const n of nodes) {
      found.push({
        line: source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1,
        position,
        text: n.getText(source),
      });
    }
  };
  const reportObject = (obj: ts.Expression, position: string): void => {
    if (!ts.isObjectLiteralExpression(obj)) return;
    for (const p of obj.properties) {
      if (
        ts.isPropertyAssignment(p) &&
        (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) &&
        TEXT_PROPERTIES.has(p.name.text)
      ) {
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
      if ((name === 'runWithProgress' || name === 'reportError') && args[0])
        report(bareLiterals(args[0]), `${name} text`);
      if ((name === 'registerCommand' || name === 'command') && args.length >= 3 && args[1])
        report(bareLiterals(args[1]), 'registerCommand operation');
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
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left)
    ) {
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
  return oncePerLine(found);
}

// --- The linter (src/lint) ------------------------------------------------------------------------------
// The linter has no vscode calls to look at: its texts are built by a few functions of its own. A text is
// bare when a literal with words reaches the user through one of them, or is assembled with a template or `+`.

/** Calls whose arguments at these positions are (or, as functions, return) text the user sees. */
const LINT_TEXT_ARGUMENTS = new Map<string, readonly number[]>([
  ['report', [1]], // relations.ts: report(path, message, params)
  ['says', [0, 1]], // wording.ts: a member check's label and what is allowed
  ['strict', [0, 1]],
  ['expected', [0, 1]],
  ['problem', [0]],
  ['notAMemberOf', [0]],
  ['remove', [0]], // repairs.ts: remove(title), replace(value, title)
  ['replace', [1]],
  ['removeMemberFix', [2]],
  ['replaceValueFix', [3]],
  ['plainDiagnostic', [1]],
  ['boundedMessage', [0]],
]);
/** Object-literal members that hold a text the user sees: findings, related places and fixes, zod error options. */
const LINT_TEXT_PROPERTIES = new Set(['message', 'title', 'says', 'error']);

/** The expressions a function returns (its expression body, or its return statements, not those of nested functions). */
function returnedExpressions(
  fn: ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration | ts.MethodDeclaration,
): ts.Expression[] {
  const body = fn.body;
  if (body === undefined) return [];
  if (!ts.isBlock(body)) return [body];
  const out: ts.Expression[] = [];
  const walk = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isReturnStatement(node) && node.expression) out.push(node.expression);
    ts.forEachChild(node, walk);
  };
  ts.forEachChild(body, walk);
  return out;
}

/** The bare literals of a text position: of the functions returned values when the position holds a function (Words). */
function textOf(node: ts.Expression): ts.Node[] {
  const e = ts.isParenthesizedExpression(node) ? node.expression : node;
  if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return returnedExpressions(e).flatMap(bareLiterals);
  return bareLiterals(e);
}

const isL10nCall = (node: ts.Node, source: ts.SourceFile): node is ts.CallExpression =>
  ts.isCallExpression(node) && calleeName(node) === 't' && /(^|\.)l10n\.t$/.test(calleeText(node, source));

/**
 * The bare user-facing texts of a linter source file: literals with words at the text positions above, any
 * template or `+` concatenation with words (how English messages used to be assembled), any literal with words
 * a function returns, and an l10n.t whose text is not a literal (the export could not see it). Schema
 * descriptions (`.describe(...)`, the JSON Schema's documentation), thrown errors and regular expressions are not shown in the editor.
 */
export function findBareLintStrings(fileName: string, text: string): BareString[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: BareString[] = [];
  const report = (nodes: ts.Node[], position: string): void => {
    for (const n of nodes)
      found.push({
        line: source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1,
        position,
        text: n.getText(source),
      });
  };
  const visit = (node: ts.Node): void => {
    if (isL10nCall(node, source)) {
      const first = node.arguments[0];
      if (first !== undefined && !ts.isStringLiteral(first)) report([first], 'l10n.t text that is not a literal');
      return; // the translated text itself, and its arguments (member names, values)
    }
    if (ts.isCallExpression(node) && calleeName(node) === 'describe') return;
    if (ts.isNewExpression(node) && /(Error|^RegExp)$/.test(calleeName(node) ?? '')) return;
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      for (const i of (name === undefined ? undefined : LINT_TEXT_ARGUMENTS.get(name)) ?? []) {
        const arg = node.arguments[i];
        if (arg !== undefined) report(textOf(arg), `${name ?? ''} argument`);
      }
    }
    if (ts.isObjectLiteralExpression(node)) {
      for (const p of node.properties) {
        if (
          ts.isPropertyAssignment(p) &&
          (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) &&
          LINT_TEXT_PROPERTIES.has(p.name.text)
        ) {
          report(textOf(p.initializer), `${p.name.text} property`);
        }
      }
    }
    // `const message = ...` / `const title = ...`: a text built before it is handed on.
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      LINT_TEXT_PROPERTIES.has(node.name.text) &&
      node.initializer
    ) {
      report(textOf(node.initializer), `${node.name.text} variable`);
    }
    if (ts.isTemplateExpression(node)) {
      report(bareLiterals(node), 'template');
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const literal = [node.left, node.right].some(
        (s) => (ts.isStringLiteral(s) || ts.isNoSubstitutionTemplateLiteral(s)) && hasWords(s.text),
      );
      if (literal) report([node], 'concatenation');
    }
    if (
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node)
    ) {
      // A returned array is a path or a list of values, not a text.
      report(
        returnedExpressions(node)
          .filter((e) => !ts.isArrayLiteralExpression(e))
          .flatMap(bareLiterals),
        'returned text',
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // A literal found by two rules (a returned text at a text position) is reported once.
  return oncePerLine(found);
}
