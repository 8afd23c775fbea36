// The messages between the plan view (the editor's Apply of trigger, burn alert and definitions files) and the
// extension host, both ways, as zod schemas. The host words everything that comes from the plan (names, values, counts, outcomes); the
// page adds only its own controls' words (text/planView.ts). Every message from the page names the review it
// was drawn from, so a click on a plan that was replaced since is refused, never applied to another plan.
// No vscode import.
import * as z from 'zod';

/** A key, name or typed text from the page is never longer than this (a key is a file path and an index). */
const MAX_TEXT = 10_000;
/** A plan of more changes than this is not reviewed in one view (the page sends its exclusions back). */
const MAX_CHANGES = 10_000;

const Action = z.enum(['create', 'update', 'delete']);
/** The kinds of file a plan holds, in the order the view shows them: triggers, burn alerts, definitions. */
export const PLAN_KINDS = ['trigger', 'burn-alert', 'definitions'] as const;
const Kind = z.enum(PLAN_KINDS);

/** One member a change writes: the service's value now (none for a create) and the value the file gives it. */
export const PlanMember = z.strictObject({
  path: z.string(),
  before: z.string().optional(),
  after: z.string(),
  /** Recipient ids by name ("rcp_1 is On-call (PagerDuty)"). */
  note: z.string().optional(),
});
export type PlanMember = z.infer<typeof PlanMember>;

/** What became of a change once applied, in the user's words (never the raw HTTP line). */
export const ChangeOutcome = z.strictObject({
  outcome: z.enum(['applied', 'skipped', 'refused', 'failed', 'unknown', 'unverified', 'excluded']),
  headline: z.string(),
  details: z.array(z.string()),
});
export type ChangeOutcome = z.infer<typeof ChangeOutcome>;

export const PlanChange = z.strictObject({
  /** Tells the change apart within its review: the key of the plan's change (planReview.ts changeKey). */
  key: z.string(),
  action: Action,
  /** What the change writes: a trigger, a burn alert or a dataset's definitions (these two only updated). */
  kind: Kind,
  /** `api-gateway "High error rate" (trig_1)`. */
  label: z.string(),
  file: z.string().optional(),
  notes: z.array(z.string()),
  members: z.array(PlanMember),
  excluded: z.boolean(),
  /** It has a file to open (a create or update), or the service's version (a delete on the active connection). */
  canOpen: z.boolean(),
  /** The compare-with-service diff applies: an update planned against the active connection. */
  canCompare: z.boolean(),
  result: ChangeOutcome.optional(),
});
export type PlanChange = z.infer<typeof PlanChange>;

/** The changes of one kind and action ("Triggers to create"), in the plan's order. */
export const PlanGroup = z.strictObject({
  action: Action,
  kind: Kind,
  title: z.string(),
  changes: z.array(PlanChange),
});
export type PlanGroup = z.infer<typeof PlanGroup>;

const PlanBlocked = z.strictObject({ where: z.string(), reasons: z.array(z.string()) });

/** The blocked entries of one kind, under their heading ("Blocked burn alerts (never written)"). */
export const PlanBlockedGroup = z.strictObject({ kind: Kind, title: z.string(), entries: z.array(PlanBlocked) });
export type PlanBlockedGroup = z.infer<typeof PlanBlockedGroup>;

export const PlanPhase = z.enum([
  /** Shown for review: nothing written; Apply and Cancel. */
  'review',
  /** Applying: planned again, compared, written. */
  'applying',
  /** Written: each change's outcome. */
  'applied',
  /** Nothing written: cancelled, the plan changed since it was shown, or another apply holds the service. */
  'not-applied',
]);
export type PlanPhase = z.infer<typeof PlanPhase>;

/** What Apply asks before it writes: the connection's name typed, for one that looks like production. */
export const PlanConfirm = z.strictObject({
  /** The button's words: "Apply 2 changes to Sandbox". */
  label: z.string(),
  /** Set for a production-like connection: its name, typed exactly, unlocks Apply. */
  typeName: z.string().optional(),
  /** How many changes would be written (0: every change is excluded, Apply is off). */
  count: z.number().int().nonnegative(),
});
export type PlanConfirm = z.infer<typeof PlanConfirm>;

export const PlanViewModel = z.strictObject({
  /** Which review this is: a new plan is a new review, and the page's messages name the one they were drawn from. */
  review: z.number().int().nonnegative(),
  phase: PlanPhase,
  /** The connection the plan is for, by name. */
  connection: z.string(),
  title: z.string(),
  /** "1 to create, 1 to update, 0 to delete, 8 unchanged, 1 blocked". */
  counts: z.string(),
  /** Said under the counts (the files' ids not used on another connection). */
  notes: z.array(z.string()),
  groups: z.array(PlanGroup),
  /** By kind; a kind with nothing blocked has no group. */
  blocked: z.array(PlanBlockedGroup),
  /** What could not be checked (the service does not list it to this key). */
  unchecked: z.array(z.string()),
  /** The line that says where the plan stands: nothing written until confirmed, applied, or why nothing was written. */
  status: z.strictObject({ text: z.string(), tone: z.enum(['info', 'success', 'warning', 'error']) }),
  /** Why nothing was written, one line each (the plan changed since it was shown). */
  differences: z.array(z.string()),
  /** Present while Apply can be chosen. */
  confirm: PlanConfirm.optional(),
  /** What the host is doing now ("Applying 1 of 2: ..."), or null. */
  busy: z.string().nullable(),
  /** The same files can be planned again (after an apply, a cancel, or a plan that changed). */
  canPlanAgain: z.boolean(),
});
export type PlanViewModel = z.infer<typeof PlanViewModel>;

export const PlanToWebview = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('show'), model: PlanViewModel }),
]);
export type PlanToWebview = z.infer<typeof PlanToWebview>;

const Review = z.number().int().nonnegative();
const Key = z.string().min(1).max(MAX_TEXT);

export const PlanFromWebview = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('exclude'), review: Review, key: Key, excluded: z.boolean() }),
  /** Apply, with the exclusions as the page showed them and the name typed (empty unless asked for). */
  z.strictObject({
    type: z.literal('apply'),
    review: Review,
    excluded: z.array(Key).max(MAX_CHANGES),
    typed: z.string().max(MAX_TEXT),
  }),
  z.strictObject({ type: z.literal('cancel'), review: Review }),
  z.strictObject({ type: z.literal('open'), review: Review, key: Key }),
  z.strictObject({ type: z.literal('compare'), review: Review, key: Key }),
  z.strictObject({ type: z.literal('planAgain'), review: Review }),
]);
export type PlanFromWebview = z.infer<typeof PlanFromWebview>;

/** A message of the page, checked; when it is not one, why (its first problem, for the log: never the message). */
export function parsePlanMessage(raw: unknown): { ok: true; message: PlanFromWebview } | { ok: false; reason: string } {
  const parsed = PlanFromWebview.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    reason:
      issue === undefined
        ? 'not a message'
        : `${issue.path.length > 0 ? issue.path.join('.') : '(message)'}: ${issue.message}`,
  };
}
