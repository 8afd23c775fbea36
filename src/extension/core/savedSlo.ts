// What a form saved of a burn alert or of a dataset's definitions, as the service answered the write: drift keeps
// it as its read of that object, so a save costs no read of the service. No vscode import.

export type SavedSlo =
  /** The alert after a PUT: the service's answer over what was sent and read (it holds the recipients). */
  | { kind: 'burn-alert'; dataset: string; alert: Record<string, unknown> & { id: string } }
  /** The whole map the PATCH answered. */
  | { kind: 'definitions'; dataset: string; map: Record<string, unknown> };
