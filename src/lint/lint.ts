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
import { unknownMember, type Finding, type UnknownMembers } from './issues';
import { targetSpan } from './locate';
import { parseFile, type ElementsCheck, type ParsedFile } from './parse';
import type { SkimNode } from './skim';
import { repairOf } from './repairs';
import { ruleInfo } from './rules';
import { FirstByOffset } from './select';
import { LineIndex } from './text';
import type { Diagnostic, LintOptions } from './types';
import type { LintRun } from './run';

export { MAX_MESSAGE_LENGTH } from './build';

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
  const run: LintRun = { searchesLeft: MAX_SUGGESTION_SEARCHES };
  const early = earlyChecks(options, run, limit);
  const parsed = parseFile(source, limit, early.check, options.afterRefusedParse);
  const lines = new LineIndex(text);
  const shown = new ShownDiagnostics(limit, parsed.moreSyntaxProblems + (extra.encoding?.more ?? 0));
  const before = offerPlacedProblems(shown, parsed, extra.encoding?.problems ?? [], lines);
  // Fixes only for well-formed JSON: on a recovered tree an edit could land in the wrong place. None when
  // the caller shows none (and asks for no fix-all).
  const fixable = options.fixes !== false || extra.fixAll === true;
  const value = parsed.valid && fixable ? parsed.value : undefined;
  const triggers = new TriggerFindingsTaker(shown, limit, parsed.root, before, lines, value, extra.fixAll === true);
  if (parsed.streamed) early.elements.forEach(triggers.visit);
  else
    forEachTriggerFindings(
      parsed.value,
      options,
      run,
      unreadTriggers(parsed.root, parsed.deep),
      triggers.visit,
      triggers.visibleAt,
    );

  const diagnostics = shown.build();
  const analysis: Analysis = {
    diagnostics,
    hidden: shown.hidden,
    datasets: parsed.streamed ? [...early.datasets].sort() : datasetsNamed(parsed.value),
  };
  if (extra.fixAll === true) analysis.fixAllEdits = planFixAll(triggers.targets);
  return analysis;
}

type Build = { severity: Diagnostic['severity']; build: () => Diagnostic | undefined };

/**
 * A lint's diagnostics as they are offered: the first `limit` by offset are kept, each built only at the
 * end (and only if still kept); the others are counted in `hidden`, by severity.
 */
class ShownDiagnostics {
  readonly hidden: Counts;
  private readonly first: FirstByOffset<Build>;

  constructor(
    private readonly limit: number,
    hiddenErrors: number,
  ) {
    this.hidden = { error: hiddenErrors, warning: 0, info: 0 };
    this.first = new FirstByOffset<Build>(limit, (dropped) => this.hidden[dropped.severity]++);
  }

  offer(offset: number, severity: Diagnostic['severity'], build: () => Diagnostic | undefined): void {
    this.first.offer(
      offset,
      () => ({ severity, build }),
      () => this.hidden[severity]++,
    );
  }

  /** Whether a diagnostic at `offset` would be kept now (so a caller can skip making it). */
  wouldKeep(offset: number): boolean {
    return this.first.wouldKeep(offset);
  }

  /** The diagnostics kept, built, in document order: after one saying what was left out (if anything was). */
  build(): Diagnostic[] {
    const diagnostics: Diagnostic[] = [];
    for (const item of this.first.sorted()) {
      const d = item.build();
      if (d !== undefined) diagnostics.push(d);
    }
    const hidden = this.hidden;
    if (hidden.error + hidden.warning + hidden.info > 0) diagnostics.unshift(summaryDiagnostic(hidden, this.limit));
    return diagnostics;
  }
}

/**
 * Offers the problems the decoding and the parse placed already. Returns their offsets, sorted: they
 * tell how many come before a trigger.
 */
function offerPlacedProblems(
  shown: ShownDiagnostics,
  parsed: ParsedFile,
  encoding: readonly EncodingProblem[],
  lines: LineIndex,
): number[] {
  const root = parsed.root;
  const fixable = parsed.valid;
  const before: number[] = [];
  for (const e of encoding) {
    before.push(e.offset);
    shown.offer(e.offset, 'error', () => plainDiagnostic('file/encoding', e.message, e.offset, 1, lines));
  }
  for (const p of parsed.syntaxProblems) {
    before.push(p.offset);
    shown.offer(p.offset, 'error', () => ({
      ...plainDiagnostic('json/syntax', p.message, p.offset, p.length, lines),
      syntax: p.kind,
    }));
  }
  for (const r of parsed.deep) {
    before.push(r.start);
    shown.offer(r.start, 'error', () => plainDiagnostic('json/too-deep', tooDeepMessage(), r.start, 1, lines));
  }
  const duplicates = parsed.duplicates;
  for (let d = 0; d + 1 < duplicates.length; d += 2) {
    const ignored = duplicates[d] ?? 0;
    const next = duplicates[d + 1] ?? 0;
    before.push(ignored);
    shown.offer(ignored, 'warning', () =>
      root === undefined ? undefined : duplicateDiagnostic(root, ignored, next, lines, fixable),
    );
  }
  before.sort((a, b) => a - b);
  return before;
}

