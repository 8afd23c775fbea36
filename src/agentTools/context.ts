// What the tools run against, handed in by their host: the MCP server (`obs mcp`, the service named by the
// environment, the files under the folder it runs in) or the editor (the active connection, the workspace's
// files). Every tool reads through this; none reaches a key.
import type { Environment } from '../triggerFiles/environments';
import type { ApiResponse, CallOptions } from '../api/clientOptions';
import type { ResultCache } from '../backtest/cache';
import type { CreationPacer, QueryApi, RunnerClock } from '../backtest/runner';
import type { BurnAlert, Column, Dataset, Slo, Trigger } from '../api/schemas';
import type { DatasetColumns, Diagnostic } from '../lint';
import type { Plan, PlanSource, SloReads } from '../triggerFiles';

/**
 * The service calls the read tools make (the client's ServiceClient satisfies it); drift also reads burn alerts
 * and definitions as a plan does (SloReads).
 */
export interface ServiceReader extends SloReads {
  listDatasets(o?: CallOptions): Promise<ApiResponse<Dataset[]>>;
  listColumns(dataset: string, o?: CallOptions): Promise<ApiResponse<Column[]>>;
  listTriggers(dataset: string, o?: CallOptions): Promise<ApiResponse<Trigger[]>>;
  getTrigger(dataset: string, triggerId: string, o?: CallOptions): Promise<ApiResponse<Trigger>>;
  listSlos(dataset: string, o?: CallOptions): Promise<ApiResponse<Slo[]>>;
  listBurnAlerts(dataset: string, sloId: string, o?: CallOptions): Promise<ApiResponse<BurnAlert[]>>;
}

/** A file as its host read it (named relative to the folder or workspace), as the plan pipeline takes it. */
export type SourceFile = PlanSource;

/**
 * What a folder stands for: its trigger files (noise, a trigger file read), or for drift and plan its trigger,
 * burn alert and definitions files (`*.trigger.json`, `*.burn-alert.json`, `*.definitions.json`), as in the CLI.
 * A file named is taken by its name either way.
 */
export type FileKinds = 'triggers' | 'every kind';

/** A plan with what could not be checked. */
export interface PlanWithNotes {
  plan: Plan;
  notes: string[];
}

/** The files of the host: read under paths, and planned with the host's gates. */
interface TriggerFileSource {
  /** The files of those kinds under the paths (every one of the folder or workspace when none), and what named none. */
  read(
    paths: readonly string[],
    kinds: FileKinds,
    signal: AbortSignal,
  ): Promise<{ files: SourceFile[]; problems: string[] }>;
  /** The plan of the files against the service, with the gates of `obs plan` (lint with the live columns, the team's recipients). */
  plan(files: readonly SourceFile[], prune: boolean, signal: AbortSignal): Promise<PlanWithNotes>;
  /**
   * The environment other than the home one the files are compared for (`obs mcp --env`, docs/ENVIRONMENTS.md):
   * drift compares each file as it sees it, found by name, as `obs drift --env` does. Absent: the files as they are.
   */
  readonly environment?: { readonly name: string; readonly overlay: Environment };
}

/** What creating query results needs: the calls, and the pacer of the service's 10 results a minute. */
export interface QueryRunner {
  api: QueryApi;
  /** The connection's pacer: in the editor, the one its own queries and previews wait on too. */
  pacer: CreationPacer;
  clock: RunnerClock;
  /** The session's query results, where the host keeps them: a noise report again creates none it already has. */
  results?: ResultCache;
  /**
   * Progress of this call while it waits: each second of a wait for the rate limit ("Waiting 42 s: ..."), each
   * poll of a result not complete yet, each query started. `obs mcp` sends them to a client that asked for
   * progress, whose timeout they can keep from running out; absent, nothing is said.
   */
  report?(message: string): void;
}

export interface ToolHost {
  /** The service's reads; rejects with a ToolError saying how to connect when there is no service. */
  service(): Promise<ServiceReader>;
  /** The service's query calls with the connection's pacer; rejects as service() does. */
  queries(): Promise<QueryRunner>;
  /**
   * The linter on a trigger text, with the columns given (by dataset slug) and the host's metrics datasets:
   * `obs mcp` runs it in its process, the editor in its lint worker.
   */
  lint(
    text: string,
    columns: Readonly<Record<string, DatasetColumns>> | undefined,
    signal: AbortSignal,
  ): Promise<readonly Diagnostic[]>;
  files: TriggerFileSource;
  /** Where the plan is applied, for the answer: a connection's name or the service's address. */
  target(): string;
  /** Keeps a plan for the apply tool and answers its id; absent where nothing can be applied (`obs mcp`). */
  rememberPlan?(plan: PlanWithNotes): string;
}
