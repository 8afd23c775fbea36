// The run of `obs drift` (declared in drift.ts, loaded when the command runs).
import {
  driftCounts,
  driftOfFile,
  filesHoldReference,
  kindOfFile,
  KeptSloReads,
  sloChangesSince,
  sloFilesOf,
  listTeam,
  onlyOnService,
  PacedPool,
  serviceChangesSince,
  sloDrift,
  withoutIds,
  withReferencesResolved,
  withSloCounts,
  type RecipientLister,
  type ServiceIndex,
  type SloFileDrift,
  type SloPlanFile,
  type SloReads,
  type TeamRecipients,
} from '../triggerFiles';
import { driftAnnotations } from './driftGithub';
import { driftJson, driftSarif, driftSummary, driftText, type DriftRun } from './driftReport';
import { unreadableAnnotations, writeGithubReport } from './github/report';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, writeData, type MainIo } from './io';
import { driftMarkdown } from './markdown/drift';
import { markdownText } from './markdown/text';
import { clientFromEnvironment } from './service';
import { readTriggerFiles, serviceIndexFor, sourcesOf, type ReadFiles } from './triggerInputs';
import { visible, visibleJson } from './visible';
import {
  environmentOf,
  findEnvironmentsFile,
  readCliEnvironment,
  type CliEnvironment,
  type EnvironmentInvocation,
} from './environment';
import type { PlanEnvironment } from '../triggerFiles';
import { fileAsSeenBy, sloFileAsSeenBy, unusedOverrideEntries } from '../triggerFiles/environmentPlan';
import type { Outcome } from '../result';

/** The options of `obs drift` as commander parses them (drift.ts declares them). */
export interface DriftInvocation extends EnvironmentInvocation {
  format: 'text' | 'json' | 'sarif' | 'github';
  concurrency: number;
  maxBytes: number;
  matchByName?: boolean;
  /** The paths of the trigger files last applied: report only what changed on the service since. */
  applied?: string[];
}

/** The files under the paths, read as a plan reads them, and the burn alert and definitions files among them. */
interface DriftFiles extends ReadFiles {
  sloFiles: SloPlanFile[];
}

/**
 * The files under the paths: `read` holds the trigger files, with --match-by-name as if they named no id (the
 * plan pipeline's matching); the burn alert and definitions files go to the plan's comparison of them.
 */
async function readFiles(paths: readonly string[], invocation: DriftInvocation, io: MainIo): Promise<DriftFiles> {
  const files = await readTriggerFiles(paths, io, invocation.maxBytes, 'every kind');
  const triggers = [...files.read].filter(([file]) => kindOfFile(file) === 'trigger');
  const read = invocation.matchByName === true ? triggers.map(([f, r]) => [f, withoutIds(r)] as const) : triggers;
  // A file that could not be read is said on stderr already, as for triggers: only those read are compared.
  const sloFiles = sloFilesOf(sourcesOf({ ...files, unreadable: new Map() }));
  return { ...files, read: new Map(read), sloFiles };
}

/**
 * The trigger files as the environment sees them (each trigger made effective, found by dataset and name); a file
 * whose trigger cannot be taken there cannot be compared, said why. Each override that names no trigger of the
 * files found by a walk is said on stderr: false then.
 */
function asSeenBy(files: DriftFiles, env: PlanEnvironment | undefined, io: MainIo): { files: DriftFiles; ok: boolean } {
  const overlay = env?.overlay;
  if (env === undefined || overlay === undefined) return { files, ok: true };
  const walked: { dataset: string; name: string }[] = [];
  const read = [...files.read].map(([file, r]) => {
    const text = files.texts.get(file);
    if (!r.ok || text === undefined) return [file, r] as const;
    const seen = fileAsSeenBy(text, { name: env.name, overlay });
    if (!files.named.has(file)) walked.push(...(seen.triggers ?? []));
    return [file, seen.file] as const;
  });
  const unused = unusedOverrideEntries(env, walked).flatMap((b) => b.reasons);
  for (const u of unused) warn(io, `${env.file}: ${u}`);
  // Burn alert and definitions files too, as a plan for the environment compares them.
  const sloFiles = files.sloFiles.map((f) => sloFileAsSeenBy(f, overlay));
  return { files: { ...files, read: new Map(read), sloFiles }, ok: unused.length === 0 };
}

/** The environment of the files last applied: the environments file above them, or else the one of PATH. */
async function appliedEnvironment(
  applied: readonly string[],
  current: CliEnvironment,
  io: MainIo,
): Promise<Outcome<{ value: CliEnvironment }>> {
  const found = await findEnvironmentsFile(applied, io.cwd);
  if (!found.ok || found.file === current.record.file) return { ok: true, value: current };
  return readCliEnvironment(current.record.name, found.file, io);
}

/** Each file against the service. */
function driftOf(files: ReadFiles, index: ServiceIndex, sloFiles: SloFileDrift[]): DriftRun {
  const drift = [...files.read].map(([file, r]) => driftOfFile(file, r, index));
  const only = onlyOnService(drift, index);
  const counts = withSloCounts(driftCounts(drift, only), sloFiles);
  return { files: drift, onlyOnService: only, sloFiles, counts, texts: files.texts };
}

type Team = () => Promise<TeamRecipients | undefined>;

/** The team's recipients, listed once and only when a file names one by type and target: drift resolves it. */
function teamOnce(client: RecipientLister, io: MainIo): Team {
  let listed: Promise<TeamRecipients | undefined> | undefined;
  return () =>
    (listed ??= listTeam(client, io.signal).then((r) => {
      if (r.ok) return r.team;
      warn(
        io,
        `the team's recipients could not be listed (${r.reason}): recipients named by type and target are not compared`,
      );
      return undefined;
    }));
}