/**
 * Takes the triggers' findings, trigger after trigger in document order (`visit`): offers those that can
 * be shown, counts the others, and gathers the targets of fix-all (with `fixAll`, on a file with a `value`).
 */
class TriggerFindingsTaker {
  readonly targets: FixTarget[] = [];
  /** Findings counted against the limit so far. */
  private located = 0;
  /** How many of the placed problems (`before`) lie before the trigger last asked about. */
  private placed = 0;
  private askedIndex: number | undefined;
  private askedVisible = false;

  constructor(
    private readonly shown: ShownDiagnostics,
    private readonly limit: number,
    private readonly root: SkimNode | undefined,
    private readonly before: readonly number[],
    private readonly lines: LineIndex,
    private readonly value: unknown,
    private readonly fixAll: boolean,
  ) {}

  // Triggers lie in order: once `limit` diagnostics come before one, none of its findings is shown, and
  // they are counted without being worded. (A trigger's start is looked up only while that is undecided:
  // the array is skimmed only that far.) Asked before a trigger is checked and again when its findings come.
  readonly visibleAt = (index: number): boolean => {
    if (index === this.askedIndex) return this.askedVisible;
    const root = this.root;
    let visible = root !== undefined && this.located < this.limit;
    // Only problems placed before the trigger count against the limit: with none left to place (most
    // files), its start is not needed, and the array is not skimmed for it.
    if (visible && root !== undefined) {
      const before = this.before;
      if (this.placed < before.length) {
        const start = index < 0 ? root.offset : root.childStart(index);
        while (this.placed < before.length && (before[this.placed] ?? 0) < start) this.placed++;
      }
      visible = this.placed + this.located < this.limit;
    }
    this.askedIndex = index;
    this.askedVisible = visible;
    return visible;
  };

  readonly visit = (index: number, found: Found): void => {
    // A value always comes with a tree; without one there is nothing to locate.
    const root = this.root;
    if (root === undefined) return;
    const visible = this.visibleAt(index);
    for (const f of found) {
      if (isUnknownMembers(f)) this.unknownMembers(f, visible, root);
      else this.finding(f, visible, root);
    }
  };

  private unknownMembers(f: UnknownMembers, visible: boolean, root: SkimNode): void {
    if (!visible) {
      this.shown.hidden.warning += f.keys.length;
      return;
    }
    const object = findValueNode(root, f.at);
    for (const key of f.keys) {
      const span = object?.memberSpan(key) ?? targetSpan(root, [...f.at, key], object);
      // The finding is made only for a member that is shown.
      if (this.shown.wouldKeep(span.offset)) this.offer(unknownMember(f, key), span, root);
      else this.shown.hidden.warning++;
    }
    this.located += f.keys.length;
  }

  private finding(f: Finding, visible: boolean, root: SkimNode): void {
    if (visible) this.located++;
    const info = ruleInfo(f.rule);
    if (this.value !== undefined && this.fixAll && info.inFixAll) {
      const repair = repairOf(f, root, this.value);
      if (repair !== undefined) this.targets.push(repair.target);
    }
    if (visible) this.offer(f, targetSpan(root, f.at), root);
    else this.shown.hidden[info.severity]++;
  }

  private offer(f: Finding, span: { offset: number; length: number }, root: SkimNode): void {
    const { lines, value } = this;
    this.shown.offer(span.offset, ruleInfo(f.rule).severity, () => findingDiagnostic(f, span, root, lines, value));
  }
}

/**
 * The triggers of a broken file's top-level array, checked as they are read (parse.ts) so that the file's
 * value is never held whole; `visit` takes their findings after the parse, as it takes a valid file's.
 * Whether a trigger's findings can be shown is known only then (problems found later may come before
 * it), so it is told here as `located < limit` alone: never "no" when the answer will be "yes" (a trigger
 * told "yes" and found not shown only had its messages worded for nothing). Only a trigger told "yes"
 * with findings keeps its part of the tree, to locate them.
 */
function earlyChecks(
  options: LintOptions,
  run: LintRun,
  limit: number,
): { elements: ElementFindings; datasets: Set<string>; check: ElementsCheck } {
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
