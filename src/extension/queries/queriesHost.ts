// Entry point of dist/queries-host.js: running queries, trigger previews and the results panel, loaded by
// registerQueries.ts the first time one of them is used, so that activation does not pay for them.
import { TriggerPreviews } from './previewCommands';
import { QueryRuns, type QueryFeatureDeps } from './queryCommands';

export interface LoadedQueries {
  runs: QueryRuns;
  previews: TriggerPreviews;
}

export function createQueries(deps: QueryFeatureDeps): LoadedQueries {
  return { runs: new QueryRuns(deps), previews: new TriggerPreviews(deps) };
}
