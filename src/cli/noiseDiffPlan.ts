// The noise diff of a plan made by the one plan pipeline (planMaking.ts): each create, update and delete as
// the diff evaluates it (the service's trigger as the plan read it, the file's as the plan would write it, the
// test files of its file), and the diff itself, biggest change first. The plan is only read.
import { resolve } from 'node:path';
import {
  biggestChangeFirst,
  noiseDiff,
  type NoiseDiffEntry,
  type NoiseDiffOptions,
  type NoiseDiffTarget,
  type TestText,
} from '../backtest/noiseDiff';
import type { NoiseSession } from '../backtest/noiseReport';
import { changeKey, expectedAfterWrite, triggerFileText, type GatedPlan, type TriggerChange } from '../triggerFiles';
import type { MainIo } from './io';
import { testsByTrigger } from './triggerTestFiles';

/** Why the tests of a file of several triggers are not run with either version. */
const SEVERAL_TRIGGERS = 'its file holds several triggers: obs test runs no test of such a file, so none is run here';

/** Why a delete's tests are not run. */
const NO_FILE = 'no file holds it, so no test file tests it';

/** The service's trigger a change was planned from, as a trigger file's text; undefined when the plan holds none. */
function serviceText(gated: GatedPlan, change: TriggerChange): string | undefined {
  if (change.action === 'create') return undefined;
  const held = gated.service.get(change.id);
  if (held === undefined) return undefined;
  const slug = typeof held.dataset_slug === 'string' && held.dataset_slug !== '' ? held.dataset_slug : change.dataset;
  return triggerFileText({ ...held, dataset_slug: slug });
}

/**
 * The diff's input for each change of the plan: the service's version (none for a create), the file's version as
 * the service would hold it once written (none for a delete), and the test files of the change's file, found
 * by `testsOf` (by the path the plan names the file by).
 */
function noiseDiffTargets(gated: GatedPlan, testsOf: (file: string) => readonly TestText[]): NoiseDiffTarget[] {
  // Only triggers notify from a query's results: burn alerts and definitions have no noise to diff.
  const triggers = gated.plan.changes.flatMap((c) => (c.kind === 'trigger' ? [c] : []));
  return triggers.map((change): NoiseDiffTarget => {
    const head = { key: changeKey(change), name: change.name, dataset: change.dataset, action: change.action };
    const service = serviceText(gated, change);
    if (change.action === 'delete')
      return {
        ...head,
        label: `${change.dataset}, id ${change.id}`,
        ...(service === undefined ? {} : { service }),
        tests: [],
        testsNotRun: NO_FILE,
      };
    const file = `${JSON.stringify(expectedAfterWrite(change.body, change.dataset), null, 2)}\n`;
    const several = change.index >= 0;
    return {
      ...head,
      label: change.file,
      ...(service === undefined ? {} : { service }),
      file,
      tests: several ? [] : testsOf(change.file),
      ...(several ? { testsNotRun: SEVERAL_TRIGGERS } : {}),
    };
  });
}

/**
 * The noise diff of a plan: its changes evaluated with both versions in the session (one run: shared queries
 * created once), the test files looked for where `obs noise` looks for them under the plan's paths.
 */
export async function noiseDiffOf(
  gated: GatedPlan,
  session: NoiseSession,
  io: MainIo,
  options: NoiseDiffOptions & { maxBytes: number },
): Promise<NoiseDiffEntry[]> {
  const tests = await testsByTrigger(gated.plan.inputs.paths ?? ['.'], io, options.maxBytes);
  const targets = noiseDiffTargets(gated, (file) => tests.get(resolve(io.cwd, file)) ?? []);
  return biggestChangeFirst(await noiseDiff(targets, session, { mode: options.mode, days: options.days }));
}
