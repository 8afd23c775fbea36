// What `obs plan` and `obs apply` print: the plan (creates, updates with each member old -> new, deletes
// apart, what is blocked and why) and each change's outcome. Every line passes through visible(): names,
// values and the service's words are shown, never acted on by the terminal.
import {
  differenceText,
  kindOfFile,
  planCounts,
  valueText,
  type BlockedTrigger,
  type ChangeResult,
  type Plan,
  type PlanKind,
  type PlannedChange,
} from '../triggerFiles';
import { pathOf } from './jsonPlace';
import { visible } from './visible';

/** A value of a create is shown whole up to this many characters. */
const VALUE_MAX = 2_000;

const quoted = (s: string) => JSON.stringify(s);

/** `api-gateway "High error rate" (trig_gw_errors)`; `definitions of api-gateway` */
function triggerLabel(c: PlannedChange): string {
  if (c.kind === 'definitions') return `definitions of ${c.dataset}`;
  const id = c.action === 'create' ? '' : ` (${c.id})`;
  return `${c.dataset} ${quoted(c.name)}${id}`;
}

const SIGN: Record<PlannedChange['action'], string> = { create: '+', update: '~', delete: '-' };

/** A create that is probably a trigger renamed in a file without id, and how to rename it in place instead. */
function renameLine(c: Extract<PlannedChange, { action: 'create' }>): string[] {
  if (c.renameOf === undefined) return [];
  return [
    `(probably ${quoted(c.renameOf.name)} (${c.renameOf.id}) renamed, which this plan deletes: give the file "id": ${quoted(c.renameOf.id)} to rename it in place)`,
  ];
}

/** Each recipient the file names by type and target, and the team's recipient it resolved to. */
function referenceLines(c: Exclude<PlannedChange, { action: 'delete' }>): string[] {
  const refs = c.kind === 'definitions' ? undefined : c.recipientReferences;
  return (refs ?? []).map((r) => `(recipient ${r.type} ${quoted(r.target)} is ${r.id} in this team)`);
}

/** One change or blocked trigger of a plan as every report says it: a line naming it, and the lines under it. */
interface PlanEntry {
  head: string;
  lines: string[];
  /** The file it is about, and the member there: the trigger's place, then the first member that changes. */
  file?: string;
  path: (string | number)[];
}

/** The plan's changes and blocked triggers by kind, each kind under its title; kinds without any left out. */
export interface PlanSection {
  kind: PlannedChange['action'] | 'blocked';
  title: string;
  entries: PlanEntry[];
}

const placeIn = (index: number): number[] => (index >= 0 ? [index] : []);

/** `idsIgnored`: --match-by-name, where every trigger is matched so and the plan says it once. */
function changeEntry(c: PlannedChange, idsIgnored: boolean): PlanEntry {
  const where = c.action === 'delete' ? '' : `  ${c.file}`;
  const head = `${SIGN[c.action]} ${triggerLabel(c)}${where}`;
  if (c.action === 'delete') return { head, lines: [], path: [] };
  // A create is shown whole: what the trigger will be, not only its name.
  if (c.action === 'create') {
    const members = Object.entries(c.body).map(([member, value]) => `${member}: ${valueText(value, VALUE_MAX)}`);
    return { head, lines: [...renameLine(c), ...referenceLines(c), ...members], file: c.file, path: placeIn(c.index) };
  }
  const by =
    c.matchedBy === 'name' && !idsIgnored
      ? [
          c.kind === 'burn-alert'
            ? "(the file has no id: matched by its SLO's name and alert type; give the file its id to keep them linked)"
            : '(the file has no id: matched by dataset and name; give the file its id to keep them linked)',
        ]
      : [];
  const first = c.differences[0];
  const path = [...placeIn(c.index), ...(first === undefined ? [] : pathOf(first.path))];
  const lines = [...by, ...referenceLines(c), ...c.differences.map((d) => differenceText(d, 120))];
  return { head, lines, file: c.file, path };
}

function blockedEntry(b: BlockedTrigger): PlanEntry {
  const where = b.file ?? b.dataset ?? '';
  const what = b.name === undefined ? '' : ` ${quoted(b.name)}`;
  const head = `! ${where}${b.index >= 0 ? `[${b.index}]` : ''}${what}:`;
  return { head, lines: [...b.reasons], ...(b.file === undefined ? {} : { file: b.file }), path: placeIn(b.index) };
}

/** The sections of the burn alerts or the definitions: updated only. */
function kindSections(plan: Plan, kind: Exclude<PlanKind, 'trigger'>, what: string): PlanSection[] {
  const byName = plan.inputs.matchByName;
  const updates = plan.changes.filter((c) => c.kind === kind);
  const blocked = plan.blocked.filter((b) => b.kind === kind);
  return [
    {
      kind: 'update',
      title: `Update ${what} (service value -> file value):`,
      entries: updates.map((c) => changeEntry(c, byName)),
    },
    { kind: 'blocked', title: `Blocked ${what} (never written):`, entries: blocked.map(blockedEntry) },
  ];
}

