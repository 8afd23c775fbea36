import * as z from 'zod';

// Spec 2.4, 4.5, rule 7.6 and part 8.

export const QUERY_RESULT_LIMIT_MAX = 10_000;
export const QUERY_RESULT_LIMIT_DEFAULT = 1_000;

export const CreateQueryResultRequest = z.strictObject({
  query_id: z.string().min(1, 'query_id must not be empty'),
  disable_series: z.boolean().optional(),
  disable_total_by_aggregate: z.boolean().optional(),
  disable_other_by_aggregate: z.boolean().optional(),
  // Rule 7.6 sets a maximum and no minimum; without disable_series the service ignores limit (spec 4.5).
  limit: z
    .number()
    .int('limit must be a whole number')
    .max(QUERY_RESULT_LIMIT_MAX, `limit must be at most ${QUERY_RESULT_LIMIT_MAX}`)
    .optional(),
});
export type CreateQueryResultRequest = z.infer<typeof CreateQueryResultRequest>;

export const QueryResult = z.looseObject({
  id: z.string().min(1),
  complete: z.boolean(),
  query: z.looseObject({}).optional(),
  links: z.looseObject({ query_url: z.string().optional(), graph_image_url: z.string().optional() }).optional(),
  // Present on a query that failed: `complete: true` with an error instead of data (service facts).
  error: z.unknown().optional(),
});
export type QueryResult = z.infer<typeof QueryResult>;
