// The effective trigger (docs/ENVIRONMENTS.md): a trigger as its file holds it, as another environment sees it.
// The override of the environment merged in (a JSON merge patch, RFC 7386), its dataset slug and recipients
// mapped, the home's ids left out (that environment is matched by name). What the overlay set is recorded by
// path, so a diagnostic about it points at the environments file rather than at the trigger file.
import type { Environment, EnvironmentAddress } from './environments';
import { canonicalDatasetSlug } from './normalize';

type Json = Record<string, unknown>;
type Path = (string | number)[];

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386: a member of the patch replaces, null removes, an object merges into an object. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const out: Json = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** The paths a patch sets or removes (its leaves; an object replacing a value that is not one is one leaf). */
function patchedPaths(patch: Json, at: Path = []): Path[] {
  return Object.entries(patch).flatMap(([key, value]) =>
    isRecord(value) && Object.keys(value).length > 0 ? patchedPaths(value, [...at, key]) : [[...at, key]],
  );
}

export interface EffectiveTrigger {
  value: Json;
  /** The members the environment's overlay set or removed: a problem there is the environments file's. */
  fromOverlay: Path[];
  /** Why the trigger cannot be taken to this environment as it is (a recipient it cannot name there). */
  problems: string[];
}

const addressKey = (a: EnvironmentAddress): string => `${a.type}\u0000${a.target}`;

/**
 * A recipient as the environment names it: by type and target (its id is the home's), mapped by the
 * environment's recipients. One named by id alone cannot be told in another environment: a problem.
 */
function recipientThere(
  r: unknown,
  map: ReadonlyMap<string, EnvironmentAddress>,
): { value?: unknown; problem?: string } {
  if (!isRecord(r)) return { value: r };
  const { id, ...rest } = r;
  if (typeof rest.type !== 'string' || typeof rest.target !== 'string' || rest.target === '')
    return {
      problem: `recipient ${JSON.stringify(id ?? r)} is named by id alone: give its type and target, which every environment can resolve`,
    };
  const to = map.get(addressKey({ type: rest.type, target: rest.target }));
  return { value: to === undefined ? rest : { ...rest, type: to.type, target: to.target } };
}

/** A list of recipients as the environment names them, each one it cannot name added to `problems`. */
function recipientsThere(list: readonly unknown[], env: Environment, problems: string[]): unknown[] {
  const map = new Map((env.recipients ?? []).map((r) => [addressKey(r.from), r.to]));
  return list.flatMap((r) => {
    const there = recipientThere(r, map);
    if (there.problem !== undefined) problems.push(there.problem);
    return there.value === undefined ? [] : [there.value];
  });
}

/**
 * The trigger of a file as `env` sees it. The override is the one of the trigger's dataset slug and name as
 * the file holds them (the home's).
 */
export function effectiveTrigger(value: Json, env: Environment): EffectiveTrigger {
  const dataset = typeof value.dataset_slug === 'string' ? canonicalDatasetSlug(value.dataset_slug) : undefined;
  const name = typeof value.name === 'string' ? value.name : undefined;
  const override = dataset === undefined || name === undefined ? undefined : env.triggers?.[dataset]?.[name];
  const out = { ...(override === undefined ? value : (mergePatch(value, override) as Json)) };
  // The file's id is the home's: in this environment the trigger is found by its dataset and name.
  delete out.id;
  const problems: string[] = [];
  if (dataset !== undefined) out.dataset_slug = env.datasets?.[dataset] ?? dataset;
  if (typeof out.query_id === 'string') out.query_id = env.queries?.[out.query_id] ?? out.query_id;
  if (Array.isArray(out.recipients)) out.recipients = recipientsThere(out.recipients, env, problems);
  const fromOverlay = override === undefined ? [] : patchedPaths(override);
  return { value: out, fromOverlay, problems };
}

/**
 * A burn alert or definitions file as `env` sees it: its dataset slug mapped and, for a burn alert, its recipients
 * mapped as a trigger's are. Its ids stay: another environment than the home finds the alert by its SLO's name,
 * type and threshold, and the comparison keeps the alert's own ids (sloPlan.ts).
 */
export function effectiveSloValue(
  kind: 'burn-alert' | 'definitions',
  value: Json,
  env: Environment,
): { value: Json; problems: string[] } {
  const out = { ...value };
  if (typeof out.dataset_slug === 'string') out.dataset_slug = env.datasets?.[out.dataset_slug] ?? out.dataset_slug;
  if (kind === 'definitions') return { value: out, problems: [] };
  const problems: string[] = [];
  if (Array.isArray(out.recipients)) out.recipients = recipientsThere(out.recipients, env, problems);
  return { value: out, problems };
}

/** The overrides of an environment that name no trigger of the files: each a likely typo, said by its place. */
export function unusedOverrides(env: Environment, triggers: Iterable<{ dataset: string; name: string }>): Path[] {
  const held = new Set([...triggers].map((t) => `${t.dataset}\u0000${t.name}`));
  return Object.entries(env.triggers ?? {}).flatMap(([dataset, byName]) =>
    Object.keys(byName).flatMap((name) => (held.has(`${dataset}\u0000${name}`) ? [] : [['triggers', dataset, name]])),
  );
}
