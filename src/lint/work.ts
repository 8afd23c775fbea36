// The work a lint does, counted where it is done, for a caller that measures it: pass a LintWork in
// LintOptions.work and read it after the lint (the tests prove that work stays linear this way). What
// one lint keeps for itself lives in its own LintRun, never in module state, so lints do not share it.

/** Work counters; every lint given the object adds to them. */
export interface LintWork {
  /** Container children indexed while skimming valid JSON (skim.ts). */
  indexed: number;
  /** Child entries read by tree lookups. */
  visits: number;
  /** Characters read by the duplicate-member scan (duplicates.ts). */
  charsScanned: number;
  /** Overlap checks while planning fix-all edits (fixes.ts). */
  compared: number;
  /** Messages worded by the member checks (schema/wording.ts). */
  worded: number;
  /** Nearest-name searches for unknown columns (columns.ts). */
  searches: number;
  /** Diagnostics built (the shown ones). */
  built: number;
  /** Triggers zod parsed (findings.ts); the others had their members accepted without it. */
  zodParses: number;
  /** Texts given whole to JSON.parse (parse.ts); one that cannot be JSON goes to the recovering parser alone. */
  nativeParses: number;
}

/** Counters at zero. */
export const newLintWork = (): LintWork => ({ indexed: 0, visits: 0, charsScanned: 0, compared: 0, worded: 0, searches: 0, built: 0, zodParses: 0, nativeParses: 0 });

/** What one lint keeps to itself. */
export interface LintRun {
  readonly work: LintWork;
  /** Nearest-name searches for unknown columns this lint may still make (columns.ts bounds them per lint). */
  searchesLeft: number;
}
