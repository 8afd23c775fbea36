// What the stand-ins for VS Code's webview API (forms-harness.ts, scripts/resultsPage.ts) put on a page's
// window, and what a test adds to it, as the tests read them inside page.evaluate.
interface Window {
  /** Every message the page posted to the host, in order (copied as JSON). */
  __posted: Record<string, unknown>[];
  /** The Content Security Policy violations reported, as `directive uri`. */
  __csp: string[];
  /** The state the page kept with setState (copied as JSON), undefined while it kept none. */
  readonly __state?: Record<string, unknown>;
  /** The texts drawn on a canvas (fillText), when a test records them. */
  __drawn?: string[];
}
