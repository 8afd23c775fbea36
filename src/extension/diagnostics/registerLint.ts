// The linter at activation: over trigger files and triggers read from the service, with the live columns,
// datasets and recipients of the active connection; completion and hover of recipient ids in trigger files;
// and the lint in the worker that an apply's plan is gated by.
import * as vscode from 'vscode';
import type { DatasetColumns, Diagnostic } from '../../lint';
import type { ConnectionManager } from '../connections';
import type { AccountRecipients } from '../core/accountRecipients';
import type { Feedback } from '../core/feedback';
import type { Settings } from '../core/settings';
import type { WorkspaceEnvironments } from '../core/workspaceEnvironments';
import { AsSeenLint } from './asSeenLint';
import { LiveColumns } from './liveColumns';
import { LiveDatasets } from './liveDatasets';
import { registerRecipientProviders } from './recipientProviders';
import { registerLintCommands, TriggerDiagnostics } from './triggerDiagnostics';

/**
 * A lint in the lint worker with given columns, by the rules of the kind the file's name says: the gate of an
 * apply's plan (the editor's and an agent's).
 */
export type WorkerLint = (
  text: string,
  columns: Record<string, DatasetColumns> | undefined,
  signal: AbortSignal | undefined,
  fileName: string,
) => Promise<readonly Diagnostic[]>;

export interface LintDeps {
  readonly extensionUri: vscode.Uri;
  readonly connections: ConnectionManager;
  readonly settings: Settings;
  readonly feedback: Feedback;
  readonly recipients: AccountRecipients;
  /** The workspace's environments files: a trigger file is linted as the active connection's environment sees it. */
  readonly environments: WorkspaceEnvironments;
  /** The slugs of a connection's datasets (the tree's read of the list: one call serves the tree and the linter). */
  readonly datasets: (connectionId: string) => Promise<readonly string[] | 'refused'>;
  /** The scheme of the read-only documents of triggers read from the service: linted, never fixed. */
  readonly readOnlyScheme: string;
}

export interface RegisteredLint {
  readonly diagnostics: TriggerDiagnostics;
  readonly lint: WorkerLint;
  readonly disposable: vscode.Disposable;
}

export function registerLint(deps: LintDeps): RegisteredLint {
  const { connections, feedback, recipients } = deps;
  const diagnostics = new TriggerDiagnostics(feedback.log, deps.extensionUri, deps.settings, deps.readOnlyScheme);
  const liveColumns = new LiveColumns({
    connection: () => connections.activeProfile()?.id,
    fetch: async (connectionId, dataset) => {
      const { client } = await connections.connectionFor(connectionId);
      try {
        const res = await client.listColumns(dataset);
        return {
          names: res.data.map((c) => c.key_name),
          hidden: res.data.filter((c) => c.hidden === true).map((c) => c.key_name),
        };
      } catch (err) {
        if ((err as { status?: unknown }).status === 404) return 'missing';
        throw err;
      }
    },
    log: (m) => feedback.log.info(m),
  });
  const liveDatasets = new LiveDatasets({
    connection: () => connections.activeProfile()?.id,
    fetch: deps.datasets,
    log: (m) => feedback.log.info(m),
  });
  const asSeen = new AsSeenLint({
    environments: deps.environments,
    settings: deps.settings,
    activeConnection: () => connections.activeProfile()?.name,
  });
  const disposable = vscode.Disposable.from(
    diagnostics,
    diagnostics.useEnvironments(asSeen),
    asSeen,
    ...registerLintCommands(diagnostics, feedback),
    diagnostics.useColumns(liveColumns),
    diagnostics.useDatasets(liveDatasets),
    diagnostics.useRecipients(recipients),
    registerRecipientProviders({ matcher: diagnostics.matcher, runner: diagnostics.runner, recipients }),
    liveColumns,
    liveDatasets,
    connections.onDidChangeActive(() => liveColumns.connectionChanged()),
  );
  return { diagnostics, lint: lintInWorker(deps.settings, diagnostics), disposable };
}

function lintInWorker(settings: Settings, diagnostics: TriggerDiagnostics): WorkerLint {
  return async (text, columns, signal, fileName) => {
    const options = {
      metricsDatasets: settings.metricsDatasets(),
      fileName,
      ...(columns === undefined ? {} : { columns }),
    };
    const result = await diagnostics.runner.run({ kind: 'lint', input: text, options }, signal);
    if (result.kind !== 'lint') throw new Error('the lint worker answered a lint with another result');
    return result.diagnostics;
  };
}
