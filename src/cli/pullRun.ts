// The run of `obs pull` (declared in pull.ts, loaded when the command runs).
import { dirname, join, resolve } from 'node:path';
import {
  applyPull,
  BURN_ALERT_PULL,
  collectBurnAlerts,
  collectDefinitions,
  collectTriggers,
  PacedPool,
  planDefinitionsPull,
  planKindPull,
  planPull,
  pullSummary,
  scanExisting,
  scanFolders,
  scanRoot,
  DEFINITIONS_FILE_SUFFIX,
  burnAlertsByTarget,
  keptByIdText,
  listTeam,
  triggersByTarget,
  type KeptById,
  type PullAction,
  type PullRecipients,
  type PullReport,
  type TeamRecipients,
} from '../triggerFiles';
import { ENVIRONMENT_WIDE } from '../api/schemas/slugs';
import type { ServiceClient } from '../api/client';
import { nodeFileSystem } from '../triggerFiles/nodeFs';
import { clientFromEnvironment } from './service';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, type MainIo } from './io';
import { checkOutFolder, makeFolder, OutFolderError } from './outFolder';
import { visible } from './visible';

/** What `obs pull` may bring (`--kinds`). */
export type PullKind = 'triggers' | 'burn-alerts' | 'definitions';

/** The options of `obs pull` as commander parses them (pull.ts declares them). */
export interface PullInvocation {
  dataset?: string[];
  all?: boolean;
  out: string;
  kinds: PullKind[];
  burnAlertsOut: string;
  definitionsOut: string;
  force?: boolean;
  concurrency: number;
  /** How the files name recipients (`--recipients-by`). */
  recipientsBy: PullRecipients;
}

/**
 * The team's recipients for --recipients-by target, listed once for every kind pulled; each recipient kept by id
 * is said once. Without the list the files name recipients by id, and the pull ends in trouble.
 */
class Recipients {
  private listed: Promise<TeamRecipients | undefined> | undefined;
  private readonly said = new Set<string>();
  failed = false;

  constructor(
    private readonly invocation: PullInvocation,
    private readonly client: ServiceClient,
    private readonly io: MainIo,
  ) {}

  /** The team, when pull writes recipients by target and its list could be read. */
  team(): Promise<TeamRecipients | undefined> {
    if (this.invocation.recipientsBy !== 'target') return Promise.resolve(undefined);
    this.listed ??= listTeam(this.client, this.io.signal).then((r) => {
      if (r.ok) return r.team;
      this.failed = true;
      warn(this.io, `the team's recipients could not be listed (${r.reason}): the files name recipients by id`);
      return undefined;
    });
    return this.listed;
  }

  tell(kept: readonly KeptById[]): void {
    for (const k of kept) {
      if (this.said.has(k.id)) continue;
      this.said.add(k.id);
      warn(this.io, keptByIdText(k));
    }
  }
}

function printReport(io: MainIo, out: string, r: PullReport): void {
  const shown = (p: string) => `${out.replace(/[\\/]+$/, '')}/${p}`;
  const line = (text: string) => io.stdout(`${visible(text)}\n`);
  for (const p of r.created) line(`wrote ${shown(p)} (new)`);
  for (const p of r.updated) line(`wrote ${shown(p)}`);
  for (const s of r.skipped)
    line(
      `skipped ${shown(s.path)}: ${s.reason}${s.reason === 'it differs from the service' ? ' (--force overwrites it)' : ''}`,
    );
  for (const f of r.failed) warn(io, `could not write ${shown(f.path)}: ${f.message}`);
  line(`${pullSummary(r)}${r.cancelled ? ' (cancelled)' : ''}`);
}

/** Makes the folders the new files go into, before any is written (so a folder that cannot be made leaves every file as it was). */
async function makeFolders<I>(root: string, plan: readonly PullAction<I>[]): Promise<void> {
  const folders = new Set(plan.filter((a) => a.kind === 'create').map((a) => dirname(join(root, a.path))));
  for (const folder of [...folders].sort()) await makeFolder(folder);
}

/** Runs a step on the --out folder; false (said on stderr) when the folder cannot be made. */
async function folderReady(io: MainIo, out: string, step: () => Promise<void>): Promise<boolean> {
  try {
    await step();
    return true;
  } catch (e) {
    if (!(e instanceof OutFolderError)) throw e;
    warn(io, `--out ${out}: ${e.message}; nothing was written`);
    return false;
  }
}

/** What one kind's pull did: 0, 1 or 2 as the exit status would say it. */
type KindRun = (root: string, pool: PacedPool) => Promise<number>;

