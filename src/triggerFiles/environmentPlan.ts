// The trigger files as an environment sees them (docs/ENVIRONMENTS.md), before the one plan pipeline's gates:
// each trigger made the effective trigger of the environment (its override merged, its dataset, saved query and
// recipients mapped, the home's id dropped), so that the linter, the service's lists and the writes all see what
// that environment will hold. What cannot be taken there, and an override that names no trigger of the files,
// blocks with its place named. No vscode import.
import type { DiagnosticPlace } from '../lint/gate';
import type { Diagnostic } from '../lint/types';
import { effectiveSloValue, effectiveTrigger, unusedOverrides } from './effective';
import { jsonObjectOf } from './jsonObject';
import type { SloPlanFile } from './sloPlan';
import { jsonRangeLocator } from './jsonPlaces';
import type { Environment } from './environments';
import { readTriggerFile, withoutIds, type LocalFile } from './localFiles';
import type { BlockedTrigger } from './plan';
import { canonicalDatasetSlug } from './normalize';

/** The environment a plan is made for. */
export interface PlanEnvironment {
  name: string;
  /** The environments file, as the plan names files (a blocked entry about an override names it). */
  file: string;
  /** The environment's overlay; undefined for the home, whose ids and values the files hold as they are. */
  overlay?: Environment;
}

/** A trigger file's text as the environment sees it, and why a trigger of it cannot be taken there. */
export interface EffectiveFile {
  text: string;
  /** By the trigger's place in the file (-1 for a file of one trigger). */
  problems: ReadonlyMap<number, readonly string[]>;
  /** The triggers the file holds, by the home's dataset (canonical) and name: the overrides they use. */
  triggers: readonly { dataset: string; name: string }[];
  /** By the trigger's place: its override's dataset and name and the members the override set (lint points there). */
  overlaid: ReadonlyMap<number, { dataset: string; name: string; paths: readonly (string | number)[][] }>;
}

/**
 * The file's triggers made effective, written as JSON the way the file holds them (one object or an array);
 * undefined for a text that is not a trigger file (the plan says why, as for any file).
 */
export function effectiveFile(text: string, overlay: Environment): EffectiveFile | undefined {
  const read = readTriggerFile(text);
  if (!read.ok) return undefined;
  const problems = new Map<number, string[]>();
  const overlaid = new Map<number, { dataset: string; name: string; paths: (string | number)[][] }>();
  const values = read.triggers.map((t) => {
    const effective = effectiveTrigger(t.value, overlay);
    if (effective.problems.length > 0) problems.set(t.index, effective.problems);
    if (effective.fromOverlay.length > 0 && t.dataset !== undefined && t.name !== undefined)
      overlaid.set(t.index, { dataset: t.dataset, name: t.name, paths: effective.fromOverlay });
    return effective.value;
  });
  const triggers = read.triggers.flatMap((t) =>
    t.dataset === undefined || t.name === undefined ? [] : [{ dataset: t.dataset, name: t.name }],
  );
  const single = read.triggers.length === 1 && read.triggers[0]?.index === -1;
  return { text: `${JSON.stringify(single ? values[0] : values, null, 2)}\n`, problems, triggers, overlaid };
}

/**
 * A trigger file as drift compares it for an environment other than the home one: each trigger made effective and
 * found by dataset and name (the file's ids are the home's); a trigger that cannot be taken there makes the file
 * not comparable, said why. `triggers`: those the file holds (the overrides it uses); undefined for a text that is
 * not a trigger file (read as it is, its own reason said).
 */
export function fileAsSeenBy(
  text: string,
  env: { name: string; overlay: Environment },
): { file: LocalFile; triggers?: readonly { dataset: string; name: string }[] } {
  const e = effectiveFile(text, env.overlay);
  if (e === undefined) return { file: readTriggerFile(text) };
  const problems = [...e.problems.values()].flat();
  if (problems.length > 0)
    return { file: { ok: false, reason: `as ${env.name} sees it: ${problems.join('; ')}` }, triggers: e.triggers };
  return { file: withoutIds(readTriggerFile(e.text)), triggers: e.triggers };
}

