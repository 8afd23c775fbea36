// A plan saved by `obs plan --out FILE` and read back by `obs apply FILE`: JSON, checked whole before
// anything is applied, so a file that is not a plan of this version (or was edited into a wrong shape)
// is refused with what is wrong, never half-applied.
import * as z from 'zod';
import { issuesToProblems } from '../api/validation';
import type { Plan } from '../triggerFiles';

const Json = z.record(z.string(), z.unknown());
const Version = z.object({ updatedAt: z.string().optional(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
const Difference = z.object({ path: z.string(), member: z.string(), service: z.unknown(), local: z.unknown() });
const Located = { file: z.string().min(1), index: z.number().int().min(-1), dataset: z.string().min(1), name: z.string() };

const Change = z.discriminatedUnion('action', [
  z.object({ action: z.literal('create'), ...Located, body: Json }),
  z.object({ action: z.literal('update'), ...Located, id: z.string().min(1), matchedBy: z.enum(['id', 'name']), differences: z.array(Difference), body: Json, service: Version }),
  z.object({ action: z.literal('delete'), dataset: z.string().min(1), id: z.string().min(1), name: z.string(), service: Version }),
]);

const PlanSchema = z.object({
  format: z.literal('obs-trigger-plan'),
  version: z.literal(1),
  createdAt: z.string(),
  target: z.object({ baseUrl: z.string().min(1), connection: z.string().optional(), key: z.object({ salt: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) }) }),
  prune: z.boolean(),
  files: z.array(z.object({ file: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
  changes: z.array(Change),
  blocked: z.array(z.object({ file: z.string().optional(), index: z.number().int(), name: z.string().optional(), dataset: z.string().optional(), reasons: z.array(z.string()) })),
  unchanged: z.number().int().min(0),
});

/** The plan in a file's text, or what is wrong with it. */
export function parsePlan(text: string): { plan: Plan } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `it is not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const r = PlanSchema.safeParse(value);
  if (r.success) return { plan: r.data as Plan };
  const shown = issuesToProblems(r.error.issues).slice(0, 3).map((p) => `${p.field}: ${p.message}`);
  return { problem: `it is not a plan made by obs plan (${shown.join('; ')})` };
}

/** The text a plan is saved as. */
export function planFileText(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
