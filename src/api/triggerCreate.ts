// Creating a trigger is a POST: repeated after the service got it, it leaves two live triggers. The
// pipeline retries it only when the service certainly did not get it (429, a connection never made).
// After an unknown outcome (an answer lost, cut off or unreadable, a 5xx) this looks for the trigger it
// sent among the dataset's triggers before trying again, as the service facts advise.
import type { ApiResponse } from './clientOptions';
import { ServiceError } from './errors';
import type { Trigger } from './schemas';

export interface CreateCalls {
  /** One POST of the trigger (the pipeline's own retries included). */
  post(): Promise<ApiResponse<Trigger>>;
  /** The dataset's triggers as the service lists them now. */
  list(): Promise<ApiResponse<Trigger[]>>;
}

/** How many POSTs a create may make in all: the first, and one more after the listing showed it was not made. */
export const MAX_CREATE_POSTS = 2;

/**
 * POSTs the trigger; after an unknown outcome, lists the dataset: the one new trigger of that name (an id
 * not in `knownIds`, the ids listed before the create) is the one sent, returned with `recovered`. When the
 * listing shows none, the service did not create it and the POST is made once more. Several candidates, or a
 * listing that fails, end in the original error, which says the trigger may exist.
 */
export async function createOnce(name: string, knownIds: ReadonlySet<string>, calls: CreateCalls): Promise<ApiResponse<Trigger>> {
  for (let post = 1; ; post++) {
    try {
      return await calls.post();
    } catch (e) {
      if (!(e instanceof ServiceError) || e.maybeProcessed !== true) throw e;
      const found = await newTriggersNamed(name, knownIds, calls, e);
      if (found.length === 1 && found[0] !== undefined) return { data: found[0], status: 201, attempts: e.attempts, recovered: true };
      if (found.length > 1) throw e.withMaybeProcessed(`${found.length} new triggers named ${JSON.stringify(name)} are listed now (${found.map((t) => t.id).join(', ')}); none was created again`);
      if (post >= MAX_CREATE_POSTS) throw e;
    }
  }
}

async function newTriggersNamed(name: string, knownIds: ReadonlySet<string>, calls: CreateCalls, cause: ServiceError): Promise<Trigger[]> {
  let listed: Trigger[];
  try {
    listed = (await calls.list()).data;
  } catch (e) {
    const why = e instanceof ServiceError ? e.message : 'the listing failed';
    throw cause.withMaybeProcessed(`looking for it failed too (${why}), so it was not created again`);
  }
  return listed.filter((t) => !knownIds.has(t.id) && t.name === name);
}
