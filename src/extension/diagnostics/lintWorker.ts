// Entry point of dist/lint-worker.js: the linter in a worker thread, so that linting a large file
// never blocks the extension host. Loaded with require() instead (no worker), it exports the job
// runner for hosts where a worker cannot start.
import * as l10n from '@vscode/l10n';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { runLintJob } from './lintJobs';
import { requestHandler, type WorkerRequest } from './lintProtocol';

export { runLintJob } from './lintJobs';
export { requestHandler } from './lintProtocol';

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

const port = parentPort;
if (!isMainThread && port !== null) {
  // Before the first job is read: every message of this worker is in the display language.
  configureLintText(workerData as LintWorkerData | undefined);
  const handle = requestHandler(runLintJob);
  port.on('message', (request: WorkerRequest) => {
    const response = handle(request);
    if (response !== undefined) port.postMessage(response);
  });
}
