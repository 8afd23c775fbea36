// The run of `obs drift` (declared in drift.ts, loaded when the command runs).
import {
  driftCounts,
  driftOfFile,
  filesHoldReference,
  kindOfFile,
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
import { readTriggerFiles, serviceIndexFor, sourcesOf, type FileKinds, type ReadFiles } from './triggerInputs';
import { visible, visibleJson } from './visible';

/** The options of `obs drift` as commander parses them (drift.ts declares them). */
export interface DriftInvocation {
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
async function readFiles(
  paths: readonly string[],
  invocation: DriftInvocation,
  io: MainIo,
  kinds: FileKinds,
): Promise<DriftFiles> {
  const files = await readTriggerFiles(paths, io, invocation.maxBytes, kinds);
  const triggers = [...files.read].filter(([file]) => kindOfFile(file) === 'trigger');
  const read = invocation.matchByName === true ? triggers.map(([f, r]) => [f, withoutIds(r)] as const) : triggers;
  // A file that could not be read is said on stderr already, as for triggers: only those read are compared.
  const sloFiles = sourcesOf({ ...files, unreadable: new Map() }).flatMap((s): SloPlanFile[] => {
    const kind = kindOfFile(s.file);
    if (kind === 'trigger') return [];
    return [{ file: s.file, kind, text: s.text, ...(s.problem === undefined ? {} : { problem: s.problem }) }];
  });
  return { ...files, read: new Map(read), sloFiles };
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
  return sloDrift(files.sloFiles, service, new PacedPool({ concurrency: invocation.concurrency }), {
    matchByName: invocation.matchByName === true,
    team,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  });
}

/** The files last applied against the service, a trigger held as the files wanted now say taken as in sync. */
function changedSince(applied: ReadFiles, current: ReadFiles, index: ServiceIndex): DriftRun {
  const changes = serviceChangesSince(applied.read, current.read, index);
  return { ...changes, sloFiles: [], counts: driftCounts(changes.files, changes.onlyOnService), texts: applied.texts };
}

export async function runDrift(paths: readonly string[], invocation: DriftInvocation, io: MainIo): Promise<number> {
  // With --applied, drift compares trigger files only (the gate before an apply of triggers).
  const kinds: FileKinds = invocation.applied === undefined ? 'every kind' : 'triggers';
  const current = await readFiles(paths, invocation, io, kinds);
  const applied =
    invocation.applied === undefined ? undefined : await readFiles(invocation.applied, invocation, io, kinds);
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
    run =
      applied === undefined
        ? driftOf(await resolved(current, team), found.index, await sloDriftOf(current, client, invocation, io, team))
        : changedSince(applied, current, found.index);
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
  if (!current.ok || applied?.ok === false || !serviceOk || run.counts.unknown > 0) return EXIT_TROUBLE;
  const c = run.counts;
  return c.differs + c.localOnly + c.serviceOnly > 0 ? EXIT_FOUND : EXIT_OK;
}

/** What a drift with --applied reports, said first so that a CI log reads on its own. */
function sinceHeading(applied: readonly string[], paths: readonly string[]): string {
  const now = paths.length === 0 ? '.' : paths.join(', ');
  return `What changed on the service since ${applied.join(', ')} was applied, other than to what ${now} holds:`;
}
