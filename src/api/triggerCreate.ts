// Creating a trigger is a POST: repeated after the service got it, it leaves two live triggers. The
// pipeline retries it only when the service certainly did not get it (429, a connection never made).
// After an unknown outcome (an answer lost, cut off or unreadable, a 5xx) this looks for the trigger it
// sent among the dataset's triggers, as the service facts advise, and never posts it again. A new trigger of
// that name is taken as its own only when it holds what was sent: one made by someone else in that moment
// under the same name is never adopted (its id would go into the user's file).
import type { ApiResponse } from './clientOptions';
import { ServiceError } from './errors';
import type { Trigger } from './schemas';
import { membersNotAsSent } from './sentTrigger';

export interface CreateCalls {
  /** One POST of the trigger (the pipeline's own retries included). */
  post(): Promise<ApiResponse<Trigger>>;
  /** The dataset's triggers as the service lists them now. */
  list(): Promise<ApiResponse<Trigger[]>>;
}

/** The body a create sent (read-only members left out). */
export type SentTrigger = Readonly<Record<string, unknown>> & { readonly name: string };

/**
 * POSTs the trigger; after an unknown outcome, lists the dataset: the one new trigger of that name (an id
 * not in `knownIds`, the ids listed before the create) holding what was sent is the one sent, returned with
 * `recovered`. Otherwise the original error, which says the trigger may exist, and nothing more is sent: none
 * listed does not prove none was made (a gateway may answer 504 while the service still takes the request,
 * and a second POST would make a second live trigger); the next plan sees what the service holds.
 */
export async function createOnce(
  sent: SentTrigger,
  knownIds: ReadonlySet<string>,
  calls: CreateCalls,
): Promise<ApiResponse<Trigger>> {
  try {
    return await calls.post();
  } catch (e) {
    if (!(e instanceof ServiceError) || e.maybeProcessed !== true) throw e;
    const found = await newTriggersNamed(sent.name, knownIds, calls, e);
    const [only] = found;
    if (found.length === 1 && only !== undefined) return adopted(sent, only, e);
    if (found.length > 1)
      throw e.withMaybeProcessed(
        `${found.length} new triggers named ${JSON.stringify(sent.name)} are listed now (${found.map((t) => t.id).join(', ')}); none was created again`,
      );
    throw e.withMaybeProcessed(
      'it is not listed yet, but the service may still be taking it, so it was not sent again: plan again to see',
    );
  }
}

/** The one new trigger of the name as this create's, when it holds what was sent; otherwise the error, saying why. */
function adopted(sent: SentTrigger, found: Trigger, cause: ServiceError): ApiResponse<Trigger> {
  const differing = membersNotAsSent(sent, found);
  if (differing.length === 0) return { data: found, status: 201, attempts: cause.attempts, recovered: true };
  const members = differing.join(', ');
  throw cause.withMaybeProcessed(
    `a new trigger named ${JSON.stringify(sent.name)} is listed now (${found.id}), but its ${members} ${differing.length === 1 ? 'is' : 'are'} not what was sent, so it was not taken for this one and none was created again`,
  );
}

async function newTriggersNamed(
  name: string,
  knownIds: ReadonlySet<string>,
  calls: CreateCalls,
  cause: ServiceError,
): Promise<Trigger[]> {
  let listed: Trigger[];
  try {
    listed = (await calls.list()).data;
  } catch (e) {
    const why = e instanceof ServiceError ? e.message : 'the listing failed';
    throw cause.withMaybeProcessed(`looking for it failed too (${why}), so it was not created again`);
  }
  return listed.filter((t) => !knownIds.has(t.id) && t.name === name);
}