/** Writes a kind's plan under `root` (its folders made first) and prints what happened; the exit status. */
async function writePlan<I>(
  invocation: PullInvocation,
  io: MainIo,
  out: string,
  root: string,
  plan: readonly PullAction<I>[],
  failed: boolean,
): Promise<number> {
  if (!(await folderReady(io, out, () => makeFolders(root, plan)))) return EXIT_TROUBLE;
  const report = await applyPull(nodeFileSystem, root, plan, {
    approve: (updates) => Promise.resolve(new Set(invocation.force === true ? updates.map((u) => u.path) : [])),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  printReport(io, out, report);
  if (failed || report.failed.length > 0 || report.cancelled) return EXIT_TROUBLE;
  return report.skipped.length > 0 ? EXIT_FOUND : EXIT_OK;
}

function pullTriggers(invocation: PullInvocation, io: MainIo, client: ServiceClient, recipients: Recipients): KindRun {
  return async (root, pool) => {
    const collected = await collectTriggers(
      client,
      { datasets: invocation.dataset ?? [], everything: invocation.all === true },
      pool,
      io.signal,
      (dataset, listing) => {
        if (listing.state === 'listed')
          warn(
            io,
            `listed ${listing.triggers.length} trigger${listing.triggers.length === 1 ? '' : 's'} of ${dataset === '__all__' ? 'the environment' : dataset}`,
          );
      },
    );
    for (const f of collected.failures) warn(io, `could not list the triggers of ${f.dataset}: ${f.message}`);
    const team = await recipients.team();
    const byTarget = team === undefined ? undefined : triggersByTarget(collected.items, team);
    recipients.tell(byTarget?.kept ?? []);
    const items = byTarget?.items ?? collected.items;
    const plan = planPull(items, await scanExisting(nodeFileSystem, root, items, io.signal));
    return writePlan(invocation, io, invocation.out, root, plan, collected.failures.length > 0);
  };
}

/** The datasets named, and with --all the environment's SLOs (`__all__`). */
const sloScopes = (invocation: PullInvocation): string[] => [
  ...(invocation.all === true ? [ENVIRONMENT_WIDE] : []),
  ...(invocation.dataset ?? []),
];

function pullBurnAlerts(
  invocation: PullInvocation,
  io: MainIo,
  client: ServiceClient,
  recipients: Recipients,
): KindRun {
  return async (root, pool) => {
    const collected = await collectBurnAlerts(client, sloScopes(invocation), pool, io.signal);
    for (const f of collected.failures) warn(io, `could not read ${f.what}: ${f.message}`);
    const team = await recipients.team();
    const byTarget = team === undefined ? undefined : burnAlertsByTarget(collected.items, team);
    recipients.tell(byTarget?.kept ?? []);
    const items = byTarget?.items ?? collected.items;
    const folders = items.map((i) => BURN_ALERT_PULL.folderOf(i));
    const existing = await scanFolders(nodeFileSystem, root, folders, BURN_ALERT_PULL.suffix, io.signal);
    const plan = planKindPull(BURN_ALERT_PULL, items, existing);
    return writePlan(invocation, io, invocation.burnAlertsOut, root, plan, collected.failures.length > 0);
  };
}

function pullDefinitions(invocation: PullInvocation, io: MainIo, client: ServiceClient): KindRun {
  return async (root, pool) => {
    const collected = await collectDefinitions(client, invocation.dataset ?? [], pool, io.signal);
    for (const f of collected.failures) warn(io, `could not read ${f.what}: ${f.message}`);
    const existing = await scanRoot(nodeFileSystem, root, DEFINITIONS_FILE_SUFFIX);
    const plan = planDefinitionsPull(collected.items, existing);
    return writePlan(invocation, io, invocation.definitionsOut, root, plan, collected.failures.length > 0);
  };
}

export async function runPull(invocation: PullInvocation, io: MainIo): Promise<number> {
  const client = clientFromEnvironment(io.env ?? {});
  try {
    const runs: [string, KindRun][] = [];
    const recipients = new Recipients(invocation, client, io);
    if (invocation.kinds.includes('triggers'))
      runs.push([invocation.out, pullTriggers(invocation, io, client, recipients)]);
    if (invocation.kinds.includes('burn-alerts'))
      runs.push([invocation.burnAlertsOut, pullBurnAlerts(invocation, io, client, recipients)]);
    if (invocation.kinds.includes('definitions'))
      runs.push([invocation.definitionsOut, pullDefinitions(invocation, io, client)]);
    const roots = runs.map(([out]) => resolve(io.cwd, out));
    // Before asking the service anything: a folder that cannot be made fails the pull at once.
    for (const [i, [out]] of runs.entries())
      if (!(await folderReady(io, out, () => checkOutFolder(roots[i] ?? out)))) return EXIT_TROUBLE;
    const pool = new PacedPool({
      concurrency: invocation.concurrency,
      onPause: (ms) => warn(io, `waiting ${Math.ceil(ms / 1000)} s for the service's rate limit`),
    });
    let code = EXIT_OK;
    for (const [i, [out, run]] of runs.entries()) code = Math.max(code, await run(roots[i] ?? out, pool));
    return recipients.failed ? EXIT_TROUBLE : code;
  } finally {
    await client.close();
  }
}
