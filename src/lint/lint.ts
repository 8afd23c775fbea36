// The trigger linter: text and options in, diagnostics with exact ranges and fixes out. Every rule
// comes from the zod schema in src/lint/schema/; this module decides what is shown. Work is linear in
// the text: each container is indexed once (skim.ts), findings are located by lookups in those
// indexes, only the first N diagnostics of a file are kept and built (select.ts), and the others
// are only counted.
import { addDatasetOf, datasetsNamed, MAX_SUGGESTION_SEARCHES } from './columns';
import { DEFAULT_MAX_DIAGNOSTICS } from './defaults';
import { tooDeepMessage, type DeepRegion } from './depth';
import { duplicateDiagnostic, findingDiagnostic, plainDiagnostic, summaryDiagnostic, type Counts } from './build';
import { applyOffsetEdits, findValueNode, planFixAll, type FixTarget, type OffsetEdit } from './fixes';
import { ElementFindings, forEachTriggerFindings, isUnknownMembers, type Found } from './findings';
import { unknownMember, type Finding } from './issues';
import { targetSpan } from './locate';
import { parseFile, type ElementsCheck } from './parse';
import type { SkimNode } from './skim';
import { repairOf } from './repairs';
import { ruleInfo } from './rules';
import { FirstByOffset } from './select';
import { LineIndex } from './text';
import type { Diagnostic, LintOptions } from './types';
import { newLintWork, type LintRun } from './work';

export { boundedMessage, MAX_MESSAGE_LENGTH } from './build';

export { DEFAULT_MAX_DIAGNOSTICS } from './defaults';

/** Where undecodable bytes were read as U+FFFD: offsets in the text (decode.ts finds them). */
export interface EncodingProblem {
  offset: number;
  message: string;
}

export interface Analysis {
  /** The diagnostics shown, in document order: at most the limit, after one saying what was left out (if anything was). */
  diagnostics: Diagnostic[];
  /** Diagnostics left out, by severity. */
  hidden: Counts;
  /** With `fixAll`: the edits of every fix "fix all" applies, by offset, overlapping none. */
  fixAllEdits?: OffsetEdit[];
  /** The datasets the file's triggers name, as column lists are keyed (`__all__` for environment-wide): what a caller fetches columns for. */
  datasets: string[];
}

/** Lints text; `extra` carries what only callers reading bytes know, and asks for the fix-all edits. */
export function analyse(
  text: string,
  options: LintOptions = {},
  extra: { encoding?: { problems: readonly EncodingProblem[]; more: number }; fixAll?: boolean } = {},
): Analysis {
  const limit = Math.max(0, Math.floor(options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS));
  // A byte order mark is not JSON, but files carry it and editors hide it. Read as a space it keeps
  // every offset, so ranges and fixes still address `text`, where it is character 0 of line 0.
  const source = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  // This lint's own state: nothing is shared with another lint, even one started while this one runs.
  const run: LintRun = { work: options.work ?? newLintWork(), searchesLeft: MAX_SUGGESTION_SEARCHES };
  const early = earlyChecks(options, run, limit);
  const parsed = parseFile(source, limit, run.work, early.check);
  const lines = new LineIndex(text);
  const root = parsed.root;
  // Fixes only for well-formed JSON: on a recovered tree an edit could land in the wrong place.
  const fixable = parsed.valid;
  const hidden: Counts = { error: parsed.moreSyntaxProblems + (extra.encoding?.more ?? 0), warning: 0, info: 0 };

  type Build = { severity: Diagnostic['severity']; build: () => Diagnostic | undefined };
  const shown = new FirstByOffset<Build>(limit, (dropped) => hidden[dropped.severity]++);
  const offer = (offset: number, severity: Diagnostic['severity'], build: () => Diagnostic | undefined) => {
    shown.offer(offset, () => ({ severity, build }), () => hidden[severity]++);
  };

  // Problems the decoding and the parse placed already. Their offsets, sorted, tell how many come
  // before a trigger.
  const before: number[] = [];
  for (const e of extra.encoding?.problems ?? []) {
    before.push(e.offset);
    offer(e.offset, 'error', () => plainDiagnostic('file/encoding', e.message, e.offset, 1, lines));
  }
  for (const p of parsed.syntaxProblems) {
    before.push(p.offset);
    offer(p.offset, 'error', () => ({ ...plainDiagnostic('json/syntax', p.message, p.offset, p.length, lines), syntax: p.kind }));
  }
  for (const r of parsed.deep) {
    before.push(r.start);
    offer(r.start, 'error', () => plainDiagnostic('json/too-deep', tooDeepMessage(), r.start, 1, lines));
  }
  const duplicates = parsed.duplicates;
  for (let d = 0; d + 1 < duplicates.length; d += 2) {
    const ignored = duplicates[d] ?? 0;
    const next = duplicates[d + 1] ?? 0;
    before.push(ignored);
    offer(ignored, 'warning', () => (root === undefined ? undefined : duplicateDiagnostic(root, ignored, next, lines, fixable)));
  }
  before.sort((a, b) => a - b);

  const targets: FixTarget[] = [];
  const value = fixable ? parsed.value : undefined;
  let located = 0;
  let p = 0;
  const shownFinding = (f: Finding, span: { offset: number; length: number }) => {
    if (root !== undefined) offer(span.offset, ruleInfo(f.rule).severity, () => findingDiagnostic(f, span, root, lines, value));
  };
  // Triggers lie in order: once `limit` diagnostics come before one, none of its findings is shown, and
  // they are counted without being worded. (A trigger's start is looked up only while that is undecided:
  // the array is skimmed only that far.) Asked before a trigger is checked and again when its findings come.
  let askedIndex: number | undefined;
  let askedVisible = false;
  const visibleAt = (index: number): boolean => {
    if (index === askedIndex) return askedVisible;
    let visible = root !== undefined && located < limit;
    // Only problems placed before the trigger count against the limit: with none left to place (most
    // files), its start is not needed, and the array is not skimmed for it.
    if (visible && root !== undefined) {
      if (p < before.length) {
        const start = index < 0 ? root.offset : root.childStart(index);
        while (p < before.length && (before[p] ?? 0) < start) p++;
      }
      visible = p + located < limit;
    }
    askedIndex = index;
    askedVisible = visible;
    return visible;
  };
  const visit = (index: number, found: Found) => {
    // A value always comes with a tree; without one there is nothing to locate.
    if (root === undefined) return;
    const visible = visibleAt(index);
    for (const f of found) {
      if (isUnknownMembers(f)) {
        if (!visible) {
          hidden.warning += f.keys.length;
          continue;
        }
        const object = findValueNode(root, f.at);
        for (const key of f.keys) {
          const span = object?.memberSpan(key) ?? targetSpan(root, [...f.at, key], object);
          // The finding is made only for a member that is shown.
          if (shown.wouldKeep(span.offset)) shownFinding(unknownMember(f, key), span);
          else hidden.warning++;
        }
        located += f.keys.length;
        continue;
      }
      if (visible) located++;
      const info = ruleInfo(f.rule);
      if (value !== undefined && extra.fixAll === true && info.inFixAll) {
        const repair = repairOf(f, root, value);
        if (repair !== undefined) targets.push(repair.target);
      }
      if (visible) shownFinding(f, targetSpan(root, f.at));
      else hidden[info.severity]++;
    }
  };
  if (parsed.streamed) early.elements.forEach(visit);
  else forEachTriggerFindings(parsed.value, options, run, unreadTriggers(root, parsed.deep), visit, visibleAt);

  const diagnostics: Diagnostic[] = [];
  for (const item of shown.sorted()) {
    const d = item.build();
    if (d !== undefined) diagnostics.push(d);
  }
  run.work.built += diagnostics.length;
  if (hidden.error + hidden.warning + hidden.info > 0) diagnostics.unshift(summaryDiagnostic(hidden, limit));
  const analysis: Analysis = { diagnostics, hidden, datasets: parsed.streamed ? [...early.datasets].sort() : datasetsNamed(parsed.value) };
  if (extra.fixAll === true) analysis.fixAllEdits = planFixAll(targets, run.work);
  return analysis;
}

