// `obs plan`: what applying the trigger files would change on the service, for a pull request. Reads the
// files and the service's lists, checks every trigger that would be written (the linter with the
// dataset's real columns, the team's recipients) and prints the plan; --out saves it for `obs apply`.
// Exit 0 nothing to change, 1 changes planned, 2 trouble or a trigger that cannot be planned.
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { ServiceClient } from '../api/client';
import { errorText, isServiceError } from '../api/errors';
import { blockingReasons, lint, type DatasetColumns } from '../lint';
import { keyFingerprint, makePlan, planCounts, TRIGGER_FILE_SUFFIX, type Plan, type PlanFile, type PlanTarget, type ServiceIndex } from '../triggerFiles';
import { readColumns } from './columns';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, parseConcurrency, warn, type MainIo } from './io';
import { CLI_METRICS_DATASET_HINT, maxBytesOption } from './lint';
import { planFileText } from './planFile';
import { planText } from './planReport';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY } from './service';
import { readTriggerFiles, serviceIndexFor } from './triggerInputs';
import { visibleJson } from './visible';

interface PlanInvocation {
  out?: string;
  format: 'text' | 'json';
  prune?: boolean;
  metricsDataset?: string[];
  allowUnknownColumns?: boolean;
  concurrency: number;
  maxBytes: number;
}

/** The calls a plan reads with (the client's ServiceClient satisfies it). */
type PlanReader = Pick<ServiceClient, 'listTriggers' | 'listColumns' | 'listRecipients'>;

/** Statuses of a listing the service does not serve to this key: the check is skipped, said once. */
const NOT_SERVED = new Set([401, 403, 404, 405]);

export function definePlan(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('plan')
    .summary('show what applying the trigger files would change on the service')
    .description(
      `Compares each trigger file with the service as drift does and lists the changes an apply would make: a create for a file without an id, an update (each member, service value -> file value) for one that differs, and with --prune a delete for each service trigger of the files' datasets that no file holds. A trigger with a lint error, an unknown dataset, a column its dataset does not have or a recipient the team does not have is blocked: named with the reason, never written.

PATH: trigger files, folders (every *${TRIGGER_FILE_SUFFIX} under them) or globs; default: the current folder.`,
    )
    .argument('[PATH...]')
    .option('--out <FILE>', 'save the plan as JSON for obs apply')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--prune', "also delete the service's triggers of the files' datasets that no file holds")
    .option('--metrics-dataset <SLUG>', 'a metrics dataset; repeat for several', (v: string, all: string[] = []) => [...all, v])
    .option('--allow-unknown-columns', 'do not block a trigger naming a column the service does not list (derived columns are not listed)')
    .option('--concurrency <n>', 'list calls made at once (1 to 16)', parseConcurrency, 4)
    .addOption(maxBytesOption())
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files).
The saved plan holds no key: only a salted hash of it, so that obs apply can refuse another environment.

