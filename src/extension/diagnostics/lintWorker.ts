// Entry point of dist/lint-worker.js: the linter in a worker thread, so that linting a large file
// never blocks the extension host. Loaded with require() instead (no worker), it exports the job
// runner for hosts where a worker cannot start.
import { isMainThread, parentPort } from 'node:worker_threads';
import { runLintJob, type LintJob } from './lintJobs';

export { runLintJob } from './lintJobs';

/** A job as posted to the worker: its id comes back with the result. */
export interface WorkerRequest {
  id: number;
  job: LintJob;
}

export type WorkerResponse = { id: number; ok: true; result: ReturnType<typeof runLintJob> } | { id: number; ok: false; error: string };

const port = parentPort;
if (!isMainThread && port !== null) {
  port.on('message', (request: WorkerRequest) => {
    let response: WorkerResponse;
    try {
      response = { id: request.id, ok: true, result: runLintJob(request.job) };
    } catch (err) {
      // The linter never throws on any text; should it anyway, the host logs it instead of waiting forever.
      response = { id: request.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    port.postMessage(response);
  });
}
