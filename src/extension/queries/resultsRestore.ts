// Bringing a results panel back after a window reload, without vscode: the page's saved state is parsed
// with zod, the connection is found by id among the saved profiles (nothing is connected yet), and the
// result's links are checked again against that connection's UI before they are offered.
import { checkUiLink } from '../core/links';
import { ResultsState, type ResultsModel, type ResultsRun, type SavedRun } from '../../webview/protocol/queryResults';
import { RESULTS_TEXT } from './resultsText';

/** The panel key of a saved query's results (one panel per query), shared by running and restoring. */
export function queryPanelKey(connectionId: string, dataset: string, queryId: string): string {
  return `result:${connectionId}:${dataset}:${queryId}`;
}

export interface RestoredPanel {
  /** The key the panel is known by, so that running the same query again reuses it. */
  key: string | undefined;
  title: string;
  model: ResultsModel;
  /** How to run it again; undefined when it cannot be (damaged state, or the connection is gone). */
  run: ResultsRun | undefined;
  saved: SavedRun | undefined;
  /** The links that passed the check against the connection's UI now. */
  links: { query?: string; graph?: string };
}

const blank = (title: string, message: string, status: ResultsModel['status']): ResultsModel => ({
  title,
  subtitle: '',
  status,
  message,
  chart: null,
  table: null,
  totals: [],
  links: { query: false, graph: false },
  canRerun: false,
});

function keyOf(run: ResultsRun): string {
  return run.kind === 'query' ? queryPanelKey(run.connectionId, run.dataset, run.queryId) : run.key;
}

/** What a panel restored from `raw` (its saved state) shows, given the connections that exist now. */
export function restoreResults(raw: unknown, profiles: readonly { id: string; uiUrl: string }[]): RestoredPanel {
  const parsed = ResultsState.safeParse(raw);
  if (!parsed.success) {
    const title = RESULTS_TEXT.restoredTitle;
    return {
      key: undefined,
      title,
      model: blank(title, RESULTS_TEXT.stateDamaged, 'failed'),
      run: undefined,
      saved: undefined,
      links: {},
    };
  }
  const { title, saved } = parsed.data;
  const profile = saved ? profiles.find((p) => p.id === saved.run.connectionId) : undefined;
  const run = profile ? saved?.run : undefined;
  const links: RestoredPanel['links'] = {};
  if (profile && saved) {
    for (const which of ['query', 'graph'] as const) {
      const check = checkUiLink(saved.links[which], profile.uiUrl);
      if (check.ok) links[which] = check.url.href;
    }
  }
  const base = parsed.data.model ?? { ...blank(title, RESULTS_TEXT.tooLargeToKeep, 'incomplete'), subtitle: '' };
  const model: ResultsModel = {
    ...base,
    restored: true,
    links: { query: links.query !== undefined, graph: links.graph !== undefined },
    canRerun: run !== undefined,
  };
  if (saved && !profile) model.note = RESULTS_TEXT.connectionGone;
  return { key: saved ? keyOf(saved.run) : undefined, title, model, run, saved: run ? saved : undefined, links };
}
