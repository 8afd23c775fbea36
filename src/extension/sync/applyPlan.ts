// The editor's plan of applying trigger files to one connection: the one plan pipeline of every caller
// (triggerFiles/planPipeline.ts), fed the files as the editor holds them and linted in its lint worker. A file
// open with unsaved edits is left out, blocked with "save the file first": a plan is of what is on disk. A plan
// may be narrowed to one file, one trigger of a file, or one delete. No vscode import.
import * as l10n from '@vscode/l10n';
import {
  planWithGates,
  type GatedPlan,
  type PlanEnvironment,
  type PlanLinter,
  type PlanScope,
  type PlanService,
  type PlanSource,
  type ServiceTrigger,
  type TriggerWriter,
  type PacedPool,
} from '../../triggerFiles';

/** A trigger file as the editor has it: as the plan pipeline takes it, and whether it is open with unsaved edits. */
export interface SourceFile extends PlanSource {
  /** Open in the editor with unsaved edits (then it is left out of the plan). */
  dirty: boolean;
}

/** Lints a file's text with the given columns (the editor's lint worker). */
export type Linter = PlanLinter;

export type { PlanScope } from '../../triggerFiles';

export interface ConnectionPlanInput {
  files: readonly SourceFile[];
  client: PlanService;
  connection: { name: string; baseUrl: string };
  scope: PlanScope;
  lint: Linter;
  concurrency: number;
  signal?: AbortSignal;
  onPause?: (ms: number) => void;
  now?: Date;
  /**
   * The files' ids are not this connection's (it is not the active one, whose ids a pull or an apply wrote
   * into them): each trigger is matched by dataset and name, never by an id that may name another trigger
   * here or none at all.
   */
  idsIgnored?: boolean;
  /** The environment planned for: the triggers as it sees them (docs/ENVIRONMENTS.md). */
  environment?: PlanEnvironment;
}

export type ConnectionPlan = Pick<GatedPlan, 'plan' | 'notes'>;

const unsavedReason = (): string => l10n.t('it has unsaved changes in the editor: save the file first');

function sourceOf({ dirty, ...f }: SourceFile): PlanSource {
  if (dirty) return { ...f, text: undefined, problem: unsavedReason() };
  if (f.text === undefined) return { ...f, problem: f.problem ?? l10n.t('it could not be read') };
  return f;
}

/** The plan of the files against the connection, with the gates of `obs plan`; a list that failed blocks its files, and is said. */
export async function planForConnection(input: ConnectionPlanInput): Promise<ConnectionPlan> {
  const gated = await planWithGates({
    sources: input.files.map(sourceOf),
    service: input.client,
    lint: input.lint,
    // The editor's plan is applied with the connection's own client and never saved: no key to record.
    target: { baseUrl: input.connection.baseUrl, connection: input.connection.name, key: { salt: '', sha256: '' } },
    inputs: { scope: input.scope, allowUnknownColumns: false, matchByName: input.idsIgnored === true },
    concurrency: input.concurrency,
    now: input.now ?? new Date(),
    ...(input.environment === undefined ? {} : { environment: input.environment }),
    ...(input.signal === undefined ? {} : { signal: input.signal }),
    ...(input.onPause === undefined ? {} : { onPause: input.onPause }),
  });
  return { plan: gated.plan, notes: gated.notes };
}

type RateLimited = { rateLimit?: { remaining: number; resetSeconds: number } | undefined };

/** The client's trigger calls, with what pacing reads of each answer (the client's ServiceClient satisfies it). */
export interface WritingClient {
  getTrigger(
    dataset: string,
    id: string,
    o?: { signal?: AbortSignal },
  ): Promise<{ data: ServiceTrigger } & RateLimited>;
  listTriggers(dataset: string, o?: { signal?: AbortSignal }): Promise<{ data: ServiceTrigger[] } & RateLimited>;
  createTrigger(
    dataset: string,
    body: Record<string, unknown>,
    o?: { signal?: AbortSignal; knownIds?: ReadonlySet<string> },
  ): Promise<{ data: ServiceTrigger; recovered?: true } & RateLimited>;
  replaceTrigger(
    dataset: string,
    id: string,
    body: Record<string, unknown> & { disabled: boolean },
    o?: { signal?: AbortSignal },
  ): Promise<{ data: ServiceTrigger } & RateLimited>;
  deleteTrigger(dataset: string, id: string, o?: { signal?: AbortSignal }): Promise<RateLimited>;
  getBurnAlert(dataset: string, id: string, o?: { signal?: AbortSignal }): Promise<{ data: Json } & RateLimited>;
  updateBurnAlert(
    dataset: string,
    id: string,
    body: Json,
    o?: { signal?: AbortSignal },
  ): Promise<{ data: Json } & RateLimited>;
  updateDatasetDefinitions(
    dataset: string,
    body: Json,
    o?: { signal?: AbortSignal },
  ): Promise<{ data: Json } & RateLimited>;
}

type Json = Record<string, unknown>;

/** The client's writes through a pacing pool: a rate-limit window nearly used up waits for its reset, and is said. */
export function pacedWriter(client: WritingClient, pool: PacedPool): TriggerWriter {
  const on = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });
  return {
    getTrigger: (d, id, o) => pool.run((s) => client.getTrigger(d, id, on(s)), o?.signal),
    listTriggers: (d, o) => pool.run((s) => client.listTriggers(d, on(s)), o?.signal),
    createTrigger: (d, body, o) =>
      pool.run(
        (s) =>
          client.createTrigger(d, body, { ...on(s), ...(o?.knownIds === undefined ? {} : { knownIds: o.knownIds }) }),
        o?.signal,
      ),
    replaceTrigger: (d, id, body, o) => pool.run((s) => client.replaceTrigger(d, id, body, on(s)), o?.signal),
    deleteTrigger: (d, id, o) => pool.run((s) => client.deleteTrigger(d, id, on(s)), o?.signal),
    getBurnAlert: (d, id, o) => pool.run((s) => client.getBurnAlert(d, id, on(s)), o?.signal),
    updateBurnAlert: (d, id, body, o) => pool.run((s) => client.updateBurnAlert(d, id, body, on(s)), o?.signal),
    updateDatasetDefinitions: (d, body, o) =>
      pool.run((s) => client.updateDatasetDefinitions(d, body, on(s)), o?.signal),
  };
}
