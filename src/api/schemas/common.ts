import * as z from 'zod';

/** ISO 8601 date-time as the service sends it (timestamps are UTC strings per spec part 1). */
export const DateTime = z.string().describe('ISO 8601 UTC date-time');

export { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from './slugs';

/**
 * Length in characters (Unicode code points), the way zod's and JSON Schema's length limits count:
 * an emoji is one character, not two UTF-16 units. Messages and counters say this number.
 */
export function characterCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** `.` and `..` survive URL-encoding, and a proxy or router that resolves dot segments would send the call elsewhere. */
const isDotSegment = (s: string) => s === '.' || s === '..';

export const DatasetSlug = z
  .string()
  .min(1, 'dataset slug must not be empty')
  .refine((s) => !/[/?#\s]/.test(s), { message: 'dataset slug must not contain "/", "?", "#" or spaces' })
  .refine((s) => !isDotSegment(s), { message: 'dataset slug must not be "." or ".."' });

// --- Recipients (spec 2.3) -------------------------------------------------------------------

export const RecipientVariable = z.looseObject({ name: z.string(), value: z.string() });

export const RecipientDetails = z
  .looseObject({
    pagerduty_severity: z.string().optional(),
    variables: z.array(RecipientVariable).optional(),
  })
  .describe('Extra delivery settings, e.g. pagerduty_severity and variables.');

/** A recipient as the service returns it: any of id, type, target, details may appear. */
export const Recipient = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  target: z.string().optional(),
  details: z
    .looseObject({
      pagerduty_severity: z.string().optional(),
      variables: z.array(RecipientVariable).optional(),
    })
    .optional(),
});
export type Recipient = z.infer<typeof Recipient>;

/**
 * A recipient in a write: named by `id` (preferred), or by `type` + `target` (deprecated, spec 9).
 * Giving neither is refused. Beside an id the target only informs: the service answers a paging recipient
 * named by id with `target: ""` (service facts), and what it answered must be writable back.
 */
export const RecipientWrite = z
  .strictObject({
    id: z.string().min(1, 'recipient id must not be empty').optional(),
    type: z.string().min(1, 'recipient type must not be empty').optional(),
    target: z.string().optional(),
    details: RecipientDetails.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.id !== undefined) return;
    if (r.target === '') {
      ctx.addIssue({
        code: 'too_small',
        origin: 'string',
        minimum: 1,
        inclusive: true,
        input: r.target,
        message: 'recipient target must not be empty',
        path: ['target'],
      });
      return;
    }
    if (r.type === undefined || r.target === undefined) {
      ctx.addIssue({
        code: 'custom',
        params: { rule: 'recipient-named' },
        message: 'a recipient needs an id (preferred) or both type and target (deprecated)',
        path: r.type === undefined ? ['type'] : ['target'],
      });
    }
  });
export type RecipientWrite = z.infer<typeof RecipientWrite>;

/** True when a recipient is named the deprecated way (type + target, no id). */
export function isDeprecatedRecipient(r: {
  id?: string | undefined;
  type?: string | undefined;
  target?: string | undefined;
}): boolean {
  return r.id === undefined && r.type !== undefined && r.target !== undefined;
}

/** A required path parameter such as a team slug, key id, burn alert id or SLO id (sent URL-encoded). */
export const pathParameter = (name: string) =>
  z
    .string()
    .min(1, `${name} must not be empty`)
    .refine((s) => !isDotSegment(s), { message: `${name} must not be "." or ".."` });
