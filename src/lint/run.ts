// What one lint keeps for itself lives in its own LintRun, never in module state, so lints started
// while another runs (a hint may lint another file) do not share it.

/** What one lint keeps to itself. */
export interface LintRun {
  /** Nearest-name searches for unknown columns this lint may still make (columns.ts bounds them per lint). */
  searchesLeft: number;
}
