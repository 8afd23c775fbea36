// The SARIF 2.1.0 report of `obs lint`, for code-scanning tools. SARIF lines and columns are 1-based (LSP's are
// 0-based); columns count UTF-16 code units, as the run declares.
import { pathToFileURL } from 'node:url';
import { isAbsolute } from 'node:path';
import { repository, version } from '../../package.json';
import {
  RULES,
  RULES_DOC_PATH,
  ruleDocsAnchor,
  type Diagnostic,
  type LintReport,
  type Range,
  type Severity,
} from '../lint';

const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

/** Where docs/rules.md is published: the repository of package.json, main branch. */
function rulesDocUrl(): string {
  const base = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  return `${base}/blob/main/${RULES_DOC_PATH}`;
}

export interface FileReport {
  /** The path as given on the command line. */
  file: string;
  diagnostics: Diagnostic[];
  /** Diagnostics left out past --max-problems, by severity (one diagnostic stands for them). */
  hidden?: LintReport['hidden'];
  /** Set when the file could not be read. */
  error?: string;
}

type SarifLevel = 'error' | 'warning' | 'note';
const LEVEL: Record<Severity, SarifLevel> = { error: 'error', warning: 'warning', info: 'note' };

interface SarifRegion {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

function region(range: Range): SarifRegion {
  return {
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  if (isAbsolute(file)) return { uri: pathToFileURL(file).href };
  return { uri: encodeURI(file.split('\\').join('/')), uriBaseId: '%SRCROOT%' };
}

/** The SARIF result of one diagnostic of `file`: where it is, its related places and its fix. */
function sarifResult(file: string, d: Diagnostic, ruleIndex: ReadonlyMap<string, number>): Record<string, unknown> {
  const location = { physicalLocation: { artifactLocation: artifactLocation(file), region: region(d.range) } };
  const result: Record<string, unknown> = {
    ruleId: d.rule,
    ruleIndex: ruleIndex.get(d.rule),
    level: LEVEL[d.severity],
    message: { text: d.message },
    locations: [location],
  };
  if (d.related !== undefined) {
    result.relatedLocations = d.related.map((r, i) => ({
      id: i,
      message: { text: r.message },
      physicalLocation: { artifactLocation: artifactLocation(file), region: region(r.range) },
    }));
  }
  if (d.fix !== undefined) {
    result.fixes = [
      {
        description: { text: d.fix.title },
        artifactChanges: [
          {
            artifactLocation: artifactLocation(file),
            replacements: d.fix.edits.map((e) => ({
              deletedRegion: region(e.range),
              insertedContent: { text: e.newText },
            })),
          },
        ],
      },
    ];
  }
  return result;
}

/** The tool's driver: its name, version and every rule with where its documentation is. */
function sarifDriver(docs: string): object {
  return {
    name: 'obs-lint',
    version,
    informationUri: docs,
    rules: RULES.map((r) => ({
      id: r.id,
      name: r.id,
      shortDescription: { text: r.summary },
      helpUri: `${docs}#${ruleDocsAnchor(r.id)}`,
      defaultConfiguration: { level: LEVEL[r.severity] },
      properties: { fixable: r.fixable },
    })),
  };
}

/** The invocation: it succeeded only when every file was read and the command line had no problem. */
function sarifInvocation(reports: readonly FileReport[], problems: readonly string[]): object {
  const unreadable = reports.filter((r) => r.error !== undefined);
  return {
    executionSuccessful: unreadable.length === 0 && problems.length === 0,
    toolExecutionNotifications: [
      ...problems.map((problem) => ({ level: 'error', message: { text: problem } })),
      ...unreadable.map((r) => ({
        level: 'error',
        message: { text: `cannot read ${r.file}: ${r.error}` },
        locations: [{ physicalLocation: { artifactLocation: artifactLocation(r.file) } }],
      })),
    ],
  };
}

/**
 * One SARIF log for all files; `cwd` is the root relative paths are resolved from. Unreadable files
 * and `problems` of the invocation (a glob that matched nothing) are error notifications.
 */
export function toSarif(reports: readonly FileReport[], cwd: string, problems: readonly string[] = []): object {
  const ruleIndex = new Map<string, number>(RULES.map((r, i) => [r.id, i]));
  const results = reports.flatMap((report) => report.diagnostics.map((d) => sarifResult(report.file, d, ruleIndex)));
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: sarifDriver(rulesDocUrl()) },
        originalUriBaseIds: { '%SRCROOT%': { uri: `${pathToFileURL(cwd).href.replace(/\/?$/, '/')}` } },
        columnKind: 'utf16CodeUnits',
        invocations: [sarifInvocation(reports, problems)],
        results,
      },
    ],
  };
}
