// The environments file (docs/ENVIRONMENTS.md): which environments one set of files is applied to, the one whose
// ids the files hold (`home`), and what differs in each other one (dataset slugs, recipients, per-trigger
// overrides). Read strictly: a member this file does not know is a mistake named by its place, never ignored,
// since an override ignored would apply the home's threshold to production. No vscode import.
import * as z from 'zod';
import type { Outcome } from '../result';
import { canonicalDatasetSlug } from './normalize';

export { ENVIRONMENTS_FILE_NAME } from './paths';

/** An environment's name: what `--env` takes and a plan records. */
const NAME = /^[a-z][a-z0-9_-]{0,39}$/;
/** A variable's name: the service's address or key is read from it in CI (never the value). */
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

const Address = z.strictObject({
  type: z.string().min(1).describe("The recipient's type: email, slack, pagerduty, webhook, msteams_workflow..."),
  target: z
    .string()
    .min(1)
    .describe("What the team's list calls it: an address, a channel, an integration's or a webhook's name"),
});

const variable = (what: string) =>
  z.string().regex(VARIABLE, 'a variable name: letters, digits and _').describe(`The variable holding ${what}`);

const Environment = z.strictObject({
  /** The editor's connection of this environment, by its name. */
  connection: z.string().min(1).optional().describe("The editor's connection of this environment, by its name"),
  /** The names of the variables holding the service's address and the configuration key in CI. */
  variables: z
    .strictObject({
      baseUrl: variable("the service's address"),
      key: variable('the configuration key (never the key itself)'),
    })
    .optional()
    .describe('The variables obs plan, apply and drift --env read the service and key from'),
  /** The home's dataset slug -> this environment's. */
  datasets: z
    .record(z.string().min(1), z.string().min(1))
    .optional()
    .describe("The home's dataset slug -> this environment's"),
  /** The home's saved query id -> this environment's (a trigger's `query_id`). */
  queries: z
    .record(z.string().min(1), z.string().min(1))
    .optional()
    .describe("The home's saved query id (a trigger's query_id) -> this environment's"),
  /** The home's recipient -> this environment's, each named by type and target. */
  recipients: z
    .array(z.strictObject({ from: Address, to: Address }))
    .optional()
    .describe("The home's recipient -> this environment's, each named by type and target"),
  /** Overrides by the home's dataset slug, then trigger name: a JSON merge patch of the trigger. */
  triggers: z
    .record(z.string().min(1), z.record(z.string().min(1), z.record(z.string(), z.unknown())))
    .optional()
    .describe("Overrides by the home's dataset slug, then trigger name: a JSON merge patch of the trigger"),
});

/** The environments file as read (its JSON Schema is generated from it: environmentsSchema.ts). */
export const EnvironmentsFile = z.strictObject({
  $schema: z.string().optional(),
  home: z.string().describe('The environment whose ids the files hold (the one they were pulled from)'),
  environments: z
    .record(z.string().regex(NAME, 'lower-case letters, digits, - and _, starting with a letter'), Environment)
    .describe('Each environment by the name --env takes'),
});

export type EnvironmentAddress = z.infer<typeof Address>;
export type Environment = z.infer<typeof Environment>;

export interface Environments {
  home: string;
  environments: ReadonlyMap<string, Environment>;
}

/** A mistake in the file: where (a JSON path from its root) and what. */
export interface EnvironmentsProblem {
  path: (string | number)[];
  message: string;
}

/**
 * Each pair whose `to` an earlier pair already has: such a map is not one to one, so what a value there stands
 * for could not be told. `said(from, other, to)` words it.
 */
function manyToOne(
  pairs: readonly (readonly [string, string])[],
  at: (i: number) => (string | number)[],
  said: (from: string, other: string, to: string) => string,
): EnvironmentsProblem[] {
  const seen = new Map<string, string>();
  return pairs.flatMap(([from, to], i) => {
    const other = seen.get(to);
    if (other === undefined) {
      seen.set(to, from);
      return [];
    }
    return [{ path: at(i), message: said(from, other, to) }];
  });
}

const addressText = (a: EnvironmentAddress): string => `${a.type} ${JSON.stringify(a.target)}`;

