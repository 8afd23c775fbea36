// The metrics datasets the editor lints with, for obs lint and obs plan: the workspace's obs.metricsDatasets in
// .vscode/settings.json (JSON with comments and trailing commas, as VS Code reads it), so that the command line
// and the editor give the same verdict on the same files. The current folder's file when it is there, or the
// one --settings names. Read as the editor reads it: the list's strings, anything else in it ignored.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { errorText } from '../api/errors';
import { warn, type MainIo } from './io';
import { METRICS_SETTING, WORKSPACE_SETTINGS } from './metricsHint';
import { decodeStrict, readCommandLineFile, ReadProblem } from './read';
import type { Outcome } from '../result';

/** The datasets the setting lists (none without the file or the setting); `note`: something in it was ignored. */
type MetricsSetting = Outcome<{ datasets: string[]; note?: string }>;

/** Line and column (1-based) of an offset, for a parse error. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before[before.length - 1]?.length ?? 0) + 1}`;
}

/** jsonc-parser's error code as words: CommaExpected, "comma expected". */
const words = (e: ParseError) =>
  printParseErrorCode(e.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();

/** The setting in a settings file's text. */
function settingOf(file: string, text: string): MetricsSetting {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first !== undefined) {
    return {
      ok: false,
      reason: `${file} is not valid JSON with comments: ${words(first)} at ${lineColumn(text, first.offset)}`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: `${file} is not a settings file: it holds no object` };
  }
  const setting = (value as Record<string, unknown>)[METRICS_SETTING];
  if (setting === undefined) return { ok: true, datasets: [] };
  // The editor takes the strings of a list, and nothing of any other value (core/settings.ts).
  const datasets = Array.isArray(setting) ? setting.filter((s): s is string => typeof s === 'string') : [];
  if (Array.isArray(setting) && datasets.length === setting.length) return { ok: true, datasets };
  return {
    ok: true,
    datasets,
    note: `${METRICS_SETTING} in ${file} holds what is not a dataset slug: ignored, as the editor ignores it`,
  };
}

/**
 * The workspace's metrics datasets: from `explicit` (--settings, which must be there), else from the current
 * folder's .vscode/settings.json when it is there.
 */
async function readMetricsSetting(cwd: string, explicit: string | undefined): Promise<MetricsSetting> {
  const file = explicit ?? WORKSPACE_SETTINGS;
  let text: string | undefined;
  try {
    text = decodeStrict(await readCommandLineFile(file, cwd));
  } catch (e) {
    const absent = e instanceof ReadProblem && e.reason === 'missing';
    if (explicit === undefined && absent) return { ok: true, datasets: [] };
    return { ok: false, reason: `cannot read ${file}: ${e instanceof ReadProblem ? e.message : errorText(e)}` };
  }
  if (text === undefined) return { ok: false, reason: `cannot read ${file}: the file is not UTF-8` };
  return settingOf(file, text);
}

/**
 * The metrics datasets obs lints with: the workspace's setting and those of --metrics-dataset; undefined (said on
 * stderr) when the settings file cannot be read.
 */
export async function metricsDatasetsOf(
  flags: readonly string[] | undefined,
  settings: string | undefined,
  io: MainIo,
): Promise<string[] | undefined> {
  const setting = await readMetricsSetting(io.cwd, settings);
  if (!setting.ok) {
    warn(io, setting.reason);
    return undefined;
  }
  if (setting.note !== undefined) warn(io, setting.note);
  return [...new Set([...setting.datasets, ...(flags ?? [])])];
}
