// Entry point of dist/cli-service.js: the runs of the commands that talk to the service (pull, drift,
// plan, apply, test, noise, review) with the client, loaded by dist/cli.js when one of them runs (esbuild.mjs). One
// bundle for them all, so the .vsix holds one copy of what they share. `obs mcp` runs from dist/cli-mcp.js,
// so these commands load no MCP SDK, ajv or zod v3.
export { runApply } from './applyRun';
export { runDrift } from './driftRun';
export { runNoise } from './noiseRun';
export { runPlan } from './planRun';
export { runPull } from './pullRun';
export { runReview } from './reviewRun';
export { runTests } from './testRun';

// What `obs lint --columns-from-service` loads from here (lintRun.ts).
export { readColumns } from './columns';
export { clientFromEnvironment } from './service';
// obs lint --env's (cli-lint.js loads them from here, so that obs lint without --env is no larger).
export { environmentOf } from './environment';
export { EnvironmentLint } from './lintEnvironment';
