// The input of each tool: a zod schema with bounds, the one source of the JSON Schema that the MCP server
// lists and the manifest declares (a unit test compares them). An input outside it is refused with a
// message naming the member and what was wrong, before anything is read.
import * as z from 'zod';
import { LIMITS } from './answer';
import type { Outcome } from '../result';

const SLUG_PATTERN = '^[^/?#\\s]+$';

const dataset = z
  .string()
  .min(1)
  .max(LIMITS.argument)
  .regex(new RegExp(SLUG_PATTERN))
  .describe('Dataset slug as listed by obs_list_datasets, or "__all__" for environment-wide triggers and SLOs.');

const contains = z
  .string()
  .min(1)
  .max(LIMITS.argument)
  .describe('Only entries whose name contains this text (case-insensitive).');

const limit = z
  .number()
  .int()
  .min(1)
  .max(LIMITS.maxListRows)
  .describe(`How many entries to return at most (default ${LIMITS.listRows}).`);

const id = (what: string) => z.string().min(1).max(LIMITS.argument).describe(what);

const triggerText = z
  .string()
  .min(1)
  .max(LIMITS.triggerText)
  .describe(
    `The JSON text of a trigger file (one trigger object, or an array of them for lint), at most ${LIMITS.triggerText} characters.`,
  );

const pathList = z.array(z.string().min(1).max(LIMITS.argument)).max(LIMITS.paths);
const paths = pathList.describe(
  'Trigger files or folders, relative to the workspace (default: every trigger file of the workspace).',
);
/** Drift and plan: a folder stands for its trigger, burn alert and definitions files. */
const everyKindPaths = pathList.describe(
  'Trigger, burn alert or definitions files, or folders (each standing for all three kinds under it), relative to the workspace (default: every such file of the workspace).',
);

export const INPUTS = {
  obs_list_datasets: z.strictObject({ contains: contains.optional(), limit: limit.optional() }),
  obs_list_columns: z.strictObject({
    dataset,
    contains: contains.describe('Only columns whose key name contains this text (case-insensitive).').optional(),
    limit: limit.optional(),
  }),
  obs_list_triggers: z.strictObject({ dataset, contains: contains.optional(), limit: limit.optional() }),
  obs_get_trigger: z.strictObject({
    dataset: dataset.optional(),
    trigger_id: id('The id of a trigger on the service (with dataset).').optional(),
    path: z
      .string()
      .min(1)
      .max(LIMITS.argument)
      .describe('A trigger file, relative to the workspace (instead of dataset and trigger_id).')
      .optional(),
  }),
  obs_list_slos: z.strictObject({ dataset, limit: limit.optional() }),
  obs_list_burn_alerts: z.strictObject({
    dataset,
    slo_id: id('The id of the SLO, as listed by obs_list_slos.'),
    limit: limit.optional(),
  }),
  obs_lint_trigger: z.strictObject({
    text: triggerText,
    check_columns: z
      .boolean()
      .describe("Check the columns the query names against the dataset's columns on the service (default true).")
      .optional(),
  }),
  obs_preview_trigger: z.strictObject({
    text: triggerText
      .describe('The JSON text of one trigger to preview (give this, or dataset and trigger_id).')
      .optional(),
    dataset: dataset.optional(),
    trigger_id: id('The id of a trigger on the service to preview (with dataset).').optional(),
    window: z
      .enum(['1h', '6h', '24h', '7d'])
      .describe('How far back to evaluate (default 24h; 7d takes several rate-limited queries).')
      .optional(),
  }),
  obs_run_query: z.strictObject({
    dataset,
    query_id: id("The id of a saved query (a trigger's query_id, or a saved query of the dataset)."),
    top: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.groups)
      .describe(`How many result rows to return (default 10, at most ${LIMITS.groups}).`)
      .optional(),
  }),
  obs_drift: z.strictObject({ paths: everyKindPaths.optional() }),
  obs_plan: z.strictObject({
    paths: everyKindPaths.optional(),
    prune: z
      .boolean()
      .describe("Also plan deleting the service's triggers of the files' datasets that no file holds (default false).")
      .optional(),
  }),
  obs_noise: z.strictObject({
    paths: paths.optional(),
    days: z
      .number()
      .int()
      .min(1)
      .max(7)
      .describe(
        'The days evaluated, ending at the last quarter-hour with complete data (default 7, the days the service keeps).',
      )
      .optional(),
    budget: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .describe(
        'The notifications a trigger may send in those days; above it the smallest change is suggested (default 7).',
      )
      .optional(),
  }),
  obs_apply_plan: z.strictObject({ plan_id: id('The plan_id that obs_plan answered.') }),
} as const;

export type ToolInputs = { [K in keyof typeof INPUTS]: z.infer<(typeof INPUTS)[K]> };

/** The JSON Schema of a tool's input, as listed to a model (the manifest holds the same). */
export function inputJsonSchema(name: keyof typeof INPUTS): Record<string, unknown> {
  const schema = z.toJSONSchema(INPUTS[name], { target: 'draft-7' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** The input read with the tool's schema, or a message naming each member that is wrong. */
export function parseInput<K extends keyof typeof INPUTS>(name: K, input: unknown): Outcome<{ value: ToolInputs[K] }> {
  const parsed = INPUTS[name].safeParse(input ?? {});
  if (parsed.success) return { ok: true, value: parsed.data as ToolInputs[K] };
  const problems = parsed.error.issues.slice(0, 5).map((i) => {
    const where = i.path.length === 0 ? 'the input' : i.path.join('.');
    return `${where}: ${i.message}`;
  });
  return { ok: false, reason: `invalid input for ${name}: ${problems.join('; ')}` };
}
