// What the agent tools run against in the editor: the connection active when the tool was invoked (fixed for
// the whole call, so a switch meanwhile cannot send half of it elsewhere), the workspace's files, the
// editor's lint worker, and the editor's plan. No vscode import.
import * as l10n from '@vscode/l10n';
import type { Environment } from '../../triggerFiles/environments';
import {
  ToolError,
  type FileKinds,
  type PlanWithNotes,
  type QueryRunner,
  type ServiceReader,
  type SourceFile,
  type ToolHost,
} from '../../agentTools';
import { systemClock } from '../../backtest/runner';
import type { QuerySession } from '../queries';
import type { ActiveConnection } from '../connections';
import type { Linter } from '../sync';
import type { PlanStore } from './planStore';

export interface EditorHostDeps<S> {
  active: ActiveConnection | undefined;
  /** The editor's linter (its lint worker, with the obs.metricsDatasets setting). */
  lint: Linter;
  /** The workspace's files, read for this call; kept with a plan it makes. */
  files: S & {
    read(
      paths: readonly string[],
      kinds: FileKinds,
      signal: AbortSignal,
    ): Promise<{ files: SourceFile[]; problems: string[] }>;
  };
  /** The editor's plan of files against a connection (the gates of `obs plan`). */
  plan(
    connection: ActiveConnection,
    files: readonly SourceFile[],
    prune: boolean,
    signal: AbortSignal,
  ): Promise<PlanWithNotes>;
  plans: PlanStore<S>;
  /** The environment other than the home one the active connection is for the files: drift and noise see so. */
  environment?: { name: string; overlay: Environment };
  /** The connection's query session: its pacer and results, shared with the editor's own queries and previews. */
  sessionFor(connection: ActiveConnection): Pick<QuerySession, 'pacer' | 'cache'>;
}

const noConnectionText = (): string =>
  l10n.t(
    'no observability connection is active in the editor: ask the user to add one (Observability: Add Connection...) or to start the local sandbox',
  );

export function editorToolHost<S>(d: EditorHostDeps<S>): ToolHost {
  const connection = (): ActiveConnection => {
    if (d.active === undefined) throw new ToolError(noConnectionText());
    return d.active;
  };
  return {
    service: async (): Promise<ServiceReader> => connection().client,
    queries: async (): Promise<QueryRunner> => {
      const active = connection();
      const session = d.sessionFor(active);
      return { api: active.client, pacer: session.pacer, clock: systemClock, results: session.cache };
    },
    // The obs_lint tool's text is a trigger's: named so, it is linted by the trigger rules.
    lint: (text, columns, signal) =>
      d.lint(text, columns === undefined ? undefined : { ...columns }, signal, 'tool-text.trigger.json'),
    target: () => d.active?.profile.name ?? l10n.t('(no connection)'),
    files: {
      read: (paths, kinds, signal) => d.files.read(paths, kinds, signal),
      plan: (files, prune, signal) => d.plan(connection(), files, prune, signal),
      ...(d.environment === undefined ? {} : { environment: d.environment }),
    },
    rememberPlan: (planned) => {
      const { profile, client } = connection();
      return d.plans.remember(
        planned,
        { id: profile.id, name: profile.name, baseUrl: profile.baseUrl, client },
        d.files,
      );
    },
  };
}
