// The service runs only saved queries, and every save makes a new one that stays on the service. So a
// query spec saved once in a session is run again by the id it got, not saved again: per client (a new
// client, after a key change or a sandbox restart, may face other ids), dataset and spec in canonical JSON
// (members sorted, so the order a file lists them in does not matter). No vscode import.
import type { ApiResponse, CallOptions } from '../api/clientOptions';
import type { CreateQueryRequest, SavedQuery } from '../api/schemas';

export interface SaveQueryApi {
  createQuery(dataset: string, body: CreateQueryRequest, o?: CallOptions): Promise<ApiResponse<SavedQuery>>;
}

/** JSON with every object's members sorted by name: the same spec gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Specs remembered per client; past it the oldest is forgotten (a long session previews many windows). */
const MAX_REMEMBERED = 500;

export class SavedQueryCache {
  private readonly byClient = new WeakMap<object, Map<string, string>>();

  /** The id of this spec saved earlier in the session on this client and dataset, or of a new save now. */
  async idFor(
    api: SaveQueryApi,
    dataset: string,
    spec: CreateQueryRequest,
    signal?: AbortSignal,
  ): Promise<{ id: string; saved: boolean }> {
    let ids = this.byClient.get(api);
    if (ids === undefined) this.byClient.set(api, (ids = new Map()));
    const key = `${dataset}\u0000${canonicalJson(spec)}`;
    const known = ids.get(key);
    if (known !== undefined) return { id: known, saved: false };
    const id = (await api.createQuery(dataset, spec, signal ? { signal } : undefined)).data.id;
    const oldest = ids.keys().next();
    if (ids.size >= MAX_REMEMBERED && oldest.done !== true) ids.delete(oldest.value);
    ids.set(key, id);
    return { id, saved: true };
  }
}
