// The run of `obs lint` (declared in lint.ts, loaded when the command runs): reads the files, lints
// each and prints the report in the order the files were given.
import { errorText } from '../api/errors';
import { decodeTriggerFile, sloFileKind, type DatasetColumns } from '../lint';
import { datasetsNamed } from '../lint/columns';
import { TRIGGER_FILE_SUFFIX } from '../triggerFiles/paths';
import { expandTargets } from './files';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, writeData, type MainIo } from './io';
import { metricsDatasetsOf } from './workspaceSettings';
import { writeGithubReport } from './github/report';
import { lintAnnotations } from './lintGithub';
import { lintFiles, lintOptions, readFiles } from './lintFiles';
import { lintCounts, lintSummary, toJson, toText } from './lintReport';
import { lintMarkdown } from './markdown/lint';
import { toSarif } from './lintSarif';
import { visibleJson } from './visible';
import type { CliEnvironment, EnvironmentInvocation } from './environment';
import type { EnvironmentLint } from './lintEnvironment';
import type { Outcome } from '../result';
import { canonicalDatasetSlug } from '../triggerFiles/normalize';

/** The options of `obs lint` as commander parses them (lint.ts declares them). */
export interface LintInvocation extends EnvironmentInvocation {
  format: 'text' | 'json' | 'sarif' | 'github';
  /** The least severity that exits 1: `error` (the default) or `warning` (a warning too). */
  failOn: 'error' | 'warning';
  metricsDataset?: string[];
  /** The settings file the workspace's metrics datasets are read from (default: the current folder's). */
  settings?: string;
  maxProblems: number;
  maxBytes: number;
  columnsFromService?: boolean;
}

/** The datasets a file names, when it is JSON (the columns to read for it): its triggers', or a definitions file's. */
function datasetsOf(file: string, bytes: Uint8Array): string[] {
  try {
    const value: unknown = JSON.parse(decodeTriggerFile(bytes, 0).text);
    const kind = sloFileKind(file);
    if (kind === undefined) return datasetsNamed(value);
    const slug =
      kind === 'definitions' && typeof value === 'object' && value !== null && 'dataset_slug' in value
        ? value.dataset_slug
        : undefined;
    return typeof slug === 'string' ? [slug] : [];
  } catch {
    return [];
  }
}

/** The columns of the datasets the files name, read from the service; undefined (said on stderr) when they could not be read. */
async function serviceColumns(
  files: readonly string[],
  io: MainIo,
  maxBytes: number,
  environment: CliEnvironment | undefined,
): Promise<Record<string, DatasetColumns> | undefined> {
  // A first read for the datasets the files name (the bytes are not kept: files may be large); with --env, the
  // environment's slugs of them.
  const slugs = environment?.plan.overlay?.datasets ?? {};
  const named = new Set<string>();
  await readFiles(files, io, maxBytes, (r, file) => {
    if ('bytes' in r && r.bytes !== undefined)
      for (const d of datasetsOf(file, r.bytes)) named.add(slugs[canonicalDatasetSlug(d)] ?? d);
  });
  try {
    // The client (and undici) load only for this option.
    const [{ clientFromEnvironment }, { readColumns }] = await Promise.all([import('./service'), import('./columns')]);
    const client = clientFromEnvironment(io.env ?? {});
    try {
      const found = await readColumns(client, [...named].sort());
      for (const d of found.missing) warn(io, `the service has no dataset ${d}: its columns are not checked`);
      return found.columns;
    } finally {
      await client.close();
    }
  } catch (e) {
    warn(io, `could not read the columns from the service: ${errorText(e)}`);
    return undefined;
  }
}

/**
 * The environment of --env and its lint; their modules (the environments file's reader, zod, crypto) load only
 * with --env or --environments, so that obs lint starts without them.
 */
async function environmentOfRun(
  invocation: LintInvocation,
  targets: readonly string[],
  io: MainIo,
  asksService: boolean,
): Promise<Outcome<{ value: { env: CliEnvironment; lint: EnvironmentLint } | undefined }>> {
  if (invocation.env === undefined && invocation.environments === undefined) return { ok: true, value: undefined };
  const [{ environmentOf }, { EnvironmentLint }] = await Promise.all([
    import('./environment'),
    import('./lintEnvironment'),
  ]);
  const found = await environmentOf(invocation, targets, io, asksService);
  if (!found.ok) return found;
  return { ok: true, value: found.value && { env: found.value, lint: new EnvironmentLint(found.value) } };
}

export async function runLint(targets: readonly string[], invocation: LintInvocation, given: MainIo): Promise<number> {
  const { files, problems, nothing, named: nameds } = await expandTargets(targets, given.cwd, TRIGGER_FILE_SUFFIX);
  // A path that names nothing (a typo, a glob of the wrong folder) stops the run: no report of the rest.
  if (nothing.length > 0) {
    for (const problem of problems) warn(given, problem);
    return EXIT_TROUBLE;
  }
  const asksService = invocation.columnsFromService === true;
  const environment = await environmentOfRun(invocation, targets, given, asksService);
  if (!environment.ok) {
    warn(given, `${environment.reason}; nothing was checked`);
    return EXIT_TROUBLE;
  }
  // With --env the service is the one the environment's variables name.
  const io = environment.value === undefined ? given : { ...given, env: environment.value.env.serviceEnv };
  const metrics = await metricsDatasetsOf(invocation.metricsDataset, invocation.settings, io);
  if (metrics === undefined) return EXIT_TROUBLE;
  let columns: Record<string, DatasetColumns> | undefined;
  if (asksService) {
    columns = await serviceColumns(files, io, invocation.maxBytes, environment.value?.env);
    if (columns === undefined) return EXIT_TROUBLE;
  }
  // Only SARIF shows a diagnostic's fix: the other reports ask for none, and none is made.
  const options = { ...lintOptions(invocation, metrics, columns), fixes: invocation.format === 'sarif' };
  const envLint = environment.value?.lint;
  const named = new Set(nameds);
  const linted = await lintFiles(files, options, io, invocation.maxBytes, envLint && { lint: envLint, named });
  const reports = envLint === undefined ? linted : envLint.withEnvironmentsFile(linted, io.cwd);

  for (const problem of problems) warn(io, problem);
  for (const r of reports) if (r.error !== undefined) warn(io, `cannot read ${r.file}: ${r.error}`);

  switch (invocation.format) {
    case 'json':
      writeData(io, toJson(reports));
      break;
    case 'sarif':
      writeData(io, `${visibleJson(toSarif(reports, io.cwd, problems))}\n`);
      break;
    case 'github':
      await writeGithubReport(io, {
        command: 'lint',
        annotations: lintAnnotations(reports, problems),
        summaryLine: lintSummary(reports.filter((r) => r.error === undefined)),
        markdown: lintMarkdown(reports),
        fullReport: 'obs lint --format json',
      });
      break;
    default:
      io.stdout(toText(reports.filter((r) => r.error === undefined)));
  }
  if (problems.length > 0 || reports.some((r) => r.error !== undefined)) return EXIT_TROUBLE;
  const found = lintCounts(reports);
  return found.error + (invocation.failOn === 'warning' ? found.warning : 0) > 0 ? EXIT_FOUND : EXIT_OK;
}
