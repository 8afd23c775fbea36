// `obs apply FILE`: applies exactly the plan saved by `obs plan --out FILE`, for the main branch of a CI.
// The whole plan is refused, nothing written, when it was made against another service or key, or when a
// file it read has changed since. Then each change is re-read before it is written (skipped when the
// service's trigger changed since the plan) and read back after; a create writes its new id into its file.
// Exit 0 every change applied and read back as sent, 1 anything skipped, refused, failed or stored
// differently, 2 a plan that cannot be applied at all.
import { lstat, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { errorText } from '../api/errors';
import { applyChanges, sameKey, sha256, withId, type ChangeResult, type Plan, type PlannedChange } from '../triggerFiles';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, type MainIo } from './io';
import { parsePlan } from './planFile';
import { applyText, planCountsText } from './planReport';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY } from './service';

export function defineApply(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('apply')
    .summary('apply a plan saved by obs plan --out')
    .description(
      'Applies exactly the changes of the plan: creates, then updates, then deletes, one at a time. Each trigger is read again just before it is written and skipped when it changed on the service since the plan (the service has no conditional write); each is read back after, and a member the service stored otherwise than sent is named. A created trigger gets its new id written into its file (one insertion; the rest of the file untouched).',
    )
    .argument('<FILE>', 'the plan, as saved by obs plan --out')
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment. The whole plan is refused,
nothing written, when it was made against another address or key, or when a trigger file it read has
changed since (plan again).

Exit status: 0 every change applied and read back as sent; 1 a change was skipped, refused, failed or
stored differently (each is named); 2 the plan cannot be applied (not a plan, another service, files changed).
`,
    )
    .action(async (file: string) => finish(await runApply(file, io)));
}

async function readPlan(file: string, io: MainIo): Promise<Plan | undefined> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (e) {
    warn(io, `cannot read the plan ${file}: ${errorText(e)}`);
    return undefined;
  }
  const parsed = parsePlan(text);
  if ('plan' in parsed) return parsed.plan;
  warn(io, `${file} cannot be applied: ${parsed.problem}`);
  return undefined;
}

/** Whether a file named by the plan lies inside the folder apply runs in (a plan file is read, not trusted). */
function inside(cwd: string, file: string): boolean {
  const rel = relative(resolve(cwd), resolve(cwd, file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Why the plan must not be applied here and now, or an empty list. */
async function refusals(plan: Plan, io: MainIo): Promise<string[]> {
  const env = io.env ?? {};
  const out: string[] = [];
  const baseUrl = (env[ENV_BASE_URL] ?? '').trim();
  if (baseUrl.replace(/\/+$/, '') !== plan.target.baseUrl.replace(/\/+$/, '')) out.push(`it was made against ${plan.target.baseUrl}, not ${baseUrl || `(no ${ENV_BASE_URL})`}`);
  else if (!sameKey(plan.target.key, (env[ENV_CONFIG_KEY] ?? '').trim())) out.push(`it was made with another ${ENV_CONFIG_KEY} (another environment or team)`);
  const outside = [...new Set([...plan.files.map((f) => f.file), ...plan.changes.flatMap((c) => (c.action === 'delete' ? [] : [c.file]))])].filter((f) => !inside(io.cwd, f));
  if (outside.length > 0) return [...out, `it names files outside the current folder (${outside.slice(0, 3).join(', ')}): run obs apply where obs plan ran`];
  for (const f of plan.files) {
    let text: string;
    try {
      text = await readFile(resolve(io.cwd, f.file), 'utf8');
    } catch {
      out.push(`${f.file} is gone since the plan`);
      continue;
    }
    if (sha256(text) !== f.sha256) out.push(`${f.file} changed since the plan`);
  }
  return out;
}

/** Writes each created trigger's id into its file, only while the file is as the plan (or an earlier id) left it. */
function idWriter(plan: Plan, io: MainIo) {
  const expected = new Map(plan.files.map((f) => [f.file, f.sha256]));
  return async (change: Extract<PlannedChange, { action: 'create' }>, id: string): Promise<string | undefined> => {
    const path = resolve(io.cwd, change.file);
    try {
      // A link is never replaced by a regular file (the rename below would do that): its id is left to the user.
      if (!(await lstat(path)).isFile()) return `its id was not written into ${change.file}: it is not a regular file; add "id": ${JSON.stringify(id)} yourself`;
      const text = await readFile(path, 'utf8');
      if (sha256(text) !== expected.get(change.file)) return `its id was not written into ${change.file}: the file changed meanwhile; add "id": ${JSON.stringify(id)} yourself`;
      const next = withId(text, change.index, id);
      const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await writeFile(temp, next, { flag: 'wx' });
        await rename(temp, path);
      } finally {
        await rm(temp, { force: true });
      }
      expected.set(change.file, sha256(next));
      return `id written into ${change.file}`;
    } catch (e) {
      return `its id could not be written into ${change.file} (${errorText(e)}); add "id": ${JSON.stringify(id)} yourself`;
    }
  };
}

async function runApply(file: string, io: MainIo): Promise<number> {
  const plan = await readPlan(file, io);
  if (plan === undefined) return EXIT_TROUBLE;
  const refused = await refusals(plan, io);
  if (refused.length > 0) {
    for (const r of refused) warn(io, `the plan is not applied, nothing was written: ${r}`);
    return EXIT_TROUBLE;
  }
  if (plan.blocked.length > 0) warn(io, `the plan also names ${plan.blocked.length} blocked triggers: they are not written`);
  io.stdout(`Applying ${file} (${planCountsText(plan)}) to ${plan.target.baseUrl}\n`);
  const client = clientFromEnvironment(io.env ?? {});
  let results: ChangeResult[];
  try {
    results = await applyChanges(plan.changes, client, { ...(io.signal === undefined ? {} : { signal: io.signal }), onCreated: idWriter(plan, io) });
  } finally {
    await client.close();
  }
  io.stdout(applyText(results));
  const clean = results.every((r) => r.outcome === 'applied' && r.storedDifferently.length === 0);
  return clean ? EXIT_OK : EXIT_FOUND;
}