/** The plan's sections in the order the text plan shows them: triggers, then burn alerts, then definitions. */
export function planSections(plan: Plan): PlanSection[] {
  const of = (action: PlannedChange['action']) =>
    plan.changes.filter((c) => c.kind === 'trigger' && c.action === action);
  const byName = plan.inputs.matchByName;
  const deletes = of('delete');
  const sections: PlanSection[] = [
    { kind: 'create', title: 'Create:', entries: of('create').map((c) => changeEntry(c, byName)) },
    {
      kind: 'update',
      title: 'Update (service value -> file value):',
      entries: of('update').map((c) => changeEntry(c, byName)),
    },
    {
      kind: 'delete',
      title: `Delete (asked for with --prune; ${deletes.length} service triggers no file holds):`,
      entries: deletes.map((c) => changeEntry(c, byName)),
    },
    {
      kind: 'blocked',
      title: 'Blocked (never written):',
      entries: plan.blocked.filter((b) => b.kind === 'trigger').map(blockedEntry),
    },
    ...kindSections(plan, 'burn-alert', 'burn alerts'),
    ...kindSections(plan, 'definitions', 'definitions'),
  ];
  return sections.filter((s) => s.entries.length > 0);
}

/** "3 to create, 1 to update, 1 to delete, 8 unchanged, 1 blocked" */
export function planCountsText(plan: Plan): string {
  const c = planCounts(plan);
  return `${c.create} to create, ${c.update} to update, ${c.delete} to delete, ${c.unchanged} unchanged, ${c.blocked} blocked`;
}

/** What the plan is against and of, said before its changes. */
export function planIntro(plan: Plan): string[] {
  const connection = plan.target.connection === undefined ? '' : ` (${plan.target.connection})`;
  const env = plan.inputs.environment;
  const forEnv = env === undefined ? '' : ` for ${env.name} as ${env.file} describes it`;
  const why = env === undefined ? '--match-by-name' : `${env.name} is not the environment the files' ids are of`;
  return [
    `Plan against ${plan.target.baseUrl}${connection}${forEnv}, ${plan.files.length} files read`,
    ...(plan.inputs.matchByName
      ? [
          `Each trigger matched by dataset and name (${why}): ` +
            "the files' ids are not used, and no created trigger's id is written into its file.",
          ...(plan.files.some((f) => kindOfFile(f.file) === 'burn-alert')
            ? [
                "Each burn alert matched by its dataset, its SLO's name and its alert type (and its threshold among several).",
              ]
            : []),
        ]
      : []),
  ];
}

/** Said when a plan has no change and nothing blocked. */
export const NOTHING_TO_CHANGE = 'Nothing to change: the service matches the files.';

/** The plan as people read it in a terminal or a CI log. */
export function planText(plan: Plan): string {
  const lines = planIntro(plan);
  for (const section of planSections(plan))
    lines.push(
      '',
      section.title,
      ...section.entries.flatMap((e) => [`  ${e.head}`, ...e.lines.map((l) => `      ${l}`)]),
    );
  if (plan.changes.length === 0 && plan.blocked.length === 0) lines.push('', NOTHING_TO_CHANGE);
  lines.push('', planCountsText(plan));
  return `${lines.map(visible).join('\n')}\n`;
}

function resultLines(r: ChangeResult): string[] {
  const label = `${SIGN[r.change.action]} ${triggerLabel(r.change)}`;
  switch (r.outcome) {
    case 'applied': {
      const id = r.change.action === 'create' ? ` as ${r.id}` : '';
      const stored = r.storedDifferently.map(
        (d) =>
          `      stored differently (sent -> stored): ${differenceText({ ...d, service: d.local, local: d.service }, 120)}`,
      );
      return [`applied  ${label}${id}${r.note === undefined ? '' : `: ${r.note}`}`, ...stored];
    }
    case 'skipped':
      return [`skipped  ${label}: ${r.reason}`];
    case 'refused':
      return [`refused  ${label}: ${r.reason}`, ...r.members.map((m) => `      ${m.field}: ${m.message}`)];
    case 'unverified':
      return [`written, not verified  ${label}${r.change.action === 'create' ? ` as ${r.id}` : ''}: ${r.reason}`];
    case 'unknown':
      return [`outcome unknown  ${label}: ${r.reason}`];
    default:
      return [`failed   ${label}: ${r.reason}`];
  }
}

/** "3 applied (1 stored differently), 1 skipped, 0 refused, 0 failed", and "1 written but not verified" when one was. */
function resultCountsText(results: readonly ChangeResult[]): string {
  const count = (o: ChangeResult['outcome']) => results.filter((r) => r.outcome === o).length;
  const differently = results.filter((r) => r.outcome === 'applied' && r.storedDifferently.length > 0).length;
  const unverified = count('unverified');
  const unknown = count('unknown');
  return `${count('applied')} applied${differently > 0 ? ` (${differently} stored differently)` : ''}, ${count('skipped')} skipped, ${count('refused')} refused, ${count('failed')} failed${unknown > 0 ? `, ${unknown} with an unknown outcome` : ''}${unverified > 0 ? `, ${unverified} written but not verified` : ''}`;
}

/** The reviewed changes the service already holds, and whether the apply goes on with the rest (`left` changes). */
export function alreadyAppliedText(file: string, applied: readonly PlannedChange[], left: number): string {
  const held = 'the service holds what it would write';
  const lines = applied.map((c) => `already applied  ${SIGN[c.action]} ${triggerLabel(c)}: ${held}`);
  const one = applied.length === 1;
  if (left === 0)
    lines.push(
      `${file} is already applied: the service holds ${one ? 'the change' : `all ${applied.length} changes`} it shows; nothing was written`,
    );
  else
    lines.push(
      `${one ? '1 change' : `${applied.length} changes`} of ${file} already applied; the rest is applied now`,
      '',
    );
  return `${lines.map(visible).join('\n')}\n`;
}

/** Each change's outcome, then the counts. */
export function applyText(results: readonly ChangeResult[]): string {
  const lines = [...results.flatMap(resultLines), '', resultCountsText(results)];
  return `${lines.map(visible).join('\n')}\n`;
}
