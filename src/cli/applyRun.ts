// The run of `obs apply` (declared in apply.ts, loaded when the command runs).
import { errorText } from '../api/errors';
import { applyChanges, planMismatches, sameKey, triggerOf, writeBody, type ChangeResult, type Plan, type PlanFile, type PlannedChange, type ServiceTrigger } from '../triggerFiles';
import { IdWriter, LOCK_FILE, readPlannedFiles, takeApplyLock } from './applyFiles';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, type MainIo } from './io';
import { parsePlan } from './planFile';
import { decodeStrict, readCommandLineFile } from './read';
import { applyText, planCountsText } from './planReport';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY } from './service';
import { visible } from './visible';

async function readPlan(file: string, io: MainIo): Promise<Plan | undefined> {
  let text: string | undefined;
  try {
    text = decodeStrict(await readCommandLineFile(file, io.cwd));
  } catch (e) {
    warn(io, `cannot read the plan ${file}: ${errorText(e)}`);
    return undefined;
  }
  const parsed = text === undefined ? { problem: 'it is not UTF-8' } : parsePlan(text);
  if ('plan' in parsed) return parsed.plan;
  warn(io, `${file} cannot be applied: ${parsed.problem}`);
  return undefined;
}

/** Why the plan must not be applied here and now (each said), or the files it was made from, as they are. */
async function checked(plan: Plan, io: MainIo): Promise<Map<string, PlanFile> | string[]> {
  const env = io.env ?? {};
  const baseUrl = (env[ENV_BASE_URL] ?? '').trim();
  if (baseUrl.replace(/\/+$/, '') !== plan.target.baseUrl.replace(/\/+$/, '')) return [`it was made against ${plan.target.baseUrl}, not ${baseUrl || `(no ${ENV_BASE_URL})`}`];
  if (!sameKey(plan.target.key, (env[ENV_CONFIG_KEY] ?? '').trim())) return [`it was made with another ${ENV_CONFIG_KEY} (another environment or team)`];
  const { files, problems } = await readPlannedFiles(plan, io.cwd);
  if (problems.length > 0) return problems;
  const mismatches = planMismatches(plan, files);
  return mismatches.length > 0 ? mismatches : files;
}

/** The body a change's file asks for, the service's trigger as read just before the write given (updates). */
function expectedBody(files: ReadonlyMap<string, PlanFile>) {
  return (change: Extract<PlannedChange, { action: 'create' | 'update' }>, service?: ServiceTrigger): Record<string, unknown> | undefined => {
    const local = triggerOf(files, change);
    return local === undefined ? undefined : writeBody(local.value, change.action === 'update' ? service : undefined);
  };
}

export async function runApply(file: string, io: MainIo): Promise<number> {
  const plan = await readPlan(file, io);
  if (plan === undefined) return EXIT_TROUBLE;
  const release = await takeApplyLock(io.cwd);
  if (release === undefined) {
    warn(io, `another obs apply is running in this folder (or one was killed: then remove ${LOCK_FILE}); nothing was written`);
    return EXIT_TROUBLE;
  }
  try {
    return await applyChecked(file, plan, io);
  } finally {
    await release();
  }
}

async function applyChecked(file: string, plan: Plan, io: MainIo): Promise<number> {
  const files = await checked(plan, io);
  if (Array.isArray(files)) {
    for (const r of files) warn(io, `the plan is not applied, nothing was written: ${r}`);
    return EXIT_TROUBLE;
  }
  if (plan.blocked.length > 0) warn(io, `the plan also names ${plan.blocked.length} blocked triggers: they are not written`);
  io.stdout(`${visible(`Applying ${file} (${planCountsText(plan)}) to ${plan.target.baseUrl}`)}\n`);
  const ids = new IdWriter(plan, io.cwd);
  const client = clientFromEnvironment(io.env ?? {});
  let results: ChangeResult[];
  try {
    results = await applyChanges(plan.changes, client, { ...(io.signal === undefined ? {} : { signal: io.signal }), onCreated: ids.write, expectedBody: expectedBody(files) });
  } finally {
    await client.close();
  }
  io.stdout(applyText(results));
  const clean = results.every((r) => r.outcome === 'applied' && r.storedDifferently.length === 0) && ids.missed.size === 0;
  return clean ? EXIT_OK : EXIT_FOUND;
}
