// The kinds of file the linter checks besides trigger files, told apart by name (the CLI and the lint worker
// decide so), and what their rules find.
import type { RuleId } from './rules';
import type { JsonPath } from './types';

export type SloFileKind = 'burn-alert' | 'definitions';

/** The kind of a file by its name or URI (`x.burn-alert.json`, `x.definitions.json`), in any letter case. */
export function sloFileKind(fileName: string): SloFileKind | undefined {
  const name = fileName.toLowerCase();
  if (name.endsWith('.burn-alert.json')) return 'burn-alert';
  if (name.endsWith('.definitions.json')) return 'definitions';
  return undefined;
}

/** What a rule found: where, and, where there is one right answer, the member's new value (undefined: removed). */
export interface SloFinding {
  rule: RuleId;
  path: JsonPath;
  message: string;
  fix?: { title: string; value: unknown };
}
