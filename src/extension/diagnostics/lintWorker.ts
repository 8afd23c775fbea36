// Entry point of dist/lint-worker.js: the linter in a worker thread, so that linting a large file
// never blocks the extension host. Loaded with require() instead (no worker), it exports the job
// runner for hosts where a worker cannot start.
import * as l10n from '@vscode/l10n';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { runLintJob, type LintJob } from './lintJobs';
import type { Outcome } from '../../result';

export { runLintJob } from './lintJobs';

/**
 * What the host hands a new worker (as workerData): the bundle VS Code loaded for its display language, none
 * for English. A worker thread, and this bundle required into the host's thread, each hold their own copy of
 * @vscode/l10n, which the host's configureL10n() never reaches.
 */
export interface LintWorkerData {
  l10nBundle?: Record<string, string> | undefined;
}

/** Gives the linter's texts (diagnostics, related texts, fix titles) the host's translations; no bundle: English. */
export function configureLintText(data: LintWorkerData | undefined): void {
  l10n.config({ contents: data?.l10nBundle ?? {} });
}

/** A job as posted to the worker: its id comes back with the result. */
export interface WorkerRequest {
  id: number;
  job: LintJob;
}

export type WorkerResponse = { id: number } & Outcome<{ result: ReturnType<typeof runLintJob> }>;

const port = parentPort;
if (!isMainThread && port !== null) {
  // Before the first job is read: every message of this worker is in the display language.
  configureLintText(workerData as LintWorkerData | undefined);
  port.on('message', (request: WorkerRequest) => {
    let response: WorkerResponse;
    try {
      response = { id: request.id, ok: true, result: runLintJob(request.job) };
    } catch (err) {
      // The linter never throws on any text; should it anyway, the host logs it instead of waiting forever.
      response = { id: request.id, ok: false, reason: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    port.postMessage(response);
  });
}
