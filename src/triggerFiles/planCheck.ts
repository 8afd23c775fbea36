// A saved plan is input, not trusted: before any change of it is applied, each is held against the files it
// was made from (which must hash as recorded). A change a file does not ask for (a body, dataset or id
// edited into the plan, a delete of a trigger a file holds, a delete without --prune) refuses the whole
// plan. No vscode import.
import { sameJson } from './compare';
import { canonicalDatasetSlug } from './normalize';
import type { LocalTrigger } from './localFiles';
import { writeBody, type Plan, type PlanFile, type PlannedChange } from './plan';

type FileChange = Extract<PlannedChange, { action: 'create' | 'update' }>;

/** The trigger a change names in its file, or undefined. */
export function triggerOf(files: ReadonlyMap<string, PlanFile>, change: FileChange): LocalTrigger | undefined {
  const read = files.get(change.file)?.read;
  return read?.ok === true ? read.triggers.find((t) => t.index === change.index) : undefined;
}

function fileChangeProblem(change: FileChange, local: LocalTrigger | undefined): string | undefined {
  const what = `the ${change.action} of ${JSON.stringify(change.name)} (${change.file})`;
  if (local === undefined) return `${what} names no trigger of that file`;
  if (local.name !== change.name || local.dataset !== canonicalDatasetSlug(change.dataset)) return `${what} does not name the file's trigger (${JSON.stringify(local.name ?? '')} of ${local.dataset ?? 'no dataset'})`;
  if (change.action === 'create') {
    if (local.id !== undefined) return `${what}: the file's trigger has an id, so it is not created`;
    if (!sameJson(change.body, writeBody(local.value))) return `${what} sends a body the file does not hold`;
    return undefined;
  }
  const byId = local.id === change.id && change.matchedBy === 'id';
  const byName = local.id === undefined && change.matchedBy === 'name';
  return byId || byName ? undefined : `${what} names trigger ${change.id}, which the file does not`;
}

function deleteProblem(change: Extract<PlannedChange, { action: 'delete' }>, plan: Plan, locals: readonly LocalTrigger[]): string | undefined {
  const what = `the delete of ${JSON.stringify(change.name)} (${change.id})`;
  if (!plan.prune) return `${what} is in a plan made without --prune`;
  const dataset = canonicalDatasetSlug(change.dataset);
  if (!locals.some((t) => t.dataset === dataset)) return `${what}: no file of the plan is about ${dataset}`;
  const held = locals.find((t) => t.id === change.id || (t.id === undefined && t.dataset === dataset && t.name === change.name));
  return held === undefined ? undefined : `${what}: a file of the plan holds that trigger`;
}

/**
 * Why the plan's changes are not what its files ask for, or an empty list. The files are those the plan
 * read, as they are now (their hashes checked by the caller). An update's body depends on the service's
 * trigger too; it is checked against the file when it is written (applyChanges' expectedBody).
 */
export function planMismatches(plan: Plan, files: ReadonlyMap<string, PlanFile>): string[] {
  const locals = [...files.values()].flatMap((f) => (f.read.ok ? f.read.triggers : []));
  const out: string[] = [];
  for (const change of plan.changes) {
    const problem = change.action === 'delete' ? deleteProblem(change, plan, locals) : fileChangeProblem(change, triggerOf(files, change));
    if (problem !== undefined) out.push(problem);
  }
  return out;
}
