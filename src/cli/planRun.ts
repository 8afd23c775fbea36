// The run of `obs plan` (declared in plan.ts, loaded when the command runs).
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ServiceClient } from '../api/client';
import { errorText, isServiceError } from '../api/errors';
import { blockingReasons, lint, type DatasetColumns } from '../lint';
import { keyFingerprint, makePlan, planCounts, type Plan, type PlanFile, type PlanTarget, type ServiceIndex } from '../triggerFiles';
import { readColumns } from './columns';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, type MainIo } from './io';
import { CLI_METRICS_DATASET_HINT } from './metricsHint';
import { planFileText } from './planFile';
import { planText } from './planReport';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY } from './service';
import { readTriggerFiles, serviceIndexFor } from './triggerInputs';
import { visibleJson } from './visible';

/** The calls a plan reads with (the client's ServiceClient satisfies it). */
type PlanReader = Pick<ServiceClient, 'listTriggers' | 'listColumns' | 'listRecipients'>;

/** Statuses of a listing the service does not serve to this key: the check is skipped, said once. */
const NOT_SERVED = new Set([401, 403, 404, 405]);

/** The options of `obs plan` as commander parses them (plan.ts declares them). */
export interface PlanInvocation {
  out?: string;
  format: 'text' | 'json';
  prune?: boolean;
  metricsDataset?: string[];
  allowUnknownColumns?: boolean;
  concurrency: number;
  maxBytes: number;
}

export async function runPlan(paths: readonly string[], invocation: PlanInvocation, io: MainIo): Promise<number> {
  const { texts, read, ok, outside } = await readTriggerFiles(paths, io, invocation.maxBytes);
  // obs apply refuses a plan naming a file outside the folder, and a plan without such a file could delete what it holds.
  if (outside.length > 0) {
    warn(io, 'nothing planned: obs plan reads only trigger files inside the current folder');
    return EXIT_TROUBLE;
  }
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
