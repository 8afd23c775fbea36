import * as z from 'zod';
import { DateTime, Recipient } from './common';

// Spec 2.6 and part 8: a trigger as the service returns it. The write schema and the linter's rules
// live in src/lint/schema/; the client, the sandbox and the extension need only the read side.

/** Members the service sets and ignores on write. */
export const TRIGGER_READ_ONLY_MEMBERS = ['id', 'triggered', 'created_at', 'updated_at'] as const;

/**
 * A trigger as `GET /1/triggers/<dataset>` returns it: unknown members kept (e.g. auto_investigate), null
 * read as absent, few required. A trigger made with an inline query is listed with both query and query_id.
 */
export const Trigger = z.looseObject({
  id: z.string().min(1),
  dataset_slug: z.string().optional(),
  name: z.string(),
  description: z.string().optional(),
  tags: z.array(z.looseObject({ key: z.string(), value: z.string() })).optional(),
  threshold: z.looseObject({ op: z.string(), value: z.number(), exceeded_limit: z.number().optional() }).optional(),
  frequency: z.number().int().optional(),
  alert_type: z.string().optional(),
  disabled: z.boolean().optional(),
  triggered: z.boolean().optional(),
  recipients: z.array(Recipient).optional(),
  evaluation_schedule_type: z.string().optional(),
  evaluation_schedule: z.looseObject({}).nullable().optional(),
  created_at: DateTime.optional(),
  updated_at: DateTime.optional(),
  baseline_details: z.looseObject({}).nullable().optional(),
  query: z.looseObject({}).nullable().optional(),
  query_id: z.string().nullable().optional(),
});
export type Trigger = z.infer<typeof Trigger>;

export const TriggerList = z.array(Trigger);