/** What the schema cannot say: the home is one of the environments and has no overlay; the maps are one to one. */
function meaning(file: z.infer<typeof EnvironmentsFile>): EnvironmentsProblem[] {
  const out: EnvironmentsProblem[] = [];
  const home = file.environments[file.home];
  const names = Object.keys(file.environments);
  if (home === undefined)
    out.push({ path: ['home'], message: `home must name one of the environments (${names.join(', ') || 'none'})` });
  for (const member of ['datasets', 'queries', 'recipients', 'triggers'] as const) {
    if (home?.[member] !== undefined)
      out.push({
        path: ['environments', file.home, member],
        message: `the home environment is what the files hold: it has no ${member} of its own`,
      });
  }
  for (const [name, env] of Object.entries(file.environments)) {
    out.push(...sameDatasetTwice(name, 'datasets', env.datasets), ...sameDatasetTwice(name, 'triggers', env.triggers));
    const datasets = Object.entries(env.datasets ?? {});
    const datasetAt = (i: number) => ['environments', name, 'datasets', datasets[i]?.[0] ?? ''];
    out.push(...manyToOne(datasets, datasetAt, (a, b, to) => `${a} and ${b} are both mapped to ${to}`));
    const queries = Object.entries(env.queries ?? {});
    const queryAt = (i: number) => ['environments', name, 'queries', queries[i]?.[0] ?? ''];
    out.push(...manyToOne(queries, queryAt, (a, b, to) => `${a} and ${b} are both mapped to ${to}`));
    const recipients = (env.recipients ?? []).map((r) => [addressText(r.from), addressText(r.to)] as const);
    const at = (i: number) => ['environments', name, 'recipients', i];
    out.push(...manyToOne(recipients, at, (a, b, to) => `${a} and ${b} are both mapped to ${to}`));
    const froms = recipients.map(([from]) => [from, from] as const);
    out.push(...manyToOne(froms, at, (from) => `${from} is mapped twice`));
  }
  return out;
}

const canonicalKeys = <T>(map: Record<string, T> | undefined): Record<string, T> | undefined =>
  map === undefined ? undefined : Object.fromEntries(Object.entries(map).map(([k, v]) => [canonicalDatasetSlug(k), v]));

/** An environment whose maps are keyed by canonical dataset slugs (`all` for environment-wide), as files are read. */
function canonical(env: Environment): Environment {
  const datasets = canonicalKeys(env.datasets);
  const triggers = canonicalKeys(env.triggers);
  return { ...env, ...(datasets === undefined ? {} : { datasets }), ...(triggers === undefined ? {} : { triggers }) };
}

/** Keys that are one dataset written two ways (`all` and `__all__`): which of the two would apply is not said. */
function sameDatasetTwice(name: string, member: 'datasets' | 'triggers', map: Record<string, unknown> | undefined) {
  const keys = Object.keys(map ?? {});
  const seen = new Set<string>();
  return keys.flatMap((k) => {
    const c = canonicalDatasetSlug(k);
    if (!seen.has(c)) {
      seen.add(c);
      return [];
    }
    return [
      { path: ['environments', name, member, k], message: `${k} is the environment-wide dataset, already given` },
    ];
  });
}

/** The environments file read, or every mistake in it. Never throws. */
export function readEnvironments(text: string): Outcome<{ value: Environments }, EnvironmentsProblem[]> {
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    return {
      ok: false,
      reason: [{ path: [], message: `not valid JSON (${e instanceof Error ? e.message : String(e)})` }],
    };
  }
  return environmentsOf(json);
}

/** The environments of a file's parsed JSON, or every mistake in it (the linter reads the JSON itself). */
export function environmentsOf(json: unknown): Outcome<{ value: Environments }, EnvironmentsProblem[]> {
  const parsed = EnvironmentsFile.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      reason: parsed.error.issues.map((i) => ({
        path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
        message: i.message,
      })),
    };
  const problems = meaning(parsed.data);
  if (problems.length > 0) return { ok: false, reason: problems };
  const environments = new Map(Object.entries(parsed.data.environments).map(([name, env]) => [name, canonical(env)]));
  return { ok: true, value: { home: parsed.data.home, environments } };
}