/**
 * The triggers of a broken file's top-level array, checked as they are read (parse.ts) so that the file's
 * value is never held whole; `visit` takes their findings after the parse, as it takes a valid file's.
 * Whether a trigger's findings can be shown is known only then (problems found later may come before
 * it), so it is told here as `located < limit` alone: never "no" when the answer will be "yes" (a trigger
 * told "yes" and found not shown only had its messages worded for nothing). Only a trigger told "yes"
 * with findings keeps its part of the tree, to locate them.
 */
function earlyChecks(options: LintOptions, run: LintRun, limit: number): { elements: ElementFindings; datasets: Set<string>; check: ElementsCheck } {
  const elements = new ElementFindings(options, run);
  const datasets = new Set<string>();
  let located = 0;
  const check: ElementsCheck = (index, value, _start, _end, unread) => {
    addDatasetOf(value, datasets);
    const shown = located < limit;
    const found = elements.check(value, index, unread, shown);
    if (!shown) return false;
    for (const f of found) located += isUnknownMembers(f) ? f.keys.length : 1;
    return found.length > 0;
  };
  return { elements, datasets, check };
}

/** The triggers holding a region too deep to read, by their index (-1: the file's one trigger). */
function unreadTriggers(root: SkimNode | undefined, deep: readonly DeepRegion[]): Set<number> {
  const out = new Set<number>();
  if (root === undefined || deep.length === 0) return out;
  if (root.type === 'object') out.add(-1);
  else for (const r of deep) out.add(root.childContaining(r.start)?.slot ?? -1);
  return out;
}

/** Lints the text of a trigger file: one trigger object or an array of them. Never throws on any text. */
export function lint(text: string, options: LintOptions = {}): Diagnostic[] {
  return analyse(text, options).diagnostics;
}

export interface FixAllResult {
  text: string;
  /** How many fixes were applied, over all passes. */
  applied: number;
  /** What is left after fixing. */
  diagnostics: Diagnostic[];
}

/**
 * Applies every fix of a rule that allows it in fix-all. Each pass plans all fixes at once and applies
 * them in one sweep; another pass follows only when a fix made room for one more (a frequency fixed
 * changes the time_range it allows).
 */
export function fixAll(text: string, options: LintOptions = {}): FixAllResult {
  let current = text;
  let applied = 0;
  for (let pass = 0; ; pass++) {
    const analysis = analyse(current, options, { fixAll: pass < 10 });
    const edits = analysis.fixAllEdits ?? [];
    if (edits.length === 0) return { text: current, applied, diagnostics: analysis.diagnostics };
    current = applyOffsetEdits(current, edits);
    for (const e of edits) applied += e.fixes;
  }
}
