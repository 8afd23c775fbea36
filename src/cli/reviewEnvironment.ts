// obs review --env (docs/ENVIRONMENTS.md): what an environment changes in a review. The files are linted, planned
// and tested as the environment sees them, and a change to the environments file is a change of every trigger
// whose effective version it changes: a production override edited in a pull request is that pull request's own
// change of the trigger, though the trigger's file is untouched.
import type { Environment } from '../triggerFiles/environments';
import { readEnvironments } from '../triggerFiles/environments';
import { effectiveFile } from '../triggerFiles/environmentPlan';
import { readTriggerFile, withoutIds, type LocalFile } from '../triggerFiles';
import type { CliEnvironment } from './environment';
import { textAt, type ChangedFiles } from './reviewChanged';
import { repoPath } from './reviewScope';

/** A trigger file's text as the environment sees it, with what cannot be taken there: equal texts, equal effects. */
function seenAs(text: string, overlay: Environment | undefined): string {
  if (overlay === undefined) return text;
  const e = effectiveFile(text, overlay);
  return e === undefined ? text : JSON.stringify([e.text, [...e.problems]]);
}

/** The environment as the environments file at the change's base held it: absent when it was new or unreadable. */
async function baseOverlay(
  environment: CliEnvironment,
  changed: ChangedFiles,
  cwd: string,
): Promise<{ overlay: Environment | undefined } | undefined> {
  const text = await textAt(cwd, changed.base, repoPath(cwd, environment.record.file));
  const read = text === undefined ? undefined : readEnvironments(text);
  if (read?.ok !== true) return undefined;
  const name = environment.plan.name;
  const env = read.value.environments.get(name);
  if (env === undefined) return undefined;
  return { overlay: read.value.home === name ? undefined : env };
}

/**
 * Whether a trigger file's text is seen otherwise by the environment since the change's base, for the environments
 * file the change edits; undefined when the change leaves that file alone (only the files it touches changed). An
 * environment new in the change, or a file unreadable at its base, changes every trigger.
 */
export async function overlayTouches(
  environment: CliEnvironment | undefined,
  changed: ChangedFiles | undefined,
  cwd: string,
): Promise<((text: string) => boolean) | undefined> {
  if (environment === undefined || changed === undefined) return undefined;
  if (!changed.changed.has(repoPath(cwd, environment.record.file))) return undefined;
  const base = await baseOverlay(environment, changed, cwd);
  if (base === undefined) return () => true;
  const now = environment.plan.overlay;
  return (text) => seenAs(text, base.overlay) !== seenAs(text, now);
}

/**
 * A trigger file as the environment would have planned it (for what a prune deletes): effective and without the
 * home's ids in an environment other than the home, where triggers are found by dataset and name.
 */
export function plannedAs(text: string, environment: CliEnvironment | undefined, matchByName: boolean): LocalFile {
  const overlay = environment?.plan.overlay;
  const effective = overlay === undefined ? undefined : effectiveFile(text, overlay);
  const read = readTriggerFile(effective?.text ?? text);
  return matchByName || overlay !== undefined ? withoutIds(read) : read;
}
