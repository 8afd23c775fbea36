// Linter data shapes. Positions follow the LSP convention: 0-based lines and UTF-16 characters,
// ranges end-exclusive.
import type { RuleId, Severity } from './rules';

export type { Severity };

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

/**
 * What kind of JSON syntax fault a `json/syntax` diagnostic is: a comment, a trailing comma, an empty
 * file, or another fault. An editor whose own JSON support reports some kinds leaves those out, so each
 * fault shows once.
 */
export type SyntaxKind = 'comment' | 'trailing-comma' | 'empty' | 'other';

export interface Diagnostic {
  rule: RuleId;
  severity: Severity;
  message: string;
  range: Range;
  /** The member the diagnostic is about; for a missing member, the member itself (the range shows its parent). */
  path: JsonPath;
  fix?: Fix;
  related?: RelatedInformation[];
  /** For `json/syntax` only: the kind of fault. */
  syntax?: SyntaxKind;
}

/**
 * How to declare the trigger's dataset (`undefined`: the trigger names none) as a metrics dataset, e.g.
 * `name it with --metrics-dataset api`: the end of a message about a metrics-only feature on a standard
 * dataset. Only the caller knows how: a CLI flag, an editor setting.
 */
export type MetricsDatasetHint = (slug: string | undefined) => string;

/**
 * What the text is: `file`, a trigger file to write (the default); `listed`, a trigger as the service lists
 * it (a read-only view of it): read-only members, the query_id listed beside an inline query and members
 * the service adds are not problems of the trigger then.
 */
export type TriggerForm = 'file' | 'listed';

/** The columns of one dataset, as the service lists them (GET /1/columns). */
export interface DatasetColumns {
  names: readonly string[];
  /** Those of `names` that are hidden. */
  hidden?: readonly string[];
}

/** A recipient of the account, as the service lists it (GET /1/recipients): its id and how views name it. */
export interface KnownRecipient {
  id: string;
  /** "On-call (PagerDuty)": shown beside a suggested id. */
  name?: string;
  /** Its address, channel or name alone ("ops@example.com"): a trigger that names it instead of the id is told the id. */
  shortName?: string;
  /** Its type as listed (`email`, `slack`, `pagerduty`...). */
  type?: string;
  /**
   * What a recipient named by `type` and `target` (deprecated, spec 9) gives as `target` to mean this one,
   * where the list tells it (an email address, a Slack channel): the one listed recipient of the same type
   * and target is the id the quick fix names it by.
   */
  target?: string;
}

/** What the linter is told beyond the text. New options are optional members, so callers keep compiling. */
export interface LintOptions {
  /** `file` (default) or `listed`: see TriggerForm. */
  form?: TriggerForm;
  /**
   * The columns of the datasets whose columns are known, by slug (`__all__`: every dataset's, for
   * environment-wide triggers). The columns a query names are checked only against a dataset given
   * here: a dataset left out is not checked, never reported.
   */
  columns?: Readonly<Record<string, DatasetColumns>>;
  /**
   * The slugs of every dataset the service has, when they are known (the editor's active connection):
   * a trigger naming another dataset gets a warning (`trigger/unknown-dataset`). Left out: not checked.
   */
  datasets?: readonly string[];
  /**
   * Every recipient of the account, when the caller knows them: each recipient id a trigger names is checked
   * against them. Without them recipient ids are not checked, never reported.
   */
  recipients?: readonly KnownRecipient[];
  /** Dataset slugs that are metrics datasets; every other dataset is standard. */
  metricsDatasets?: readonly string[];
  /**
   * Diagnostics reported per file (default 1,000): past them one diagnostic says how many more there
   * are, as severe as the worst of them, so a huge broken file costs bounded output and memory.
   */
  maxDiagnostics?: number;
  /**
   * Whether each diagnostic carries its quick fix (default true). A report that shows no fix (obs lint's
   * text, JSON and GitHub formats) asks for none, and no fix is made.
   */
  fixes?: boolean;
  /**
   * How to declare a metrics dataset, in the caller's words; without it the messages stay neutral.
   * Pass the same function on every call: checking schemas are cached per function.
   */
  metricsDatasetHint?: MetricsDatasetHint;
  /**
   * Called when JSON.parse has refused the text, before it is read again by the recovering parser: what
   * JSON.parse built before it gave up (up to most of a large file's value) is garbage by then, and a caller
   * that can free it at once (obs, with a full collection, for a large file) keeps it out of the lint's peak.
   */
  afterRefusedParse?: () => void;
}
