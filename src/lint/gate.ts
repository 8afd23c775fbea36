// The linter as a gate before a write: which triggers of a file its diagnostics keep from being written
// (an error, or a column the dataset does not have), and why, in a few words. No vscode import.
import * as l10n from '@vscode/l10n';
import type { Diagnostic } from './types';

export interface GateOptions {
  /**
   * Let a column the service does not list pass. The service does not list derived columns, so a trigger
   * that uses one is blocked otherwise; the person planning says so.
   */
  allowUnknownColumns?: boolean;
  /**
   * Where a diagnostic is fixed, when that is not the line of the text linted (the trigger as an environment sees
   * it: a line of its file, or an override in the environments file).
   */
  placeOf?: (d: Diagnostic) => DiagnosticPlace;
}

/** A line of the file (1-based), or a place in another file said in words. */
export type DiagnosticPlace = { line: number } | { elsewhere: string };

/** How many diagnostics a reason names before it counts the rest. */
const NAMED = 3;

const blocks = (d: Diagnostic, o: GateOptions): boolean =>
  d.severity === 'error' || (d.rule === 'query/unknown-column' && o.allowUnknownColumns !== true);

/** `trigger/frequency (line 5): frequency must be...` */
function described(d: Diagnostic, o: GateOptions): string {
  const place = o.placeOf?.(d) ?? { line: d.range.start.line + 1 };
  return 'line' in place
    ? l10n.t('{0} (line {1}): {2}', d.rule, place.line, d.message)
    : l10n.t('{0} ({1}): {2}', d.rule, place.elsewhere, d.message);
}

/**
 * The reasons each trigger of a file may not be written, by its place in the file (-1 for a file of one
 * trigger). A diagnostic about the file as a whole (its path does not start at a trigger of an array)
 * blocks every trigger of it.
 */
export function blockingReasons(
  diagnostics: readonly Diagnostic[],
  isArray: boolean,
  o: GateOptions = {},
): (index: number) => string[] {
  const byIndex = new Map<number, Diagnostic[]>();
  const whole: Diagnostic[] = [];
  for (const d of diagnostics) {
    if (!blocks(d, o)) continue;
    const first = d.path[0];
    if (!isArray || typeof first !== 'number') {
      whole.push(d);
      continue;
    }
    const list = byIndex.get(first);
    if (list === undefined) byIndex.set(first, [d]);
    else list.push(d);
  }
  return (index) => {
    const found = [...whole, ...(byIndex.get(index) ?? [])];
    if (found.length === 0) return [];
    const named = found.slice(0, NAMED).map((d) => described(d, o));
    const more = found.length - named.length;
    return more > 0 ? [...named, l10n.t('and {0} more problems that keep it from being written', more)] : named;
  };
}
