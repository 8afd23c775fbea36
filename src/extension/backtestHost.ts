// Entry point of dist/backtest-host.js: the trigger tests of the Test Explorer and the noise report, in one
// bundle so that they carry one copy of the backtest engine, zod and jsonc-parser between them. Each feature's
// registration loads it on first use (triggerTests/registerTriggerTests.ts, noise/registerNoise.ts); Node's
// module cache makes the second load the same module.
export { createTriggerTests } from './triggerTests/testsHost';
export { createNoiseReport } from './noise/noiseHost';
