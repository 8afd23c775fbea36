// The run of `obs apply` (declared in apply.ts, loaded when the command runs). A saved plan is a record of
// what was reviewed, never a source of what is written: it must be sealed with this environment's key, and
// the trigger files under its paths are planned again with the same pipeline and inputs; only when the
// changes planned now are exactly the saved ones are they written (from the new plan, with the service's
// versions just read). Otherwise nothing is written and what differs is said.
import { errorText } from '../api/errors';
import { applyChanges, reviewPlan, sameKey, type ChangeResult, type Plan } from '../triggerFiles';
import { IdWriter, takeApplyLock } from './applyFiles';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, type MainIo } from './io';
import { parsePlan, sealProblem, type SavedPlan } from './planFile';
import { planFiles } from './planMaking';
import { alreadyAppliedText, applyText, planCountsText } from './planReport';
import { decodeStrict, readCommandLineFile } from './read';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY } from './service';
import { visible } from './visible';
import { readCliEnvironment, type CliEnvironment, type EnvironmentInvocation } from './environment';
import type { Outcome } from '../result';
import { relative, resolve, sep } from 'node:path';

/** List calls made at once while planning again (as obs plan's default). */
const CONCURRENCY = 4;

async function readPlan(file: string, io: MainIo): Promise<SavedPlan | undefined> {
  let text: string | undefined;
  try {
    text = decodeStrict(await readCommandLineFile(file, io.cwd));
  } catch (e) {
    warn(io, `cannot read the plan ${file}: ${errorText(e)}`);
    return undefined;
  }
  const parsed = text === undefined ? { problem: 'it is not UTF-8' } : parsePlan(text);
  if ('saved' in parsed) return parsed.saved;
  warn(io, `${file} cannot be applied: ${parsed.problem}`);
  return undefined;
}

/** Why the saved plan is not for this service and key, or was changed since it was saved; undefined when it may be applied. */
function targetProblem(saved: SavedPlan, io: MainIo): string | undefined {
  const env = io.env ?? {};
  const baseUrl = (env[ENV_BASE_URL] ?? '').trim();
  const key = (env[ENV_CONFIG_KEY] ?? '').trim();
  const target = saved.plan.target;
  if (baseUrl.replace(/\/+$/, '') !== target.baseUrl.replace(/\/+$/, ''))
    return `it was made against ${target.baseUrl}, not ${baseUrl || `(no ${ENV_BASE_URL})`}`;
  if (!sameKey(target.key, key)) return `it was made with another ${ENV_CONFIG_KEY} (another environment or team)`;
  return sealProblem(saved, key);
}

/**
 * The environment the saved plan was made for, read again as --env and --environments name it: undefined for a
 * plan made without one; why not when it is another, or its environments file changed since the plan.
 */
async function environmentAgain(
  saved: Plan,
  invocation: EnvironmentInvocation,
  io: MainIo,
): Promise<Outcome<{ value: CliEnvironment | undefined }>> {
  const recorded = saved.inputs.environment;
  const fail = (reason: string) => ({ ok: false as const, reason });
  if (recorded === undefined)
    return invocation.env === undefined && invocation.environments === undefined
      ? { ok: true, value: undefined }
      : fail('it was made without --env: apply it without --env');
  if (invocation.env === undefined)
    return fail(`it was made for ${recorded.name}: apply it with --env ${recorded.name}`);
  if (invocation.env !== recorded.name) return fail(`it was made for ${recorded.name}, not ${invocation.env}`);
  const file =
    invocation.environments === undefined
      ? recorded.file
      : relative(io.cwd, resolve(io.cwd, invocation.environments)).split(sep).join('/');
  if (file !== recorded.file) return fail(`it was made with the environments file ${recorded.file}, not ${file}`);
  const read = await readCliEnvironment(recorded.name, file, io);
  if (read.ok && read.value.record.sha256 !== recorded.sha256)
    return fail(`the environments file ${file} changed since the plan was made: plan again and review the new plan`);
  return read;
}

export async function runApply(file: string, given: MainIo, invocation: EnvironmentInvocation = {}): Promise<number> {
  const saved = await readPlan(file, given);
  if (saved === undefined) return EXIT_TROUBLE;
  const environment = await environmentAgain(saved.plan, invocation, given);
  if (!environment.ok) {
    warn(given, `the plan is not applied, nothing was written: ${environment.reason}`);
    return EXIT_TROUBLE;
  }
  // With --env the service is the one the environment's variables name.
  const io = environment.value === undefined ? given : { ...given, env: environment.value.serviceEnv };
  const problem = targetProblem(saved, io);
  if (problem !== undefined) {
    warn(io, `the plan is not applied, nothing was written: ${problem}`);
    return EXIT_TROUBLE;
  }
  const lock = await takeApplyLock(io.cwd);
  if ('heldBy' in lock) {
    warn(io, `${lock.heldBy}; nothing was written`);
    return EXIT_TROUBLE;
  }
  try {
    return await planAndApply(file, saved.plan, io, environment.value);
  } finally {
    await lock.release();
  }
}

/** Plans again, compares with the saved plan, and writes the changes planned now when they are the same. */
async function planAndApply(
  file: string,
  saved: Plan,
  io: MainIo,
  environment: CliEnvironment | undefined,
): Promise<number> {
  const client = clientFromEnvironment(io.env ?? {});
  try {
    const now = await planFiles(client, saved.inputs, saved.target, io, CONCURRENCY, environment?.plan);
    if (now === undefined) {
      warn(io, 'the plan is not applied, nothing was written: its paths cannot be planned again (said above)');
      return EXIT_TROUBLE;
    }
    const unread = {
      differences: ['a file or a dataset the plan needs could not be read now (said above)'],
      applied: [],
    };
    const review = now.complete ? reviewPlan(saved, now.plan, now.service) : unread;
    if (review.differences.length > 0) {
      for (const d of review.differences) warn(io, `the plan is not applied, nothing was written: ${d}`);
      warn(io, 'the files or the service changed since the plan: run obs plan again and review the new plan');
      return EXIT_TROUBLE;
    }
    const plan = now.plan;
    if (review.applied.length > 0) io.stdout(alreadyAppliedText(file, review.applied, plan.changes.length));
    // Nothing left to write: the service holds the whole plan (applied before, by this plan or by hand).
    if (review.applied.length > 0 && plan.changes.length === 0) return EXIT_OK;
    if (plan.blocked.length > 0)
      warn(io, `the plan also names ${plan.blocked.length} blocked triggers: they are not written`);
    io.stdout(`${visible(`Applying ${file} (${planCountsText(plan)}) to ${plan.target.baseUrl}`)}\n`);
    const ids = new IdWriter(plan, io.cwd);
    const results: ChangeResult[] = await applyChanges(plan.changes, client, {
      ...(io.signal === undefined ? {} : { stop: io.signal }),
      onCreated: !plan.inputs.matchByName
        ? ids.write
        : environment === undefined
          ? IdWriter.notWritten
          : IdWriter.notWrittenFor(environment.record.name),
    });
    io.stdout(applyText(results));
    const clean =
      results.every((r) => r.outcome === 'applied' && r.storedDifferently.length === 0) && ids.missed.size === 0;
    return clean ? EXIT_OK : EXIT_FOUND;
  } finally {
    await client.close();
  }
}
