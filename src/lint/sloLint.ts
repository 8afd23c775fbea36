// The linter of burn alert files and dataset definitions files (docs/SLO-FILES.md, docs/rules.md): the
// text's JSON read as the trigger linter reads it (parse.ts: the same syntax diagnostics), then the rules of
// each kind (burnAlertRules.ts, definitionsRules.ts) as findings at a JSON path, located here. These files
// are one small object each, so a tree of the whole text is made once.
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { plainDiagnostic, summaryDiagnostic, type Counts } from './build';
import { DEFAULT_MAX_DIAGNOSTICS } from './defaults';
import { burnAlertFindings } from './burnAlertRules';
import { definitionsFindings } from './definitionsRules';
import { applyFixes } from './fixes';
import { parseFile } from './parse';
import { ruleInfo, type RuleId } from './rules';
import { LineIndex } from './text';
import type { Diagnostic, Fix, JsonPath, LintOptions } from './types';
import type { SloFileKind, SloFinding } from './sloKinds';

export { sloFileKind, type SloFileKind } from './sloKinds';

/** The kind of file a rule is about, when it is not a trigger file's rule. */
export function sloKindOfRule(rule: RuleId): SloFileKind | undefined {
  if (rule.startsWith('burn-alert/')) return 'burn-alert';
  if (rule.startsWith('definitions/')) return 'definitions';
  return undefined;
}

/** A member's node, key through value; for a missing member its nearest parent that is there. */
function nodeOf(root: Node, path: JsonPath): Node {
  for (let n = path.length; n > 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n));
    if (node !== undefined) return n === path.length && node.parent?.type === 'property' ? node.parent : node;
  }
  return root;
}

/**
 * The edit of a fix: a member removed with the comma that joins it to its neighbour (the one after it, else
 * the one before), or its value replaced, the rest of the text as it was.
 */
function fixOf(root: Node, path: JsonPath, fix: NonNullable<SloFinding['fix']>, lines: LineIndex): Fix | undefined {
  const value = findNodeAtLocation(root, path);
  const property = value?.parent;
  if (value === undefined || property?.type !== 'property') return undefined;
  let offset = property.offset;
  let end = property.offset + property.length;
  if (fix.value !== undefined) {
    offset = value.offset;
    end = value.offset + value.length;
  } else {
    const siblings = property.parent?.children ?? [];
    const at = siblings.indexOf(property);
    const next = siblings[at + 1];
    const previous = siblings[at - 1];
    if (next !== undefined) end = next.offset;
    else if (previous !== undefined) offset = previous.offset + previous.length;
  }
  const newText = fix.value === undefined ? '' : JSON.stringify(fix.value);
  return { title: fix.title, edits: [{ range: lines.range(offset, end - offset), newText }] };
}

const none = (): Counts => ({ error: 0, warning: 0, info: 0 });

export interface SloLintReport {
  diagnostics: Diagnostic[];
  hidden: Counts;
  /** The dataset of a definitions file (its `dataset_slug`): what a caller reads columns for. */
  datasets: string[];
}

/** Lints a burn alert or definitions file. `encoding`: where undecodable bytes were read (decode.ts). */
export function lintSloText(
  kind: SloFileKind,
  text: string,
  options: LintOptions = {},
  encoding: readonly { offset: number; message: string }[] = [],
): SloLintReport {
  const limit = Math.max(0, Math.floor(options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS));
  const source = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const lines = new LineIndex(text);
  const parsed = parseFile(source, limit, undefined, options.afterRefusedParse);
  const out: Diagnostic[] = encoding.map((p) => plainDiagnostic('file/encoding', p.message, p.offset, 1, lines));
  for (const p of parsed.syntaxProblems)
    out.push({ ...plainDiagnostic('json/syntax', p.message, p.offset, p.length, lines), syntax: p.kind });
  const root = parseTree(source);
  const value = parsed.value;
  // Only a definitions file is checked against its dataset's columns: what a caller reads columns for.
  const datasets =
    kind === 'definitions' &&
    typeof value === 'object' &&
    value !== null &&
    'dataset_slug' in value &&
    typeof value.dataset_slug === 'string'
      ? [value.dataset_slug]
      : [];
  if (root !== undefined && parsed.syntaxProblems.length === 0) {
    const findings = kind === 'burn-alert' ? burnAlertFindings(value, options) : definitionsFindings(value, options);
    for (const f of findings) {
      const node = nodeOf(root, f.path);
      const d: Diagnostic = {
        rule: f.rule,
        severity: ruleInfo(f.rule).severity,
        message: f.message,
        range: lines.range(node.offset, node.length),
        path: f.path,
      };
      // Fixes only on valid JSON, as in trigger files: on a recovered tree an edit could land elsewhere.
      const fix =
        f.fix !== undefined && parsed.valid && options.fixes !== false ? fixOf(root, f.path, f.fix, lines) : undefined;
      if (fix !== undefined) d.fix = fix;
      out.push(d);
    }
  }
  const sorted = out.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
  const hidden = none();
  for (const d of sorted.slice(limit)) hidden[d.severity]++;
  hidden.error += parsed.moreSyntaxProblems;
  const shown = sorted.slice(0, limit);
  if (hidden.error + hidden.warning + hidden.info > 0) shown.push(summaryDiagnostic(hidden, limit));
  return { diagnostics: shown, hidden, datasets };
}

/**
 * The text with every fix applied that "fix all" applies (rules with inFixAll), pass after pass until none is
 * left (a removal next to another is applied in the next pass).
 */
export function fixAllSlo(kind: SloFileKind, text: string, options: LintOptions = {}): string {
  let current = text;
  for (let pass = 0; pass < 10; pass++) {
    const fixes = lintSloText(kind, current, { ...options, fixes: true }).diagnostics.flatMap((d) =>
      d.fix !== undefined && ruleInfo(d.rule).inFixAll ? [d.fix] : [],
    );
    if (fixes.length === 0) break;
    current = applyFixes(
      current,
      fixes.map((f) => f.edits[0]).filter((e) => e !== undefined),
    );
  }
  return current;
}
