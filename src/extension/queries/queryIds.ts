// The results panel's webview type, known at activation without loading the queries (no vscode, no
// schemas): registerQueries.ts registers its serializer, and a test checks it against the manifest and
// the message protocol.

/** RESULTS_VIEW_TYPE of the results panel's protocol. */
export const RESULTS_PANEL_VIEW_TYPE = 'obs.queryResults';
