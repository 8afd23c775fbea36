// What the Datasets tree shows of drift on a trigger the service lists: whether a trigger file of the
// workspace holds it and matches it, as plain data. Read from the drift model's snapshot (the lists drift
// already read): no call to the service per tree node. No vscode import.
import { differingMembers } from '../../triggerFiles';
import type { DriftSnapshot } from './driftModel';

/** A service's trigger against the workspace's trigger files; the file as a workspace-relative path. */
export type TriggerFileState =
  | { kind: 'in-sync'; file: string }
  | { kind: 'differs'; file: string; members: readonly string[] }
  /** No trigger file holds it, though files of its dataset were compared (the Drift view lists it). */
  | { kind: 'service-only' };

/** Drift as the Datasets tree reads it (registerSync.ts): nothing until drift is loaded (a connection and a file). */
export interface TreeDriftSource {
  /** Fires when drift changed (once per batch of file events, or a comparison). */
  onDidChange(listener: () => void): { dispose(): void };
  /** Whether a trigger file holds this trigger of the connection, and matches it. */
  stateOf(connectionId: string, triggerId: string): TriggerFileState | undefined;
}

/** The states of one connection's triggers, by trigger id. */
export interface TreeDrift {
  connectionId: string;
  triggers: ReadonlyMap<string, TriggerFileState>;
}

/**
 * The state of every trigger a comparison reached: those files hold (matched by id, or by dataset and name),
 * and the service's triggers of the compared datasets that no file holds. A trigger two files hold shows the
 * one that differs. Undefined until a comparison is done.
 */
export function treeDriftOf(
  snapshot: DriftSnapshot,
  connectionId: string | undefined,
  relativePath: (uri: string) => string,
): TreeDrift | undefined {
  if (snapshot.state.kind !== 'ready' || connectionId === undefined) return undefined;
  const triggers = new Map<string, TriggerFileState>();
  for (const f of snapshot.files) {
    for (const t of f.triggers) {
      const id = t.service?.id;
      if (id === undefined || triggers.get(id)?.kind === 'differs') continue;
      const file = relativePath(f.file);
      if (t.status === 'in-sync') triggers.set(id, { kind: 'in-sync', file });
      else if (t.status === 'differs') {
        triggers.set(id, { kind: 'differs', file, members: differingMembers(t.differences) });
      }
    }
  }
  for (const t of snapshot.onlyOnService) if (!triggers.has(t.id)) triggers.set(t.id, { kind: 'service-only' });
  return { connectionId, triggers };
}
