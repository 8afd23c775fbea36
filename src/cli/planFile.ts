// A plan saved by `obs plan --out FILE` and read back by `obs apply FILE`: JSON, checked whole before
// anything is applied, so a file that is not a plan of this version (or was edited into a wrong shape)
// is refused with what is wrong, never half-applied. The saved text carries a seal (an HMAC keyed with the
// configuration key) over the rest: a plan edited after it was saved is refused, whatever was edited.
import * as z from 'zod';
import { issuesToProblems } from '../api/validation';
import { planSeal, sealMatches, type Plan } from '../triggerFiles';

/** The saved plan's format version: 3 holds burn alerts and definitions beside triggers. */
const PLAN_VERSION = 3;

const Json = z.record(z.string(), z.unknown());
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const Version = z.object({ updatedAt: z.string().optional(), sha256: Sha256 });
// A side of a difference is left out of the JSON where the member is absent on that side.
const Difference = z.object({
  path: z.string(),
  member: z.string(),
  service: z.unknown().optional(),
  local: z.unknown().optional(),
});
const Located = {
  file: z.string().min(1),
  index: z.number().int().min(-1),
  dataset: z.string().min(1),
  name: z.string(),
};

const Kind = z.enum(['trigger', 'burn-alert', 'definitions']);
/** The recipients a file names by type and target, with the ids they resolved to: shown to the reviewer. */
const References = z.array(z.object({ type: z.string(), target: z.string(), id: z.string().min(1) })).optional();
const SloUpdate = {
  action: z.literal('update'),
  ...Located,
  id: z.string().min(1),
  differences: z.array(Difference),
  body: Json,
  service: Version,
};

const TriggerChange = z.discriminatedUnion('action', [
  z.object({
    kind: z.literal('trigger'),
    action: z.literal('create'),
    ...Located,
    body: Json,
    renameOf: z.object({ id: z.string().min(1), name: z.string() }).optional(),
    recipientReferences: References,
  }),
  z.object({
    kind: z.literal('trigger'),
    action: z.literal('update'),
    ...Located,
    id: z.string().min(1),
    matchedBy: z.enum(['id', 'name']),
    differences: z.array(Difference),
    body: Json,
    service: Version,
    recipientReferences: References,
  }),
  z.object({
    kind: z.literal('trigger'),
    action: z.literal('delete'),
    dataset: z.string().min(1),
    id: z.string().min(1),
    name: z.string(),
    service: Version,
  }),
]);

// Burn alerts and definitions are only ever updated.
const Change = z.union([
  TriggerChange,
  z.object({
    kind: z.literal('burn-alert'),
    ...SloUpdate,
    matchedBy: z.enum(['id', 'name']),
    recipientReferences: References,
  }),
  z.object({ kind: z.literal('definitions'), ...SloUpdate, matchedBy: z.literal('id') }),
]);

const Scope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('files') }),
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('trigger'), file: z.string().min(1), index: z.number().int().min(-1).optional() }),
  z.object({ kind: z.literal('delete'), id: z.string().min(1), dataset: z.string().min(1) }),
]);

const PlanSchema = z.object({
  format: z.literal('obs-trigger-plan'),
  version: z.literal(PLAN_VERSION),
  createdAt: z.string(),
  target: z.object({
    baseUrl: z.string().min(1),
    connection: z.string().optional(),
    key: z.object({ salt: z.string().min(1), sha256: Sha256 }),
  }),
  inputs: z.object({
    scope: Scope,
    allowUnknownColumns: z.boolean(),
    matchByName: z.boolean(),
    paths: z.array(z.string().min(1)).min(1),
    metricsDatasets: z.array(z.string()),
    maxBytes: z.number().int().positive().optional(),
    environment: z.object({ name: z.string().min(1), file: z.string().min(1), sha256: Sha256 }).optional(),
  }),
  prune: z.boolean(),
  files: z.array(z.object({ file: z.string().min(1), sha256: Sha256 })),
  changes: z.array(Change),
  blocked: z.array(
    z.object({
      kind: Kind,
      file: z.string().optional(),
      index: z.number().int(),
      name: z.string().optional(),
      dataset: z.string().optional(),
      reasons: z.array(z.string()),
    }),
  ),
  unchanged: z.number().int().min(0),
  seal: Sha256,
});

/** A saved plan as read: the plan, and the text its seal covers. */
export interface SavedPlan {
  plan: Plan;
  /** The plan without its seal, as sealed. */
  sealed: string;
  seal: string;
}

/** The plan in a file's text, or what is wrong with it (its seal is checked by sealProblem). */
export function parsePlan(text: string): { saved: SavedPlan } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `it is not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const version = typeof value === 'object' && value !== null ? (value as { version?: unknown }).version : undefined;
  if (typeof version === 'number' && version < PLAN_VERSION)
    return { problem: 'it was made by an older obs, before plans held burn alerts and definitions: plan again' };
  const r = PlanSchema.safeParse(value);
  if (!r.success) {
    const shown = issuesToProblems(r.error.issues)
      .slice(0, 3)
      .map((p) => `${p.field}: ${p.message}`);
    return { problem: `it is not a plan made by this version of obs plan (${shown.join('; ')})` };
  }
  // Sealed as saved: every member but the seal, in the file's order (JSON.parse keeps it).
  const { seal: _seal, ...rest } = value as Record<string, unknown>;
  return { saved: { plan: r.data as Plan, sealed: JSON.stringify(rest), seal: r.data.seal } };
}

/** Why the saved plan's seal does not hold for this key, or undefined when it does. */
export function sealProblem(saved: SavedPlan, key: string): string | undefined {
  return sealMatches(saved.sealed, key, saved.seal)
    ? undefined
    : 'it was changed after obs plan saved it (its seal does not match): plan again';
}

/** The text a plan is saved as, sealed with the configuration key. */
export function planFileText(plan: Plan, key: string): string {
  const sealed = { ...plan, seal: planSeal(JSON.stringify(plan), key) };
  return `${JSON.stringify(sealed, null, 2)}\n`;
}
