// What `obs plan` and `obs apply` plan with, so that apply plans exactly as plan did: the trigger files under
// the plan's paths (read inside the current folder, regular files only, bounded), the service of the
// environment, the linter in this process with the plan's metrics datasets, and the one plan pipeline
// (src/triggerFiles/planPipeline.ts). No command's run lives here.
import { randomBytes } from 'node:crypto';
import type { ServiceClient } from '../api/client';
import { lintNamedText } from '../lint';
import {
  keyFingerprint,
  planWithGates,
  type GatedPlan,
  type PlanEnvironment,
  type PlanInputs,
  type PlanTarget,
} from '../triggerFiles';
import { warn, type MainIo } from './io';
import { CLI_METRICS_DATASET_HINT } from './metricsHint';
import { DEFAULT_MAX_BYTES } from './read';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './service';
import { readTriggerFiles, sourcesOf } from './triggerInputs';

/** The service's address and a new fingerprint of the key, as the environment names them. */
export function targetOf(env: Readonly<Record<string, string | undefined>>): PlanTarget {
  return {
    baseUrl: (env[ENV_BASE_URL] ?? '').trim(),
    key: keyFingerprint((env[ENV_CONFIG_KEY] ?? '').trim(), randomBytes(16).toString('hex')),
  };
}

export interface CliPlan extends GatedPlan {
  /** Every path named something and every file was read and listed (each problem said on stderr). */
  complete: boolean;
  /** Each file's text as read: where its changes lie, for the reports that point into files. */
  texts: ReadonlyMap<string, string>;
  /** The files found that could not be read, with why (each said on stderr). */
  unreadable: ReadonlyMap<string, string>;
}

/**
 * The plan of the trigger files under `inputs.paths` against the service, with every gate; problems are said on
 * stderr. Undefined, before the service is asked anything, when a path names nothing, or when a path or a link
 * leads outside the current folder: obs apply reads only inside it, and a plan without such a file could delete
 * what it holds.
 */
export async function planFiles(
  client: ServiceClient,
  inputs: PlanInputs,
  target: PlanTarget,
  io: MainIo,
  concurrency: number,
  environment?: PlanEnvironment,
): Promise<CliPlan | undefined> {
  const found = await readTriggerFiles(inputs.paths ?? ['.'], io, inputs.maxBytes ?? DEFAULT_MAX_BYTES, 'every kind');
  const { ok, outside } = found;
  // A path that names nothing is said on stderr: no plan, rather than one of the other paths that reads as complete.
  if (found.nothing.length > 0) return undefined;
  if (outside.length > 0) {
    warn(io, 'nothing planned: obs plan and obs apply read only trigger files inside the current folder');
    return undefined;
  }
  const sources = sourcesOf(found);
  const metricsDatasets = inputs.metricsDatasets ?? [];
  const gated = await planWithGates({
    sources,
    service: client,
    lint: async (text, columns, _signal, file) =>
      lintNamedText(file, text, {
        metricsDatasets,
        metricsDatasetHint: CLI_METRICS_DATASET_HINT,
        ...(columns === undefined ? {} : { columns }),
      }),
    target,
    inputs,
    concurrency,
    now: new Date(),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    ...(environment === undefined ? {} : { environment }),
  });
  for (const f of gated.listingFailures) warn(io, `could not list the triggers of ${f.dataset}: ${f.message}`);
  for (const n of gated.notes) warn(io, n);
  return {
    ...gated,
    complete: ok && gated.listingFailures.length === 0,
    texts: found.texts,
    unreadable: found.unreadable,
  };
}
