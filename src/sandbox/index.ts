// The local sandbox: a real HTTP server that behaves like the service (docs/SANDBOX.md).
// Also the entry of dist/sandbox-host.js, which the extension loads only when the user asks for a sandbox.
export { startSandbox, MAX_BODY_BYTES } from './server';
export type { SandboxInfo, SandboxOptions, SandboxHandle, RecordedRequest } from './types';
export {
  FaultInjector,
  FaultSpec,
  FAULT_SHAPES,
  type FaultShape,
  type FaultMatch,
  type StatusFaultOptions,
} from './faults';
export {
  DEFAULT_REWRITES,
  parseRewriteList,
  RewriteSwitches,
  TRIGGER_REWRITES,
  type TriggerRewrite,
  type TriggerRewrites,
  type RewritesSpec,
} from './triggers/rewrites';
export type { SandboxState, SandboxData } from './state';
export {
  DEMO,
  HOSTILE,
  LONG_DESCRIPTION,
  RECIPIENT_SECRETS,
  SANDBOX_CREDENTIALS,
  addWideDataset,
  demoData,
  emptyData,
} from './demoData';
export {
  DEMO_ENVIRONMENTS,
  PRODUCTION,
  PRODUCTION_CREDENTIALS,
  PRODUCTION_RECIPIENT_SECRETS,
  productionData,
  type DemoEnvironment,
} from './demoProduction';
export { DataFileError, type DataFileErrorKind } from './persistence';
export { PROBLEM_TYPES, JSON_API_CODES } from './responses';
export { RATE_WINDOW_SECONDS } from './rateLimiter';
