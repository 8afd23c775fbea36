// One apply at a time per service, across the editor's Apply and the agents' apply tool: two applies at once
// would each see no trigger of a new name and each create it. Held in memory by the activation and handed to
// both (they load from bundles of their own, so a module-level lock would not be shared). No vscode import.

/** The lock of one service, while held. */
export interface HeldApply {
  release(): void;
}

/**
 * The service an apply writes to, however its address is spelled (two connections to one service share it):
 * the parsed origin (scheme, host, port; a default port left out) and path without trailing slashes.
 */
function serviceKey(baseUrl: string): string {
  try {
    const url = new URL(baseUrl.trim());
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return baseUrl.trim().replace(/\/+$/, '').toLowerCase();
  }
}

export class ApplyLocks {
  private readonly held = new Map<string, string>();

  /** Takes the lock of the service at `baseUrl` for `holder` (said to whoever finds it taken), or answers who holds it. */
  take(baseUrl: string, holder: string): HeldApply | { heldBy: string } {
    const key = serviceKey(baseUrl);
    const by = this.held.get(key);
    if (by !== undefined) return { heldBy: by };
    this.held.set(key, holder);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.held.delete(key);
      },
    };
  }
}
