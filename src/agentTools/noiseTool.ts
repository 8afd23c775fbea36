// obs_noise: the noise report of the host's trigger files (as `obs noise` makes it): each trigger evaluated over
// the last days as the service would have, its notifications counted as `obs test` counts them, noisiest first,
// with the smallest change that would have kept one over the budget within. Its query results are the host's
// session's where it keeps them (a second report over the same triggers creates none it already has).
import { effectiveFile } from '../triggerFiles/environmentPlan';
import * as z from 'zod';
import { ResultCache } from '../backtest/cache';
import { noiseEntryJson, statusOf } from '../backtest/noiseJson';
import {
  evaluateAll,
  newQueriesOf,
  noisiestFirst,
  prepareNoise,
  type NoiseEntry,
  type NoiseSession,
  type PreparedNoise,
} from '../backtest/noiseReport';
import { CREATIONS_PER_MINUTE } from '../backtest/runner';
import { clip, clipName, firstOf, LIMITS } from './answer';
import type { ToolHost } from './context';
import type { ToolInputs } from './inputs';

/** One trigger of the report, as `obs noise --format json` prints it (backtest/noiseJson.ts), its texts cut. */
const NoiseTrigger = z.looseObject({
  file: z.string(),
  name: z.string().nullable(),
  status: z.enum(['over', 'within', 'not-evaluated']),
  reason: z.string().optional(),
  dataset: z.string().optional(),
  notifications: z.number().int().optional(),
  resolves: z.number().int().optional(),
  firings: z.number().int().optional(),
  flaps: z.number().int().optional(),
  evaluations: z.number().int().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  per_day: z.array(z.number().int()).optional(),
  estimated: z.boolean().optional(),
  notes: z.array(z.string()).optional(),
});

export const NoiseOutput = z.object({
  days: z.number().int(),
  budget: z.number().int(),
  steps: z.string(),
  over: z.number().int(),
  within: z.number().int(),
  not_evaluated: z.number().int(),
  triggers_total: z.number().int(),
  triggers: z.array(NoiseTrigger),
  triggers_truncated: z.boolean(),
  problems: z.array(z.string()),
});

/** More new query results than this (3 minutes of the service's limit): one query per trigger at a coarser step. */
const MAX_EXACT_QUERIES = 3 * CREATIONS_PER_MINUTE;

export async function noiseTool(
  input: ToolInputs['obs_noise'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof NoiseOutput>> {
  const { files, problems } = await host.files.read(input.paths ?? [], 'triggers', signal);
  const q = await host.queries();
  const session: NoiseSession = {
    api: q.api,
    pacer: q.pacer,
    clock: q.clock,
    cache: q.results ?? new ResultCache(),
    signal,
    report: (m) => q.report?.(m),
    nowSeconds: Math.floor(q.clock.now() / 1000),
  };
  const prepared: (PreparedNoise | NoiseEntry)[] = [];
  // For an environment other than the home one, each trigger as it sees it (obs noise --env).
  const env = host.files.environment;
  const seen = (text: string) => (env === undefined ? text : (effectiveFile(text, env.overlay)?.text ?? text));
  for (const f of files) {
    const target = { key: f.file, label: f.file, text: seen(f.text ?? ''), tests: [] };
    prepared.push(
      f.text === undefined
        ? { kind: 'skipped', key: f.file, label: f.file, reason: f.problem ?? 'the file could not be read' }
        : await prepareNoise(target, session),
    );
  }
  const ready = prepared.filter((p): p is PreparedNoise => 'tested' in p);
  const days = input.days ?? 7;
  const budget = input.budget ?? 7;
  const exact = newQueriesOf(ready, session.nowSeconds, { mode: 'exact', days }, session.cache) <= MAX_EXACT_QUERIES;
  const evaluated = await evaluateAll(ready, session, { mode: exact ? 'exact' : 'coarse', days, budget });
  const entries = noisiestFirst([...prepared.filter((p): p is NoiseEntry => !('tested' in p)), ...evaluated]);
  const shown = firstOf(entries, LIMITS.maxListRows);
  const count = (s: string) => entries.filter((e) => statusOf(e, budget) === s).length;
  return {
    days,
    budget,
    steps: exact ? 'exact' : 'coarse (estimates: more than 30 new query results were needed)',
    over: count('over'),
    within: count('within'),
    not_evaluated: count('not-evaluated'),
    triggers_total: shown.total,
    triggers: shown.items.map((e) => NoiseTrigger.parse(bounded(noiseEntryJson(e, budget)))),
    triggers_truncated: shown.truncated,
    problems: problems.slice(0, 10).map((p) => clip(p, 500)),
  };
}

/** Names, files and free texts cut; notes at most 10. */
function bounded(entry: Record<string, unknown>): Record<string, unknown> {
  const text = (v: unknown) => (typeof v === 'string' ? clip(v, 500) : v);
  const out: Record<string, unknown> = {
    ...entry,
    file: text(entry.file),
    name: typeof entry.name === 'string' ? clipName(entry.name) : entry.name,
    reason: text(entry.reason),
  };
  if (Array.isArray(entry.notes)) out.notes = entry.notes.slice(0, 10).map(text);
  if (out.reason === undefined) delete out.reason;
  return out;
}
