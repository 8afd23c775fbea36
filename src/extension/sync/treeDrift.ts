// What the Datasets tree shows of drift on a trigger the service lists: whether a trigger file of the
// workspace holds it and matches it, as plain data. Answered by the drift model from what it already keeps
// (DriftModel.triggerFileState: the files holding that trigger): no call to the service, no pass over every
// file, per tree node. No vscode import.

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
