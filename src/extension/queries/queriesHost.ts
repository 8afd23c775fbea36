// Entry point of dist/queries-host.js: running queries, trigger previews and the results panel, loaded by
// registerQueries.ts the first time one of them is used (or a results panel comes back after a window
// reload), so that activation does not pay for them.
import * as vscode from 'vscode';
import { configurePageText } from '../core/pageL10nSetup';
import { TriggerPreviews } from './previewCommands';
import { QueryRuns, sessionFor, type QueryFeatureDeps } from './queryCommands';
import { modelFromPreview } from './resultsModel';
import { ResultsPanel } from './resultsPanel';
import { restoreResults } from './resultsRestore';
import { RESULTS_TEXT } from './resultsText';
import type { QueryServices } from './queryServices';

export interface LoadedQueries {
  runs: QueryRuns;
  previews: TriggerPreviews;
  /** For other features: the connection's query session, and the panel for an evaluation already made. */
  services: QueryServices;
  /** Brings back a results panel after a window reload from the page's saved state. */
  restore(panel: vscode.WebviewPanel, state: unknown): void;
}

export function createQueries(deps: QueryFeatureDeps): LoadedQueries {
  // This bundle has its own copy of @vscode/l10n (see core/l10nSetup.ts).
  configurePageText();
  const runs = new QueryRuns(deps);
  const previews = new TriggerPreviews(deps);
  const services: QueryServices = {
    sessionFor,
    showPreviewWindow(w) {
      const title = RESULTS_TEXT.previewTitle(w.name);
      const model = modelFromPreview(w.preview.plan, w.preview.outcome, {
        title,
        subtitle: w.subtitle,
        summary: w.summary,
      });
      ResultsPanel.for(w.key, title, deps.extensionUri, deps.feedback.log, vscode.ViewColumn.Beside).show(model, {
        links: {},
      });
    },
  };
  return {
    runs,
    previews,
    services,
    restore(webviewPanel, state) {
      const restored = restoreResults(state, deps.connections.list());
      if (restored.saved === undefined)
        deps.feedback.log.info(
          `restored a results panel that cannot run again: ${restored.model.note ?? restored.model.message ?? 'no saved run'}`,
        );
      const panel = ResultsPanel.adopt(
        webviewPanel,
        restored.key,
        restored.title,
        deps.extensionUri,
        deps.feedback.log,
      );
      const links: { query?: vscode.Uri; graph?: vscode.Uri } = {};
      if (restored.links.query) links.query = vscode.Uri.parse(restored.links.query, true);
      if (restored.links.graph) links.graph = vscode.Uri.parse(restored.links.graph, true);
      const run = restored.run;
      const rerun =
        run === undefined
          ? undefined
          : (withOptions: boolean) =>
              run.kind === 'query' ? runs.rerunRestored(run, withOptions) : previews.rerunRestored(run, withOptions);
      panel.show(restored.model, { links, ...(rerun ? { rerun } : {}) }, restored.saved);
    },
  };
}
