// An environments file's text read as the editor uses it: its state (usable, or refused with its mistakes) and
// the diagnostics that place each mistake, as `obs lint` does. Built into dist/environments-host.js, which the
// activation loads only when a workspace has such a file, so that the schema (zod) and the JSON parser with
// positions (jsonc-parser) are not loaded for every workspace. No vscode import.
import { readEnvironments } from '../../triggerFiles/environments';
import { lintEnvironmentsText } from '../../triggerFiles/environmentsLint';
import type { Diagnostic } from '../../lint/types';
import type { EnvironmentsFileState } from './workspaceEnvironments';

export interface EnvironmentsFileRead {
  readonly state: EnvironmentsFileState;
  /** Each mistake at its place in the text; none for a usable file. */
  readonly diagnostics: readonly Diagnostic[];
}

export function readEnvironmentsFile(text: string): EnvironmentsFileRead {
  const read = readEnvironments(text);
  return read.ok
    ? { state: { kind: 'read', environments: read.value, text }, diagnostics: [] }
    : { state: { kind: 'broken', problems: read.reason }, diagnostics: lintEnvironmentsText(text) };
}
