import type { ListCache } from './listCache';
import type { DataFileStore } from './persistence';
import { errorFor, type Api, type Reply } from './responses';
import type { Route } from './router';
import { dataOf, replaceData, type SandboxState } from './state';

// Writes run one at a time, each with its save, so a write whose save fails can be undone exactly and
// memory never holds a change the data file does not.

export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly state: SandboxState,
    private readonly store: DataFileStore | undefined,
    private readonly lists: ListCache,
  ) {}

  /** Saves the data to the data file, when there is one. */
  async persist(): Promise<void> {
    if (this.store) await this.store.save(dataOf(this.state));
  }

  /**
   * Carries out a write of `route` (`handle`), after every write before it; when it succeeds, drops the
   * cached lists it changed and saves. A failed save undoes it, from the file as last saved (no copy of
   * the data is made before each write), and answers 500.
   */
  write(
    route: Pick<Route, 'changes'>,
    params: Record<string, string>,
    api: Api,
    baseUrl: string,
    handle: () => Reply,
  ): Promise<Reply> {
    const run = this.tail.then(async (): Promise<Reply> => {
      const result = handle();
      if (result.status >= 300) return result;
      this.dropChangedLists(route, params);
      try {
        await this.persist();
      } catch (err) {
        const saved = this.store?.lastSaved();
        if (saved !== undefined) replaceData(this.state, saved);
        this.lists.clear();
        return errorFor(
          api,
          baseUrl,
          500,
          `the sandbox could not save its data, so the change was undone: ${(err as Error).message}`,
        );
      }
      return result;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  private dropChangedLists(route: Pick<Route, 'changes'>, params: Record<string, string>): void {
    const dataset = params.dataset;
    if (route.changes === undefined || (route.changes.length > 0 && dataset === undefined)) {
      this.lists.clear();
      return;
    }
    for (const kind of route.changes) if (dataset !== undefined) this.lists.changed(kind, dataset);
  }
}
