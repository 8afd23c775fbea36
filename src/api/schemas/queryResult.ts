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

// The data of a complete result (service facts): `series` for the graph, `results` for the table, and the
// aggregate totals when not disabled. Values are read as they come (string, number, boolean or null).

/** One row of `data`: aggregate keys (`COUNT`, `P99(duration_ms)`) and breakdown columns to their values. */
export const ResultRow = z.record(z.string(), z.unknown());
export type ResultRow = z.infer<typeof ResultRow>;

export const SeriesPoint = z.looseObject({
  time: z.union([z.string(), z.number()]),
  data: ResultRow.nullable().optional(),
});
export type SeriesPoint = z.infer<typeof SeriesPoint>;

export const QueryResultData = z.looseObject({
  series: z.array(SeriesPoint).nullable().optional(),
  results: z
    .array(z.looseObject({ data: ResultRow.nullable().optional() }))
    .nullable()
    .optional(),
  // Shapes not shown anywhere: kept as sent and read by whoever shows them.
  total_by_aggregate: z.unknown().optional(),
  other_by_aggregate: z.unknown().optional(),
});
export type QueryResultData = z.infer<typeof QueryResultData>;

export const QueryResult = z.looseObject({
  id: z.string().min(1),
  complete: z.boolean(),
  query: z.looseObject({}).optional(),
  links: z.looseObject({ query_url: z.string().optional(), graph_image_url: z.string().optional() }).optional(),
  data: QueryResultData.nullable().optional(),
  // Present on a query that failed: `complete: true` with an error instead of data (service facts).
  error: z.unknown().optional(),
});
export type QueryResult = z.infer<typeof QueryResult>;
