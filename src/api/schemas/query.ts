import * as z from 'zod';

// Saved queries, beyond the spec's endpoints (the "queries endpoint" spec 4.5 names):
// POST /1/queries/<dataset> saves a query specification and answers it with its `id`;
// GET /1/queries/<dataset>/<id> reads one back. Ordinary query rules apply here, not the trigger rules.

const Filter = z.looseObject({ column: z.string(), op: z.string(), value: z.unknown().optional() });
const Calculation = z.looseObject({
  op: z.string().min(1, 'a calculation needs an op'),
  column: z.string().optional(),
  name: z.string().optional(),
  filters: z.array(Filter).optional(),
  filter_combination: z.string().optional(),
});
const Named = z.looseObject({ name: z.string(), expression: z.string() });
const wholeSeconds = (what: string) => z.number().int(`${what} must be a whole number of seconds`);

/**
 * The body of a saved-query create. Only the types of the members are checked: what the service refuses in
 * an ordinary query is not documented, so the service decides the rest.
 */
export const CreateQueryRequest = z.looseObject({
  calculations: z.array(Calculation).optional(),
  filters: z.array(Filter).optional(),
  filter_combination: z.string().optional(),
  breakdowns: z.array(z.string()).optional(),
  orders: z.array(z.looseObject({})).optional(),
  havings: z.array(z.looseObject({})).optional(),
  limit: z.number().int('limit must be a whole number').optional(),
  time_range: wholeSeconds('time_range').positive('time_range must be more than 0').optional(),
  start_time: wholeSeconds('start_time').optional(),
  end_time: wholeSeconds('end_time').optional(),
  granularity: wholeSeconds('granularity').positive('granularity must be more than 0').optional(),
  calculated_fields: z.array(Named).optional(),
  formulas: z.array(Named).optional(),
});
export type CreateQueryRequest = z.infer<typeof CreateQueryRequest>;

/** A saved query as the service answers it: the specification plus its id; anything else is kept. */
export const SavedQuery = z.looseObject({ id: z.string().min(1) });
export type SavedQuery = z.infer<typeof SavedQuery>;
