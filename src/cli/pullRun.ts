// The run of `obs pull` (declared in pull.ts, loaded when the command runs).
import { dirname, join, resolve } from 'node:path';
import {
  applyPull,
  collectTriggers,
  PacedPool,
  planPull,
  pullSummary,
  scanExisting,
  type PullAction,
  type PullReport,
} from '../triggerFiles';
import { nodeFileSystem } from '../triggerFiles/nodeFs';
import { clientFromEnvironment } from './service';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, type MainIo } from './io';
import { checkOutFolder, makeFolder, OutFolderError } from './outFolder';
import { visible } from './visible';

/** The options of `obs pull` as commander parses them (pull.ts declares them). */
export interface PullInvocation {
  dataset?: string[];
  all?: boolean;
  out: string;
  force?: boolean;
  concurrency: number;
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
async function makeFolders(root: string, plan: readonly PullAction[]): Promise<void> {
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

export async function runPull(invocation: PullInvocation, io: MainIo): Promise<number> {
  const client = clientFromEnvironment(io.env ?? {});
  try {
    const root = resolve(io.cwd, invocation.out);
    // Before asking the service anything: a folder that cannot be made fails the pull at once.
    if (!(await folderReady(io, invocation.out, () => checkOutFolder(root)))) return EXIT_TROUBLE;
    const pool = new PacedPool({
      concurrency: invocation.concurrency,
      onPause: (ms) => warn(io, `waiting ${Math.ceil(ms / 1000)} s for the service's rate limit`),
    });
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
    const plan = planPull(collected.items, await scanExisting(nodeFileSystem, root, collected.items, io.signal));
    if (!(await folderReady(io, invocation.out, () => makeFolders(root, plan)))) return EXIT_TROUBLE;
    const report = await applyPull(nodeFileSystem, root, plan, {
      approve: (updates) => Promise.resolve(new Set(invocation.force === true ? updates.map((u) => u.path) : [])),
      ...(io.signal ? { signal: io.signal } : {}),
    });
    printReport(io, invocation.out, report);
    if (collected.failures.length > 0 || report.failed.length > 0 || report.cancelled) return EXIT_TROUBLE;
    return report.skipped.length > 0 ? EXIT_FOUND : EXIT_OK;
  } finally {
    await client.close();
  }
}
