import * as z from 'zod';
import { characterCount } from './common';

// The body of a trigger create (POST /1/triggers/<dataset>) and replace (PUT /1/triggers/<dataset>/<id>),
// beyond the spec's eight calls (service facts, "Writing triggers"). The client refuses only what the
// service certainly refuses; the trigger rules themselves (spec 2.6, 2.6.1) are the linter's, which
// every write goes through first, and the service's, which has the last word.

/** Members the service sets itself: never sent (service facts). */
export const TRIGGER_WRITE_READ_ONLY_MEMBERS = ['id', 'dataset_slug', 'triggered', 'created_at', 'updated_at'] as const;

const exactlyOneQuery = (t: { query?: unknown; query_id?: unknown }, ctx: z.RefinementCtx) => {
  const inline = t.query !== undefined && t.query !== null;
  const saved = t.query_id !== undefined && t.query_id !== null;
  if (inline && saved)
    ctx.addIssue({
      code: 'custom',
      path: ['query_id'],
      message: 'give either query or query_id, not both (the service refuses both)',
    });
  if (!inline && !saved)
    ctx.addIssue({ code: 'custom', path: ['query'], message: 'a trigger needs a query or a query_id' });
};

const writable = {
  name: z
    .string()
    .refine((s) => characterCount(s) >= 1 && characterCount(s) <= 120, { message: 'name must be 1 to 120 characters' }),
  query: z.looseObject({}).optional(),
  query_id: z.string().min(1).optional(),
};

/** A create: the writable trigger, with exactly one of query or query_id; other members passed as they are. */
export const CreateTriggerRequest = z.looseObject(writable).superRefine(exactlyOneQuery);
export type CreateTriggerRequest = z.infer<typeof CreateTriggerRequest>;

/**
 * A replace is the whole writable trigger: a member left out is reset to its default, except `disabled`,
 * which the service keeps when it is left out. So `disabled` is required here: a replace never leaves
 * a trigger's enabled state to chance.
 */
export const ReplaceTriggerRequest = z.looseObject({ ...writable, disabled: z.boolean() }).superRefine(exactlyOneQuery);
export type ReplaceTriggerRequest = z.infer<typeof ReplaceTriggerRequest>;

/** A copy of a trigger without the members the service sets itself. */
export function withoutTriggerReadOnly(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...body };
  for (const member of TRIGGER_WRITE_READ_ONLY_MEMBERS) delete out[member];
  return out;
}
