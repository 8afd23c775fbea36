// Entry point of dist/queries-host.js: running queries, trigger previews and the results panel, loaded by
// registerQueries.ts the first time one of them is used, so that activation does not pay for them.
import { configureL10n } from '../core/l10nSetup';
import { TriggerPreviews } from './previewCommands';
import { QueryRuns, type QueryFeatureDeps } from './queryCommands';

export interface LoadedQueries {
  runs: QueryRuns;
  previews: TriggerPreviews;
}

export function createQueries(deps: QueryFeatureDeps): LoadedQueries {
  // This bundle has its own copy of @vscode/l10n (see core/l10nSetup.ts).
  configureL10n();
  return { runs: new QueryRuns(deps), previews: new TriggerPreviews(deps) };
}
