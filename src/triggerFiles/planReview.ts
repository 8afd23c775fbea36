// A plan is a record of what a person reviewed, never a source of what is written: an apply plans again with
// the same pipeline and writes only when the changes it would make now are exactly the reviewed ones (same
// action, trigger, file, members and values). This module says what differs between the two, and which reviewed
// changes the service already holds (an apply run again, or the rest of one that stopped halfway): those are
// applied, not differences, and nothing is written for them. No vscode import.
import { differenceText, sameJson, valueText, type Difference } from './compare';
import type { ServiceIndex } from './drift';
import { storedDifferently, type Plan, type PlannedChange } from './plan';

/** How a change is told apart: the trigger it writes (by file and place for a create, by id otherwise). */
export function changeKey(c: PlannedChange): string {
  return c.action === 'create' ? `create\u0000${c.file}\u0000${c.index}` : `${c.action}\u0000${c.id}`;
}

function labelOf(c: PlannedChange): string {
  const what = `the ${c.action} of ${JSON.stringify(c.name)}`;
  if (c.action === 'create') return `${what} in ${c.dataset} (${c.file})`;
  return c.action === 'delete' ? `${what} (${c.id}) in ${c.dataset}` : `${what} (${c.id}) from ${c.file}`;
}

/** A value as a saved plan holds it: members left out where they are undefined. */
const asSaved = (v: unknown): unknown => (v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown));
const same = (a: unknown, b: unknown): boolean => sameJson(asSaved(a), asSaved(b));

function differencesText(reviewed: readonly Difference[], now: readonly Difference[]): string[] {
  const out: string[] = [];
  const was = new Map(reviewed.map((d) => [d.path, d]));
  const is = new Map(now.map((d) => [d.path, d]));
  for (const [path, d] of is) {
    const r = was.get(path);
    if (r === undefined) out.push(`${differenceText(d)} was not in the plan`);
    else if (!same(r, d))
      out.push(`${differenceText(d)} (the plan showed ${valueText(r.service)} -> ${valueText(r.local)})`);
  }
  for (const [path, r] of was) if (!is.has(path)) out.push(`${differenceText(r)} would not be made now`);
  return out;
}

/** What differs between a change as reviewed and as planned now, in words; empty when they are the same. */
function changeDifferences(reviewed: PlannedChange, now: PlannedChange): string[] {
  const out: string[] = [];
  if (reviewed.dataset !== now.dataset || reviewed.name !== now.name)
    out.push(`it is now of ${JSON.stringify(now.name)} in ${now.dataset}`);
  if (
    reviewed.action !== 'delete' &&
    now.action !== 'delete' &&
    (reviewed.file !== now.file || reviewed.index !== now.index)
  )
    out.push(`it is now of ${now.file}`);
  if (reviewed.action === 'update' && now.action === 'update') {
    if (reviewed.matchedBy !== now.matchedBy) out.push(`the file's trigger is now matched by ${now.matchedBy}`);
    out.push(...differencesText(reviewed.differences, now.differences));
  }
  if (reviewed.action !== 'delete' && now.action !== 'delete' && out.length === 0 && !same(reviewed.body, now.body)) {
    const members = [...new Set([...Object.keys(reviewed.body), ...Object.keys(now.body)])].filter(
      (m) => !same(reviewed.body[m], now.body[m]),
    );
    out.push(`it would now send other values of ${members.join(', ')}`);
  }
  // The service's trigger an update replaces or a delete removes must be the one reviewed: a change made on the
  // service meanwhile (re-enabled, new recipients) is never written over or deleted unseen, even where no
  // difference above shows it.
  if (
    out.length === 0 &&
    reviewed.action !== 'create' &&
    now.action !== 'create' &&
    reviewed.service.sha256 !== now.service.sha256
  ) {
    out.push(
      `the service's trigger changed since the plan${now.service.updatedAt === undefined ? '' : ` (updated ${now.service.updatedAt})`}`,
    );
  }
  return out;
}

/**
 * Whether the service holds what a reviewed change would leave it holding, read in the lists a plan was just made
 * from: an update's trigger or a created trigger of its dataset and name storing the body as a write would, or a
 * deleted trigger gone from its dataset's list.
 */
function heldBy(change: PlannedChange, service: ServiceIndex): boolean {
  if (change.action === 'delete') {
    return service.listing(change.dataset)?.state === 'listed' && service.get(change.id) === undefined;
  }
  const candidates = change.action === 'update' ? [service.get(change.id)] : service.named(change.dataset, change.name);
  return candidates.some((t) => t !== undefined && storedDifferently(change.body, change.dataset, t).length === 0);
}

export interface PlanReview {
  /** Why the changes planned now are not the reviewed ones, one line each: the whole apply is refused then. */
  differences: string[];
  /** Reviewed changes not planned now because the service already holds what they would write. */
  applied: PlannedChange[];
}

/**
 * The changes planned now against the reviewed ones. Every change planned now must be a reviewed one, the same;
 * a reviewed change not planned now is a difference, unless `service` (the lists the plan now was made from)
 * already holds what it would write. What was blocked or unchanged is not a change.
 */
export function reviewPlan(reviewed: Plan, now: Plan, service?: ServiceIndex): PlanReview {
  const out: string[] = [];
  const applied: PlannedChange[] = [];
  const was = new Map(reviewed.changes.map((c) => [changeKey(c), c]));
  const is = new Map(now.changes.map((c) => [changeKey(c), c]));
  if (was.size !== reviewed.changes.length) out.push('the plan names one change twice');
  for (const [key, c] of is) {
    const r = was.get(key);
    if (r === undefined) out.push(`${labelOf(c)} would be made now, and is not in the plan`);
    else for (const d of changeDifferences(r, c)) out.push(`${labelOf(r)}: ${d}`);
  }
  for (const [key, r] of was) {
    if (is.has(key)) continue;
    if (service !== undefined && heldBy(r, service)) applied.push(r);
    else out.push(`${labelOf(r)} is in the plan, and would not be made now`);
  }
  return { differences: out, applied };
}

/** Why the changes planned now are not the reviewed ones, one line each; empty when every change is the same. */
export function planDifferences(reviewed: Plan, now: Plan): string[] {
  return reviewPlan(reviewed, now).differences;
}

/**
 * The plan without the changes a person left out of this apply (by changeKey): what was reviewed is the plan
 * shown less those, and so is what is written after planning again, so the comparison holds for exactly the
 * changes that remain. A key that names no change leaves the plan as it is.
 */
export function withoutChanges(plan: Plan, excluded: ReadonlySet<string>): Plan {
  if (excluded.size === 0) return plan;
  return { ...plan, changes: plan.changes.filter((c) => !excluded.has(changeKey(c))) };
}
