// The trigger linter: text and options in, diagnostics with exact ranges and fixes out.
// Every rule comes from the zod schema in src/lint/schema/; this module only locates.
import { nearestValidFrequency, TRIGGER_LIMITS, triggerIssueMessage, TriggerWrite, triggerWriteSchema } from './schema';
import { applyFixes, compatibleFixes, findValueNode, removeMemberFix, replaceValueFix } from './fixes';
import { findingsOf, type Finding } from './issues';
import { parseFile } from './parse';
import { ruleInfo } from './rules';
import { skimTree, type TreeNode } from './skim';
import { LineIndex } from './text';
import type { Diagnostic, Fix, JsonPath, LintOptions, MetricsDatasetHint, RelatedInformation } from './types';
import { isRecord, valueAt } from './util';

type TriggerSchema = ReturnType<typeof triggerWriteSchema>;

// Building the schema costs more than checking a trigger: keep the few option sets in use. The cache
// holds one hint's schemas: a process has one caller wording (the CLI's or the editor's).
const schemaCache = new Map<string, TriggerSchema>();
let cachedHint: MetricsDatasetHint | undefined;
function schemaFor(options: LintOptions): TriggerSchema {
  const hint = options.metricsDatasetHint;
  if ((options.metricsDatasets === undefined || options.metricsDatasets.length === 0) && hint === undefined) return TriggerWrite;
  if (hint !== cachedHint) {
    schemaCache.clear();
    cachedHint = hint;
  }
  const metrics = [...new Set(options.metricsDatasets ?? [])].sort();
  const key = JSON.stringify(metrics);
  let schema = schemaCache.get(key);
  if (schema === undefined) {
    if (schemaCache.size >= 16) schemaCache.clear();
    schema = triggerWriteSchema({ metricsDatasets: metrics, metricsDatasetHint: hint });
    schemaCache.set(key, schema);
  }
  return schema;
}

