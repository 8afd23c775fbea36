// Public contract of the sandbox: other parts of the project (extension, e2e tests, benches) code against these names.
import type { DemoEnvironment } from './demoProduction';
import type { FaultInjector } from './faults';
import type { SandboxState } from './state';
import type { RewriteSwitches, RewritesSpec } from './triggers/rewrites';

export interface SandboxInfo {
  baseUrl: string;
  uiUrl: string;
  team: string;
  environmentId: string;
  configKey: string;
  /** "id:secret", as sent after `Bearer ` on version 2 requests. */
  managementKey: string;
  datasets: string[];
  slos: { dataset: string; id: string }[];
  /** Sent as `X-Sandbox-Token` on every control request (`/__sandbox/...`); new on every start unless given. */
  controlToken: string;
}

export interface SandboxOptions {
  /** 0 picks a free port. Default 0. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Requests per minute per team and kind of operation (read, write). Default 100. */
  rateLimit?: number;
  /** Query results that may be created per minute per team (the service allows 10). Default 10. */
  queryResultRateLimit?: number;
  /** Load the data from this file when it exists; save it there (atomically) after every write. */
  dataFile?: string;
  /** Start with the demo data (default true); false starts with no datasets. */
  demo?: boolean;
  /** Which environment of the demo (default staging): production differs in ids, recipients, a slug and traffic. */
  demoEnvironment?: DemoEnvironment;
  /** Milliseconds since the epoch; injectable so tests control timestamps and rate-limit windows. */
  clock?: () => number;
  /** The control token; default a random one per start. */
  controlToken?: string;
  /** Trigger rewrites to switch on or off (docs/SANDBOX.md); the others keep their defaults. */
  rewrites?: RewritesSpec;
}

/** A request the sandbox received carrying one of its keys (others are not recorded). */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Lower-case names; credentials replaced by "[redacted]". */
  headers: Record<string, string>;
  /**
   * Parsed JSON; the raw text when it is not JSON (or is nested too deep); undefined without a body. A body
   * over 4 KiB is kept as its first 4 KiB of text (`bodyTruncated`).
   */
  body: unknown;
  /** True when `body` holds only the first 4 KiB of the body. */
  bodyTruncated: boolean;
  /** Size of the body in bytes as received. */
  bodyBytes: number;
  /** ISO 8601 time the request arrived (sandbox clock). */
  at: string;
}

export interface SandboxHandle {
  info: SandboxInfo;
  faults: FaultInjector;
  /** The trigger rewrites in force; `set` switches some, as `POST /__sandbox/rewrites` does. */
  rewrites: RewriteSwitches;
  requests: RecordedRequest[];
  state: SandboxState;
  close(): Promise<void>;
}
