// An environments file's text read as the editor uses it: its state (usable, or refused with its mistakes) and
// the diagnostics that place each mistake, as `obs lint` does. Built into dist/environments-host.js, which the
// activation loads only when a workspace has such a file, so that the schema (zod) and the JSON parser with
// positions (jsonc-parser) are not loaded for every workspace. No vscode import.
import { readEnvironments, type Environments } from '../../triggerFiles/environments';
import { EnvironmentFindings } from '../../triggerFiles/environmentLint';
import { effectiveFile } from '../../triggerFiles/environmentPlan';
import { lintEnvironmentsText } from '../../triggerFiles/environmentsLint';
import type { Diagnostic } from '../../lint/types';
import type { EnvironmentsFileState, EnvironmentViews } from './workspaceEnvironments';

export interface EnvironmentsFileRead {
  readonly state: EnvironmentsFileState;
  /** Each mistake at its place in the text; none for a usable file. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * A trigger file as each environment of a usable file sees it: made here, so that the code of the effective
 * trigger loads with the environments file's reader, only in a workspace that has one.
 */
function viewsOf(environments: Environments, text: string): EnvironmentViews {
  const findings = new Map<string, EnvironmentFindings>();
  const overlayOf = (name: string) => (name === environments.home ? undefined : environments.environments.get(name));
  return {
    effectiveText: (name, trigger) => {
      const overlay = overlayOf(name);
      return overlay === undefined ? undefined : effectiveFile(trigger, overlay)?.text;
    },
    lintView: (name, trigger) => {
      const overlay = overlayOf(name);
      const effective = overlay === undefined ? undefined : effectiveFile(trigger, overlay);
      if (effective === undefined) return undefined;
      let placing = findings.get(name);
      if (placing === undefined) findings.set(name, (placing = new EnvironmentFindings({ name, text })));
      const placed = placing;
      return { text: effective.text, place: (found) => placed.place(found, effective, trigger) };
    },
  };
}

export function readEnvironmentsFile(text: string): EnvironmentsFileRead {
  const read = readEnvironments(text);
  return read.ok
    ? { state: { kind: 'read', environments: read.value, text, views: viewsOf(read.value, text) }, diagnostics: [] }
    : { state: { kind: 'broken', problems: read.reason }, diagnostics: lintEnvironmentsText(text) };
}