interface Located extends Finding {
  /** Absolute path in the file. */
  at: JsonPath;
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function checkTrigger(schema: TriggerSchema, trigger: unknown, prefix: JsonPath, out: Located[]): void {
  const result = schema.safeParse(trigger, { error: triggerIssueMessage });
  if (result.success) return;
  // One diagnostic per rule and member: the first member check says it (30 is below 60 before it
  // is not a multiple of 60), but a relational issue says more than an absolute bound
  // (time_range 30 is below frequency 900, not only below 60).
  const byKey = new Map<string, Located>();
  for (const issue of result.error.issues) {
    for (const finding of findingsOf(issue, trigger)) {
      const at = [...prefix, ...finding.path];
      const key = `${finding.rule}\u0000${at.join('\u0000')}`;
      const earlier = byKey.get(key);
      if (earlier === undefined || (earlier.params === undefined && finding.params !== undefined)) byKey.set(key, { ...finding, at });
    }
  }
  out.push(...byKey.values());
}

function findings(value: unknown, options: LintOptions): Located[] {
  const schema = schemaFor(options);
  const out: Located[] = [];
  const rootProblem = (at: JsonPath, message: string) => out.push({ rule: 'json/root-type', path: [], at, message });
  if (Array.isArray(value)) {
    value.forEach((element, i) => {
      if (isRecord(element)) checkTrigger(schema, element, [i], out);
      else rootProblem([i], `element ${i} is ${describeValue(element)}; an array in a trigger file holds trigger objects only`);
    });
  } else if (isRecord(value)) {
    checkTrigger(schema, value, [], out);
  } else if (value !== undefined) {
    rootProblem([], `the file holds ${describeValue(value)}; it must hold a trigger object or an array of trigger objects`);
  }
  return out;
}

/** The node a path points at: the member (key through value) or element; for a missing member its nearest existing parent. */
function targetNode(root: TreeNode, path: JsonPath): TreeNode {
  const node = findValueNode(root, path);
  if (node !== undefined) return node.parent?.type === 'property' ? node.parent : node;
  for (let n = path.length - 1; n > 0; n--) {
    const parent = findValueNode(root, path.slice(0, n));
    if (parent !== undefined) return parent;
  }
  return root;
}

function fixFor(found: Located, root: TreeNode, lines: LineIndex, value: unknown): Fix | undefined {
  const path = found.at;
  const member = String(path[path.length - 1]);
  switch (found.rule) {
    case 'trigger/read-only-member':
      return removeMemberFix(root, path, lines, `Remove read-only ${member}`);
    case 'query/refused-member':
    case 'query/granularity-standard':
      return removeMemberFix(root, path, lines, `Remove ${member}`);
    case 'trigger/frequency': {
      const current = valueAt(value, found.at);
      if (typeof current !== 'number') return undefined;
      const next = nearestValidFrequency(current);
      return replaceValueFix(root, path, lines, next, `Set frequency to ${next}`);
    }
    case 'query/time-range-min':
    case 'query/time-range-max': {
      const current = valueAt(value, found.at);
      if (typeof current !== 'number') return undefined;
      // Relational issues know the bound; a bare member check (frequency itself invalid) clamps to the absolute bounds.
      const bound =
        found.params?.replaceWith ?? (found.rule === 'query/time-range-min' ? TRIGGER_LIMITS.frequencyMin : TRIGGER_LIMITS.timeRangeMax);
      return replaceValueFix(root, path, lines, bound, `Set time_range to ${bound}`);
    }
    default:
      return undefined;
  }
}

/** Lints the text of a trigger file: one trigger object or an array of them. Never throws on any text. */
export function lint(text: string, options: LintOptions = {}): Diagnostic[] {
  // A byte order mark is not JSON, but files carry it and editors hide it. Read as a space it keeps
  // every offset, so ranges and fixes still address `text`, where it is character 0 of line 0.
  const source = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const parsed = parseFile(source);
  const lines = new LineIndex(text);
  const diagnostics: Diagnostic[] = parsed.syntaxProblems.map((p) => ({
    rule: 'json/syntax',
    severity: ruleInfo('json/syntax').severity,
    message: p.message,
    range: lines.range(p.offset, p.length),
    path: [],
  }));
  const found = findings(parsed.value, options);
  // Fixes only for well-formed JSON: on a recovered tree an edit could land in the wrong place.
  const fixable = parsed.syntaxProblems.length === 0;
  let root: TreeNode | undefined;
  for (const f of found) {
    // Valid JSON gets the lazy tree, broken JSON jsonc-parser's recovering one.
    root ??= fixable ? skimTree(source) : parsed.recoveredTree;
    if (root === undefined) break;
    const tree = root;
    const rangeOf = (p: JsonPath) => {
      const node = targetNode(tree, p);
      return lines.range(node.offset, node.length);
    };
    const diagnostic: Diagnostic = { rule: f.rule, severity: ruleInfo(f.rule).severity, message: f.message, range: rangeOf(f.at), path: f.at };
    if (f.params?.related !== undefined) {
      const prefix = f.at.slice(0, f.at.length - f.path.length);
      const related: RelatedInformation[] = f.params.related.flatMap((r) =>
        findValueNode(tree, [...prefix, ...r.path]) === undefined ? [] : [{ message: r.message, range: rangeOf([...prefix, ...r.path]) }],
      );
      if (related.length > 0) diagnostic.related = related;
    }
    if (fixable) {
      const fix = fixFor(f, tree, lines, parsed.value);
      if (fix !== undefined) diagnostic.fix = fix;
    }
    diagnostics.push(diagnostic);
  }
  return diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

export interface FixAllResult {
  text: string;
  /** How many fixes were applied, over all passes. */
  applied: number;
  /** What is left after fixing. */
  diagnostics: Diagnostic[];
}

/**
 * Applies every fix of a rule that allows it in fix-all, pass after pass (a fix can overlap another: the
 * next pass takes it), until none is left.
 */
export function fixAll(text: string, options: LintOptions = {}): FixAllResult {
  let current = text;
  let applied = 0;
  let diagnostics = lint(current, options);
  for (let pass = 0; pass < 10; pass++) {
    const fixes = compatibleFixes(
      current,
      diagnostics.flatMap((d) => (d.fix === undefined || !ruleInfo(d.rule).inFixAll ? [] : [d.fix])),
    );
    if (fixes.length === 0) break;
    current = applyFixes(
      current,
      fixes.flatMap((f) => f.edits),
    );
    applied += fixes.length;
    diagnostics = lint(current, options);
  }
  return { text: current, applied, diagnostics };
}
