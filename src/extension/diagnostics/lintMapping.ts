// From linter output to what VS Code shows: diagnostics and code actions, as plain data (no vscode
// import) so the mapping is unit-tested; diagnostics/triggerDiagnostics.ts makes vscode objects of it.
// Only the linter's types and two small modules: the linter itself runs in a worker (lintWorker.ts), so
// this module (loaded at activation) must not pull it, its schemas and zod into the extension bundle.
import type { Diagnostic as LintDiagnostic, MetricsDatasetHint, Range, RuleId, TextEdit } from '../../lint';
import { LineIndex } from '../../lint/text';
import * as l10n from '@vscode/l10n';
import { ruleDocsUrl } from './ruleDocs';

export const LINT_SOURCE = 'obs-lint';
/** The kind of the fix-all source action: `source.fixAll.obs`. */
export const FIX_ALL_KIND_SUFFIX = 'obs';

/** The editor's wording of how to declare a metrics dataset (the linter names no setting); it names obs-lint's flag too, as it always has. */
export const EDITOR_METRICS_DATASET_HINT: MetricsDatasetHint = (slug) =>
  l10n.t(
    'name it with {0} (editor setting {1})',
    slug === undefined ? '--metrics-dataset' : `--metrics-dataset ${slug}`,
    'obs.metricsDatasets',
  );

/** Mirrors vscode.DiagnosticSeverity (Error 0, Warning 1, Information 2). */
export const SEVERITY = { error: 0, warning: 1, info: 2 } as const;
/** Mirrors vscode.DiagnosticTag (Unnecessary 1, Deprecated 2). */
export const TAG = { unnecessary: 1, deprecated: 2 } as const;

export interface DiagnosticData {
  range: Range;
  message: string;
  severity: (typeof SEVERITY)[keyof typeof SEVERITY];
  source: typeof LINT_SOURCE;
  code: { value: string; target: string };
  tags: (typeof TAG)[keyof typeof TAG][];
  related: { message: string; range: Range }[];
}

/** Rules whose findings VS Code should show struck through (deprecated) or faded (unnecessary). */
const DEPRECATED_RULES: ReadonlySet<RuleId> = new Set<RuleId>(['trigger/recipient-deprecated']);
const UNNECESSARY_RULES: ReadonlySet<RuleId> = new Set<RuleId>(['trigger/read-only-member']);

export function toDiagnosticData(
  d: LintDiagnostic,
  docsUrl: string,
  anchorLines?: ReadonlyMap<string, number>,
): DiagnosticData {
  const tags: DiagnosticData['tags'] = [];
  if (DEPRECATED_RULES.has(d.rule)) tags.push(TAG.deprecated);
  if (UNNECESSARY_RULES.has(d.rule)) tags.push(TAG.unnecessary);
  return {
    range: d.range,
    message: d.message,
    severity: SEVERITY[d.severity],
    source: LINT_SOURCE,
    code: { value: d.rule, target: ruleDocsUrl(docsUrl, d.rule, anchorLines) },
    tags,
    related: (d.related ?? []).map((r) => ({ message: r.message, range: r.range })),
  };
}

export interface CodeActionData {
  title: string;
  kind: 'quickfix' | 'source.fixAll';
  edits: TextEdit[];
  isPreferred: boolean;
  /** The lint diagnostic the action fixes (quick fixes only). */
  fixes?: LintDiagnostic;
}

