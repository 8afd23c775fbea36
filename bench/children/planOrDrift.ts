// One sample of the plan figure, in a fresh process: `plan` or `drift` (its floor) of N trigger files
// against N service triggers whose lists are already in memory. Builds the inputs untimed, then prints
// the milliseconds of the one run as JSON on stdout.
import {
  driftOfFile,
  keyFingerprint,
  makePlan,
  onlyOnService,
  planCounts,
  readTriggerFile,
  ServiceIndex,
} from '../../src/triggerFiles';
import { localFiles, serviceTriggers } from '../driftFigures';

const [mode, count] = process.argv.slice(2);
const n = Number(count);
if ((mode !== 'plan' && mode !== 'drift') || !Number.isInteger(n) || n <= 0)
  throw new Error('usage: planOrDrift.ts plan|drift N');

const lists = serviceTriggers(n);
const files = localFiles(lists);
const target = { baseUrl: 'https://bench.invalid', key: keyFingerprint('bench-key', 'bench-salt') };

const started = performance.now();
const index = new ServiceIndex();
for (const [dataset, triggers] of lists) index.add(dataset, { state: 'listed', triggers });
let changed: number;
if (mode === 'drift') {
  const drift = [...files].map(([uri, text]) => driftOfFile(uri, readTriggerFile(text), index));
  onlyOnService(drift, index);
  changed = drift.filter((d) => d.status === 'differs').length;
} else {
  const plan = makePlan({
    files: [...files].map(([file, text]) => ({ file, text, read: readTriggerFile(text) })),
    index,
    target,
    inputs: { scope: { kind: 'all' }, allowUnknownColumns: false, matchByName: false },
    now: new Date(),
  });
  changed = planCounts(plan).update;
}
const ms = performance.now() - started;
if (changed !== n / 10) throw new Error(`${mode}: ${changed} changes, expected ${n / 10}`);
process.stdout.write(`${JSON.stringify({ ms })}\n`);
