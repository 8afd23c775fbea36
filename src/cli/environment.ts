// `--env NAME` and `--environments FILE` (docs/ENVIRONMENTS.md): the environment obs plan, apply and drift work
// for, read from the environments file (obs.environments.json, found at the root of the folder the files are
// in, or in the current folder), and the service it names through two variables of the process environment.
// Every mistake is a clear error before the service is asked anything; nothing is planned or written then.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { errorText } from '../api/errors';
import type { Outcome } from '../result';
import { sha256, type PlanEnvironment } from '../triggerFiles';
import { effectiveFile } from '../triggerFiles/environmentPlan';
import { ENVIRONMENTS_FILE_NAME, readEnvironments, type EnvironmentsProblem } from '../triggerFiles/environments';
import { isGlob } from './files';
import { decodeStrict, readCommandLineFile } from './read';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';

/** The options as commander parses them. */
export interface EnvironmentInvocation {
  env?: string;
  environments?: string;
}

/** The environment of a command: what the plan pipeline takes, what a plan records, and the service's variables. */
export interface CliEnvironment {
  plan: PlanEnvironment;
  record: { name: string; file: string; sha256: string };
  /** The environments file's text, as read (obs lint points into it). */
  text: string;
  /** The process environment with OBS_BASE_URL and OBS_CONFIG_KEY taken from the environment's variables. */
  serviceEnv: Record<string, string | undefined>;
}

/** A place in the environments file as people read it: `environments.production.datasets`. */
function problemText(p: EnvironmentsProblem): string {
  const at = p.path.map((s) => (typeof s === 'number' ? `[${s}]` : s)).join('.');
  return at === '' ? p.message : `${at}: ${p.message}`;
}

const slashed = (path: string): string => path.split(sep).join('/');

/** The folder a path of the command line stands for: itself, a file's folder, a glob's folder before its magic. */
async function folderOf(path: string, cwd: string): Promise<string> {
  let p = path;
  if (await isGlob(p)) {
    const segments = slashed(p).split('/');
    const magic = await Promise.all(segments.map((s) => isGlob(s)));
    p = segments.slice(0, Math.max(0, magic.indexOf(true))).join('/') || '.';
  }
  const abs = resolve(cwd, p);
  return existsSync(abs) && statSync(abs).isDirectory() ? abs : dirname(abs);
}

/** The nearest environments file from `folder` up to `cwd` (never above it), or the current folder's path. */
function nearest(folder: string, cwd: string): string | undefined {
  const root = resolve(cwd);
  let dir = folder;
  for (;;) {
    const candidate = join(dir, ENVIRONMENTS_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    if (dir === root || !dir.startsWith(root + sep)) return undefined;
    dir = dirname(dir);
  }
}

/** The environments file of the paths: the nearest one above them, one for all of them. */
export async function findEnvironmentsFile(paths: readonly string[], cwd: string): Promise<Outcome<{ file: string }>> {
  const found = new Set<string>();
  for (const p of paths.length === 0 ? ['.'] : paths) {
    const file = nearest(await folderOf(p, cwd), cwd);
    if (file !== undefined) found.add(file);
  }
  const [file] = found;
  if (found.size > 1)
    return {
      ok: false,
      reason:
        `the paths lie under different environments files ` +
        `(${[...found].map((f) => slashed(relative(cwd, f))).join(', ')}): name one with --environments`,
    };
  if (file !== undefined) return { ok: true, file: slashed(relative(cwd, file)) };
  return {
    ok: false,
    reason:
      `--env needs an environments file: no ${ENVIRONMENTS_FILE_NAME} at the root of the files' folder ` +
      `or in the current folder (name one with --environments)`,
  };
}

/**
 * The environment `name` of the environments file `file` (relative to cwd), with its service's variables; a
 * command that asks no service (obs lint without --columns-from-service) passes `asksService` false: the
 * variables need not be named nor set then.
 */
export async function readCliEnvironment(
  name: string,
  file: string,
  io: { cwd: string; env?: Readonly<Record<string, string | undefined>> },
  asksService = true,
): Promise<Outcome<{ value: CliEnvironment }>> {
  let text: string | undefined;
  try {
    text = decodeStrict(await readCommandLineFile(file, io.cwd));
  } catch (e) {
    return { ok: false, reason: `cannot read the environments file ${file}: ${errorText(e)}` };
  }
  if (text === undefined) return { ok: false, reason: `the environments file ${file} is not UTF-8` };
  const read = readEnvironments(text);
  if (!read.ok)
    return {
      ok: false,
      reason:
        `the environments file ${file} is not valid (obs lint ${file} says where): ` +
        read.reason.map(problemText).join('; '),
    };
  const env = read.value.environments.get(name);
  if (env === undefined) {
    const names = [...read.value.environments.keys()].join(', ');
    return { ok: false, reason: `${file} has no environment ${JSON.stringify(name)} (its environments: ${names})` };
  }
  const given = io.env ?? {};
  const home = name === read.value.home;
  const plan = { name, file, ...(home ? {} : { overlay: env }) };
  const record = { name, file, sha256: sha256(text) };
  if (!asksService) return { ok: true, value: { plan, record, text, serviceEnv: given } };
  const vars = env.variables;
  if (vars === undefined)
    return {
      ok: false,
      reason:
        `environments.${name} in ${file} names no variables: ` +
        `give the names of the variables holding its service's address and key`,
    };
  const unset = [vars.baseUrl, vars.key].filter((v) => (given[v] ?? '').trim() === '');
  if (unset.length > 0)
    return {
      ok: false,
      reason: `set ${unset.join(' and ')} in the environment: ${file} names them for ${name}'s service address and key`,
    };
  return {
    ok: true,
    value: {
      plan,
      record,
      text,
      serviceEnv: { ...given, [ENV_BASE_URL]: given[vars.baseUrl], [ENV_CONFIG_KEY]: given[vars.key] },
    },
  };
}

/**
 * The environment of a command given `--env` (undefined without it); the file is --environments or the one found
 * above the paths.
 */
export async function environmentOf(
  invocation: EnvironmentInvocation,
  paths: readonly string[],
  io: { cwd: string; env?: Readonly<Record<string, string | undefined>> },
  asksService = true,
): Promise<Outcome<{ value: CliEnvironment | undefined }>> {
  if (invocation.env === undefined)
    return invocation.environments === undefined
      ? { ok: true, value: undefined }
      : { ok: false, reason: '--environments is read only with --env NAME' };
  const found =
    invocation.environments === undefined
      ? await findEnvironmentsFile(paths, io.cwd)
      : { ok: true as const, file: slashed(relative(io.cwd, resolve(io.cwd, invocation.environments))) };
  if (!found.ok) return found;
  return readCliEnvironment(invocation.env, found.file, io, asksService);
}

/**
 * A trigger file's text as the environment sees it (obs noise and obs test evaluate that): its triggers effective,
 * or the text as it is for the home environment, without one, or for a text that is not a trigger file (said as
 * for any file). What cannot be named there (a recipient by id alone) changes nothing an evaluation counts.
 */
export function effectiveText(text: string, environment: CliEnvironment | undefined): string {
  const overlay = environment?.plan.overlay;
  return overlay === undefined ? text : (effectiveFile(text, overlay)?.text ?? text);
}