function intersects(a: Range, b: Range): boolean {
  const before = (p: Range['start'], q: Range['start']) =>
    p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

const rangeKey = (code: string, r: Range) =>
  `${code}\u0000${r.start.line}:${r.start.character}:${r.end.line}:${r.end.character}`;

/**
 * The fixable diagnostics of one lint, by rule and range: made once per document version, so each
 * code action request is a few lookups however many diagnostics the file has.
 */
export class QuickFixIndex {
  private readonly byKey = new Map<string, LintDiagnostic[]>();
  /** Diagnostics with a fix. */
  readonly fixable: number = 0;

  constructor(private readonly diagnostics: readonly LintDiagnostic[]) {
    let fixable = 0;
    for (const d of diagnostics) {
      if (d.fix === undefined) continue;
      fixable++;
      const key = rangeKey(d.rule, d.range);
      const same = this.byKey.get(key);
      if (same === undefined) this.byKey.set(key, [d]);
      else same.push(d);
    }
    this.fixable = fixable;
  }

  /**
   * Quick fixes for the diagnostics the editor asks about (matched by rule and range), each preferred
   * when it is the only fix offered for its diagnostic.
   */
  quickFixes(asked: readonly { code: string; range: Range }[]): CodeActionData[] {
    const out: CodeActionData[] = [];
    for (const a of asked) {
      const fixable = this.byKey.get(rangeKey(a.code, a.range)) ?? [];
      for (const d of fixable) {
        if (!d.fix) continue;
        out.push({
          title: d.fix.title,
          kind: 'quickfix',
          edits: d.fix.edits,
          isPreferred: fixable.length === 1,
          fixes: d,
        });
      }
    }
    return out;
  }

  /** Quick fixes for every fixable diagnostic touching a range (when the editor gives no diagnostics). */
  quickFixesInRange(range: Range): CodeActionData[] {
    return this.quickFixes(
      this.diagnostics
        .filter((d) => d.fix !== undefined && intersects(d.range, range))
        .map((d) => ({ code: d.rule, range: d.range })),
    );
  }
}

/** Quick fixes for the diagnostics asked about (see QuickFixIndex; an index made for one request). */
export function quickFixes(
  lintResult: readonly LintDiagnostic[],
  asked: readonly { code: string; range: Range }[],
): CodeActionData[] {
  return new QuickFixIndex(lintResult).quickFixes(asked);
}

/** Quick fixes for every fixable diagnostic touching a range (when the editor gives no diagnostics). */
export function quickFixesInRange(lintResult: readonly LintDiagnostic[], range: Range): CodeActionData[] {
  return new QuickFixIndex(lintResult).quickFixesInRange(range);
}

/**
 * One edit that turns `before` into `after`: the changed middle, common prefix and suffix kept, so the
 * cursor and folding outside the change stay where they were.
 */
export function minimalEdit(before: string, after: string): TextEdit | undefined {
  if (before === after) return undefined;
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)) {
    endBefore--;
    endAfter--;
  }
  const lines = new LineIndex(before);
  return { range: lines.range(start, endBefore - start), newText: after.slice(start, endAfter) };
}

/** The "fix all" action of an edit that fixes everything fix-all fixes (lintJobs.ts computes it). */
export function fixAllAction(edit: TextEdit | undefined): CodeActionData | undefined {
  return edit === undefined
    ? undefined
    : { title: l10n.t('Fix all auto-fixable problems'), kind: 'source.fixAll', edits: [edit], isPreferred: false };
}

export interface LintCounts {
  errors: number;
  warnings: number;
  infos: number;
}

/** Problems by severity; `hidden` (from the linter's report) stands for those past the per-file limit. */
export function countBySeverity(
  diagnostics: readonly LintDiagnostic[],
  hidden?: { error: number; warning: number; info: number },
): LintCounts {
  const c: LintCounts = { errors: hidden?.error ?? 0, warnings: hidden?.warning ?? 0, infos: hidden?.info ?? 0 };
  for (const d of diagnostics) {
    // It stands for the hidden ones, counted above.
    if (hidden !== undefined && d.rule === 'file/too-many-problems') continue;
    if (d.severity === 'error') c.errors++;
    else if (d.severity === 'warning') c.warnings++;
    else c.infos++;
  }
  return c;
}

/** "Linted 12 files: 3 errors, 1 warning, 0 infos in 2 files." (trigger, burn alert and definitions files alike) */
export function lintSummary(files: number, filesWithProblems: number, c: LintCounts): string {
  // Each count with its noun as one text per number form (languages inflect differently).
  const lintedFiles = (n: number) => (n === 1 ? l10n.t('1 file') : l10n.t('{0} files', n));
  if (files === 0) return l10n.t('No trigger, burn alert or definitions file found in the workspace.');
  const problems = c.errors + c.warnings + c.infos;
  if (problems === 0) return l10n.t('Linted {0}: no problems.', lintedFiles(files));
  return l10n.t(
    'Linted {0}: {1}, {2}, {3} in {4}.',
    lintedFiles(files),
    c.errors === 1 ? l10n.t('1 error') : l10n.t('{0} errors', c.errors),
    c.warnings === 1 ? l10n.t('1 warning') : l10n.t('{0} warnings', c.warnings),
    c.infos === 1 ? l10n.t('1 info') : l10n.t('{0} infos', c.infos),
    filesWithProblems === 1 ? l10n.t('1 file') : l10n.t('{0} files', filesWithProblems),
  );
}
