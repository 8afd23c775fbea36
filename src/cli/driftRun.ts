// The run of `obs drift` (declared in drift.ts, loaded when the command runs).
import { driftCounts, driftOfFile, onlyOnService } from '../triggerFiles';
import { driftJson, driftSarif, driftText, type DriftRun } from './driftReport';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, type MainIo } from './io';
import { clientFromEnvironment } from './service';
import { readTriggerFiles, serviceIndexFor } from './triggerInputs';
import { visibleJson } from './visible';

/** The options of `obs drift` as commander parses them (drift.ts declares them). */
export interface DriftInvocation {
  format: 'text' | 'json' | 'sarif';
  concurrency: number;
  maxBytes: number;
}

export async function runDrift(paths: readonly string[], invocation: DriftInvocation, io: MainIo): Promise<number> {
  const { texts, read, ok } = await readTriggerFiles(paths, io, invocation.maxBytes);
  const client = clientFromEnvironment(io.env ?? {});
  let run: DriftRun;
  let serviceOk: boolean;
  try {
    const found = await serviceIndexFor(client, read.values(), invocation.concurrency, io);
    serviceOk = found.ok;
    const drift = [...read].map(([file, r]) => driftOfFile(file, r, found.index));
    const only = onlyOnService(drift, found.index);
    run = { files: drift, onlyOnService: only, counts: driftCounts(drift, only), texts };
  } finally {
    await client.close();
  }
  switch (invocation.format) {
    case 'json':
      io.stdout(driftJson(run));
      break;
    case 'sarif':
      io.stdout(`${visibleJson(driftSarif(run))}\n`);
      break;
    default:
      io.stdout(driftText(run));
  }
  if (!ok || !serviceOk || run.counts.unknown > 0) return EXIT_TROUBLE;
  const c = run.counts;
  return c.differs + c.localOnly + c.serviceOnly > 0 ? EXIT_FOUND : EXIT_OK;
}