const startsWith = (path: readonly (string | number)[], prefix: readonly (string | number)[]): boolean =>
  prefix.length <= path.length && prefix.every((p, i) => path[i] === p);

/**
 * The override a finding of the effective text is about, when the environment's overlay set the member it points
 * at: the home's dataset (canonical) and trigger name, and the member under the trigger. Undefined for a member
 * the trigger file holds as the environment sees it, where the finding is fixed.
 */
export function overriddenMember(
  effective: EffectiveFile,
  path: readonly (string | number)[],
): { dataset: string; name: string; member: (string | number)[] } | undefined {
  // The effective text holds the triggers as the file does: one object, or an array in the same order.
  const index = typeof path[0] === 'number' ? path[0] : -1;
  const member = index === -1 ? [...path] : path.slice(1);
  const overlaid = effective.overlaid.get(index);
  if (overlaid === undefined || !overlaid.paths.some((p) => startsWith(member, p))) return undefined;
  return { dataset: overlaid.dataset, name: overlaid.name, member };
}

/**
 * Where a finding of the effective trigger is fixed: a member the overlay set at its override in the environments
 * file, any other at its line in the trigger file (the effective text's lines are not the file's).
 */
export function placeOfFinding(
  effective: EffectiveFile,
  fileText: string,
  env: { name: string; file: string },
): (d: Diagnostic) => DiagnosticPlace {
  const locate = jsonRangeLocator(fileText);
  return (d) => {
    const o = overriddenMember(effective, d.path);
    if (o !== undefined)
      return { elsewhere: `${env.file} ${placeText(env.name, ['triggers', o.dataset, o.name, ...o.member])}` };
    return { line: locate(d.path).start.line + 1 };
  };
}

/**
 * A burn alert or definitions file as an environment other than the home one sees it (its dataset and recipients
 * mapped, effective.ts), compared and planned as such (a plan records the hash of its bytes). One whose recipient
 * cannot be named there is not compared, said why.
 */
export function sloFileAsSeenBy(f: SloPlanFile, overlay: Environment): SloPlanFile {
  const value = f.text === undefined ? undefined : jsonObjectOf(f.text);
  if (f.text === undefined || value === undefined) return f;
  const seen = effectiveSloValue(f.kind, value, overlay);
  if (seen.problems.length > 0)
    return { file: f.file, kind: f.kind, text: undefined, problem: `as it is seen there: ${seen.problems.join('; ')}` };
  return { ...f, text: `${JSON.stringify(seen.value, null, 2)}\n` };
}

/** A place in the environments file, as people read it: environments.production.triggers."checkout"."Errors". */
const placeText = (environment: string, path: readonly (string | number)[]): string =>
  ['environments', environment, ...path.map((p) => (typeof p === 'number' ? `[${p}]` : JSON.stringify(p)))].join('.');

/**
 * The overrides of the environment that name no trigger of the files found by a walk, in the datasets those files
 * hold: each blocks its dataset (its trigger may be the one misspelt, and would otherwise be written with the
 * home's values). A file named on its own checks nothing: the other triggers of its dataset are not planned.
 */
export function unusedOverrideEntries(
  env: PlanEnvironment,
  walked: readonly { dataset: string; name: string }[],
): BlockedTrigger[] {
  if (env.overlay === undefined) return [];
  const datasets = new Set(walked.map((t) => t.dataset));
  return unusedOverrides(env.overlay, walked).flatMap((path) => {
    const [, dataset] = path;
    if (typeof dataset !== 'string' || !datasets.has(dataset)) return [];
    const mapped = env.overlay?.datasets?.[dataset] ?? dataset;
    return [
      {
        kind: 'trigger' as const,
        file: env.file,
        index: -1,
        dataset: canonicalDatasetSlug(mapped),
        reasons: [
          `${placeText(env.name, path)} names no trigger of the files: a misspelt name would leave the trigger ` +
            `it means with the values of ${JSON.stringify(dataset)} as the files hold them; ` +
            'nothing of the dataset is written',
        ],
      },
    ];
  });
}
