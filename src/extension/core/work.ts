// How a class tells whoever built it about the work it does (lint jobs started, list calls made, entries
// visited), one call per unit of work. Every class that counts takes it as an optional `observe` in its
// options; the extension passes none, so production keeps no counters. Tests pass a counter and assert
// on the counts, which is how complexity is tested here instead of timing. No vscode import.

/** Told of `amount` (default 1) units of work of `kind`. */
export type WorkObserver<K extends string> = (kind: K, amount?: number) => void;