Exit status: 0 nothing to change; 1 changes planned; 2 a usage problem, a file or the service could not
be read, or a trigger that would be written is blocked.
`,
    )
    .action(async (paths: string[], options: PlanInvocation) => finish(await runPlan(paths, options, io)));
}

async function runPlan(paths: readonly string[], invocation: PlanInvocation, io: MainIo): Promise<number> {
  const { texts, read, ok } = await readTriggerFiles(paths, io, invocation.maxBytes);
  const env = io.env ?? {};
  const client = clientFromEnvironment(env);
  let plan: Plan;
  let serviceOk: boolean;
  try {
    const found = await serviceIndexFor(client, read.values(), invocation.concurrency, io);
    serviceOk = found.ok;
    const files: PlanFile[] = [...read].map(([file, r]) => ({ file, text: texts.get(file) ?? '', read: r }));
    const target: PlanTarget = { baseUrl: (env[ENV_BASE_URL] ?? '').trim(), key: keyFingerprint((env[ENV_CONFIG_KEY] ?? '').trim(), randomBytes(16).toString('hex')) };
    plan = await gatedPlan(client, files, found.index, target, invocation, io);
  } finally {
    await client.close();
  }
  if (invocation.out !== undefined) await savePlan(resolve(io.cwd, invocation.out), plan);
  io.stdout(invocation.format === 'json' ? `${visibleJson(plan)}\n` : planText(plan));
  if (!ok || !serviceOk || plan.blocked.length > 0) return EXIT_TROUBLE;
  const c = planCounts(plan);
  return c.create + c.update + c.delete > 0 ? EXIT_FOUND : EXIT_OK;
}

/** What gatedPlan is asked: deletes or not, the metrics datasets, whether unknown columns pass. */
export type PlanGates = Pick<PlanInvocation, 'prune' | 'metricsDataset' | 'allowUnknownColumns'>;

/**
 * The plan with its gates: a first plan says which triggers would be written; only their files are linted
 * (with the columns of their datasets), and the recipients are read once. What could not be checked is
 * said on io.stderr. Also the plan of `obs mcp`'s obs_plan tool.
 */
export async function gatedPlan(client: PlanReader, files: PlanFile[], index: ServiceIndex, target: PlanTarget, invocation: PlanGates, io: Pick<MainIo, 'stderr' | 'signal'>): Promise<Plan> {
  const base = { files, index, target, prune: invocation.prune === true, now: new Date() };
  const first = makePlan(base);
  const writing = new Set(first.changes.flatMap((c) => (c.action === 'delete' ? [] : [c.file])));
  const datasets = new Set(first.changes.flatMap((c) => (c.action === 'delete' ? [] : [c.dataset === 'all' ? '__all__' : c.dataset])));
  const columns = await columnsOf(client, [...datasets], io);
  const recipients = await recipientIds(client, io);
  const reasons = new Map<string, (index: number) => string[]>();
  for (const f of files) {
    if (!writing.has(f.file)) continue;
    const diagnostics = lint(f.text, { metricsDatasets: invocation.metricsDataset ?? [], metricsDatasetHint: CLI_METRICS_DATASET_HINT, ...(columns === undefined ? {} : { columns }) });
    reasons.set(f.file, blockingReasons(diagnostics, f.read.ok && f.read.triggers.some((t) => t.index >= 0), { allowUnknownColumns: invocation.allowUnknownColumns === true }));
  }
  return makePlan({ ...base, blockedBy: (file, i) => reasons.get(file)?.(i) ?? [], ...(recipients === undefined ? {} : { recipients }) });
}

/** The columns of the datasets to be written; undefined (said once) when the service does not serve them. */
async function columnsOf(client: PlanReader, datasets: string[], io: Pick<MainIo, 'stderr'>): Promise<Record<string, DatasetColumns> | undefined> {
  if (datasets.length === 0) return {};
  try {
    return (await readColumns(client, datasets)).columns;
  } catch (e) {
    if (isServiceError(e) && e.status !== undefined && NOT_SERVED.has(e.status)) {
      warn(io, `the columns were not checked: ${errorText(e)}`);
      return undefined;
    }
    throw e;
  }
}

/** The ids of the team's recipients; undefined (said once) when the service does not list them to this key. */
async function recipientIds(client: PlanReader, io: Pick<MainIo, 'stderr' | 'signal'>): Promise<Set<string> | undefined> {
  try {
    return new Set((await client.listRecipients({ ...(io.signal === undefined ? {} : { signal: io.signal }) })).data.map((r) => r.id));
  } catch (e) {
    if (isServiceError(e) && e.status !== undefined && NOT_SERVED.has(e.status)) {
      warn(io, `the recipients were not checked: ${errorText(e)}`);
      return undefined;
    }
    throw e;
  }
}

/** Writes the plan whole (a temporary file renamed over the target), so apply never reads half a plan. */
async function savePlan(file: string, plan: Plan): Promise<void> {
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, planFileText(plan), { flag: 'wx' });
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true });
    throw new Error(`--out ${file}: the plan could not be saved: ${errorText(e)}`);
  }
}
