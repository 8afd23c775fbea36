// What the linter does unless told otherwise, in a module of its own: the CLI declares its options with
// these without loading the linter.

/** Diagnostics per file unless the options say otherwise; one more says how many were left out. */
export const DEFAULT_MAX_DIAGNOSTICS = 1000;
