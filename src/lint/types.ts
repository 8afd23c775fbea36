// Linter data shapes. Positions follow the LSP convention: 0-based lines and UTF-16 characters,
// ranges end-exclusive.
import type { RuleId, Severity } from './rules';

export type { RuleId, Severity };

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface TextEdit {
  range: Range;
  newText: string;
}

/** Edits that together repair one diagnostic; applied as a unit. */
export interface Fix {
  title: string;
  edits: TextEdit[];
}

export interface RelatedInformation {
  message: string;
  range: Range;
}

/** Location of a member in the file's JSON value (array indexes as numbers). */
export type JsonPath = (string | number)[];

export interface Diagnostic {
  rule: RuleId;
  severity: Severity;
  message: string;
  range: Range;
  /** The member the diagnostic is about; for a missing member, the member itself (the range shows its parent). */
  path: JsonPath;
  fix?: Fix;
  related?: RelatedInformation[];
}

/**
 * How to declare the trigger's dataset (`undefined`: the trigger names none) as a metrics dataset, e.g.
 * `name it with --metrics-dataset api`: the end of a message about a metrics-only feature on a standard
 * dataset. Only the caller knows how: a CLI flag, an editor setting.
 */
export type MetricsDatasetHint = (slug: string | undefined) => string;

/** What the linter is told beyond the text. New options are optional members, so callers keep compiling. */
export interface LintOptions {
  /** Dataset slugs that are metrics datasets; every other dataset is standard. */
  metricsDatasets?: readonly string[];
  /**
   * Diagnostics reported per file (default 1,000): past them one diagnostic says how many more there
   * are, as severe as the worst of them, so a huge broken file costs bounded output and memory.
   */
  maxDiagnostics?: number;
  /**
   * How to declare a metrics dataset, in the caller's words; without it the messages stay neutral.
   * Pass the same function on every call: checking schemas are cached per function.
   */
  metricsDatasetHint?: MetricsDatasetHint;
}
