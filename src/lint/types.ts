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

export interface LintOptions {
  /** Dataset slugs that are metrics datasets; every other dataset is standard. */
  metricsDatasets?: readonly string[];
}
