// Entry point of dist/cli-service.js: the runs of the commands that talk to the service (pull, drift,
// plan, apply, test), with the client and undici, loaded by dist/cli.js when one of them runs (esbuild.mjs).
export { runApply } from './applyRun';
export { runDrift } from './driftRun';
export { runPlan } from './planRun';
export { runPull } from './pullRun';
export { runTests } from './testRun';
// What `obs lint --columns-from-service` loads from here (lintRun.ts).
export { readColumns } from './columns';
export { clientFromEnvironment } from './service';
