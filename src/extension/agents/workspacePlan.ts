// The plan obs_plan makes in the editor: the editor's own plan of trigger files against a connection (the
// gates of `obs plan`: the linter with the datasets' live columns, the team's recipients; files with unsaved
// edits left out), over the files the tool read, with deletes only when the agent asked to prune. No vscode
// import.
import type { PlanWithNotes, SourceFile } from '../../agentTools';
import type { PlanEnvironment } from '../../triggerFiles';
import type { ActiveConnection } from '../connections';
import { planForConnection, type Linter } from '../sync';

export interface WorkspacePlanInput {
  connection: ActiveConnection;
  files: readonly SourceFile[];
  prune: boolean;
  /** The editor's linter (its lint worker), with the live columns the plan reads. */
  lint: Linter;
  concurrency: number;
  signal: AbortSignal;
  /** The environment other than the home one the connection is for the files: each trigger as it sees it. */
  environment?: PlanEnvironment;
}

export async function planWorkspace(input: WorkspacePlanInput): Promise<PlanWithNotes> {
  const { connection, signal } = input;
  // A file left out by the reader (unsaved edits, unreadable) is planned as one that cannot be read: blocked with its reason.
  const files = input.files.map((f) => ({ ...f, dirty: false }));
  return planForConnection({
    files,
    client: connection.client,
    connection: { name: connection.profile.name, baseUrl: connection.profile.baseUrl },
    scope: { kind: input.prune ? 'all' : 'files' },
    lint: input.lint,
    concurrency: input.concurrency,
    signal,
    // Found by dataset and name there: the files' ids are the home's (as Apply plans for an environment).
    ...(input.environment === undefined
      ? {}
      : { environment: input.environment, idsIgnored: input.environment.overlay !== undefined }),
  });
}
