// What other features may use of the queries feature (handed to them at activation, extension.ts): the
// connection's query session, shared with every query and preview of that connection (the pacer of the
// service's 10 results a minute, the session's results and saved queries), and the results panel for an
// evaluation already made. Types only: the objects live in dist/queries-host.js. No vscode import.
import type { ActiveConnection } from '../connections';
import type { PreviewAt } from '../../backtest/backtest';
import type { ResultCache } from '../../backtest/cache';
import type { CreationPacer, RunnerClock } from '../../backtest/runner';
import type { SavedQueryCache } from '../../backtest/savedQueryCache';

export interface QuerySession {
  /** Shared with every query of the connection: the service's limit is per team. */
  pacer: CreationPacer;
  /** Query results of the session on this connection (one per connection, kept until the window closes). */
  cache: ResultCache;
  /** Saved queries made in the session: the same spec is saved once. */
  queries: SavedQueryCache;
  clock: RunnerClock;
}

export interface PreviewWindow {
  /** One panel per key: opening the same window again reveals it. */
  key: string;
  /** The trigger's name. */
  name: string;
  /** Under the title: where the trigger and the window come from. */
  subtitle: string;
  /** The sentence above the chart (the test's verdict, say). */
  summary: string;
  preview: PreviewAt;
}

export interface QueryServices {
  sessionFor(conn: ActiveConnection): QuerySession;
  /** The results panel for an evaluation already made: no new query. */
  showPreviewWindow(window: PreviewWindow): void;
}