/** The trigger files with the recipients they name by type and target resolved against the team. */
async function resolved(files: DriftFiles, team: Team): Promise<DriftFiles> {
  if (!filesHoldReference(files.read.values())) return files;
  const t = await team();
  return { ...files, read: new Map([...files.read].map(([f, r]) => [f, withReferencesResolved(r, t)] as const)) };
}

/** The burn alert and definitions files against the service, compared as a plan compares them. */
function sloDriftOf(files: DriftFiles, service: SloReads, invocation: DriftInvocation, io: MainIo, team: Team) {
  if (files.sloFiles.length === 0) return Promise.resolve([]);
  return sloDrift(files.sloFiles, service, new PacedPool({ concurrency: invocation.concurrency }), {
    matchByName: invocation.matchByName === true,
    team,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  });
}

/**
 * The files last applied against the service, a trigger, burn alert or definitions held as the files wanted now
 * say taken as in sync.
 */
function changedSince(
  applied: ReadFiles,
  current: ReadFiles,
  index: ServiceIndex,
  slo: { applied: SloFileDrift[]; current: SloFileDrift[] },
): DriftRun {
  const changes = serviceChangesSince(applied.read, current.read, index);
  const sloFiles = sloChangesSince(slo.applied, slo.current);
  const counts = withSloCounts(driftCounts(changes.files, changes.onlyOnService), sloFiles);
  return { ...changes, sloFiles, counts, texts: applied.texts };
}

/** The environments of PATH and of --applied, or why not (said by the caller). */
async function environmentsOf(paths: readonly string[], invocation: DriftInvocation, io: MainIo) {
  const current = await environmentOf(invocation, paths, io);
  if (!current.ok || current.value === undefined || invocation.applied === undefined)
    return current.ok ? { ok: true as const, current: current.value, applied: current.value } : current;
  const applied = await appliedEnvironment(invocation.applied, current.value, io);
  return applied.ok ? { ok: true as const, current: current.value, applied: applied.value } : applied;
}

export async function runDrift(paths: readonly string[], invocation: DriftInvocation, given: MainIo): Promise<number> {
  const environments = await environmentsOf(paths, invocation, given);
  if (!environments.ok) {
    warn(given, `${environments.reason}; nothing was compared`);
    return EXIT_TROUBLE;
  }
  // With --env the service is the one the environment's variables name, and the files are as it sees them.
  const io = environments.current === undefined ? given : { ...given, env: environments.current.serviceEnv };
  const seen = { ...invocation, matchByName: invocation.matchByName === true || isAway(environments.current) };
  const currentSeen = asSeenBy(await readFiles(paths, seen, io), environments.current?.plan, io);
  const appliedSeen =
    invocation.applied === undefined
      ? undefined
      : asSeenBy(await readFiles(invocation.applied, seen, io), environments.applied?.plan, io);
  const current = currentSeen.files;
  const applied = appliedSeen?.files;
  const overridesOk = currentSeen.ok && appliedSeen?.ok !== false;
  // A path that names nothing (said on stderr) stops drift before it asks the service: no report to misread.
  if (current.nothing.length > 0 || (applied?.nothing.length ?? 0) > 0) return EXIT_TROUBLE;
  const client = clientFromEnvironment(io.env ?? {});
  let run: DriftRun;
  let serviceOk: boolean;
  try {
    const read = [...current.read.values(), ...(applied?.read.values() ?? [])];
    const found = await serviceIndexFor(client, read, invocation.concurrency, io);
    serviceOk = found.ok;
    const team = teamOnce(client, io);
    // The reads of burn alerts and definitions are made once for both sets of files.
    const reads = new KeptSloReads(client);
    const sloNow = await sloDriftOf(current, reads, seen, io, team);
    run =
      applied === undefined
        ? driftOf(await resolved(current, team), found.index, sloNow)
        : changedSince(applied, current, found.index, {
            applied: await sloDriftOf(applied, reads, seen, io, team),
            current: sloNow,
          });
  } finally {
    await client.close();
  }
  switch (invocation.format) {
    case 'json':
      writeData(io, driftJson(run));
      break;
    case 'sarif':
      writeData(io, `${visibleJson(driftSarif(run))}\n`);
      break;
    case 'github':
      await writeGithubReport(io, {
        command: 'drift',
        annotations: [
          ...unreadableAnnotations('drift', current.unreadable),
          ...unreadableAnnotations('drift', applied?.unreadable ?? new Map<string, string>()),
          ...driftAnnotations(run),
        ],
        summaryLine: driftSummary(run),
        markdown: driftMarkdown(run),
        fullReport: 'obs drift --format json',
        ...(invocation.applied === undefined ? {} : { heading: markdownText(sinceHeading(invocation.applied, paths)) }),
      });
      break;
    default:
      if (invocation.applied !== undefined) io.stdout(`${visible(sinceHeading(invocation.applied, paths))}\n`);
      io.stdout(driftText(run));
  }
  if (!current.ok || applied?.ok === false || !serviceOk || !overridesOk || run.counts.unknown > 0) return EXIT_TROUBLE;
  const c = run.counts;
  return c.differs + c.localOnly + c.serviceOnly > 0 ? EXIT_FOUND : EXIT_OK;
}

/** Whether the environment is one other than the home: its triggers are found by dataset and name. */
const isAway = (env: CliEnvironment | undefined): boolean => env?.plan.overlay !== undefined;

/** What a drift with --applied reports, said first so that a CI log reads on its own. */
function sinceHeading(applied: readonly string[], paths: readonly string[]): string {
  const now = paths.length === 0 ? '.' : paths.join(', ');
  return `What changed on the service since ${applied.join(', ')} was applied, other than to what ${now} holds:`;
}
