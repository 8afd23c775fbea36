// Applying a burn alert or definitions change (docs/SLO-FILES.md): the object read again right before the write
// and compared with the version the plan was made from (the service has no conditional write), then one write,
// then what the service holds compared with what was sent. A write whose answer was lost is never sent again
// blindly: the object is read first, as for triggers. No vscode import.
import { asServiceError, isServiceNotFound } from '../api/errors';
import { causeOf, type ChangeResult } from './applyResult';
import { burnAlertDataset } from './burnAlertFile';
import type { Difference } from './compare';
import type { BurnAlertUpdate, DefinitionsUpdate, SloUpdate } from './planKinds';
import {
  burnAlertStoredDifferently,
  burnAlertUnchanged,
  definitionsAfter,
  definitionsStoredDifferently,
  definitionsVersion,
} from './sloChange';

type Json = Record<string, unknown>;

/** The calls the apply of burn alerts and definitions makes (the client's ServiceClient satisfies it). */
export interface BurnAlertWriter {
  /** One alert read whole (beyond the spec: the service serves it). */
  getBurnAlert(dataset: string, id: string, o?: { signal?: AbortSignal }): Promise<{ data: Json }>;
  updateBurnAlert(dataset: string, id: string, body: Json, o?: { signal?: AbortSignal }): Promise<{ data: Json }>;
  /** With an empty body it changes nothing and answers the whole map (the service has no read of definitions). */
  updateDatasetDefinitions(dataset: string, body: Json, o?: { signal?: AbortSignal }): Promise<{ data: Json }>;
}

/** How often a write whose answer was lost is sent again, each time only after reading that nothing changed. */
const LOST_ANSWER_RESENDS = 2;

const signalOf = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

/** One burn alert or definitions change applied; a failure of the write itself is thrown (apply.ts words it). */
export function applySloUpdate(
  change: SloUpdate,
  writer: BurnAlertWriter,
  signal: AbortSignal | undefined,
): Promise<ChangeResult> {
  return change.kind === 'burn-alert'
    ? updateBurnAlert(change, writer, signal)
    : updateDefinitions(change, writer, signal);
}

/** A side of a write: read what the service holds now, send, and compare what it holds with what was sent. */
interface WriteSteps {
  read(): Promise<Json>;
  /** Whether what was read is still what the plan was made from. */
  unchanged(now: Json): boolean;
  send(): Promise<Json>;
  /** What the service holds otherwise than the write would leave it. */
  differences(held: Json): Difference[];
}

/**
 * Sends the write; when its answer is lost, reads and decides: written (the service holds what was sent), sent
 * again (it still holds what the plan was made from), or unknown (it holds neither: nothing is sent again).
 */
async function sendOnce(change: SloUpdate, steps: WriteSteps): Promise<ChangeResult | { sent: Json }> {
  for (let resend = 0; ; resend++) {
    try {
      return { sent: await steps.send() };
    } catch (e) {
      const se = asServiceError(e);
      if (se?.maybeProcessed !== true) throw e;
      let held: Json;
      try {
        held = await steps.read();
      } catch (readError) {
        const read = asServiceError(readError)?.message ?? String(readError);
        const reason =
          `its answer was lost (${se.message}) and reading it failed (${read}): ` +
          'plan again to see what the service holds';
        return { change, outcome: 'unknown', reason, cause: causeOf(e) };
      }
      if (steps.differences(held).length === 0) return { sent: held };
      if (!steps.unchanged(held) || resend >= LOST_ANSWER_RESENDS) {
        const reason =
          `its answer was lost (${se.message}), and the service now holds neither what was sent nor what the plan ` +
          'was made from: nothing was sent again; plan again to see it';
        return { change, outcome: 'unknown', reason, cause: causeOf(e) };
      }
    }
  }
}

async function updateBurnAlert(
  change: BurnAlertUpdate,
  writer: BurnAlertWriter,
  signal: AbortSignal | undefined,
): Promise<ChangeResult> {
  const dataset = burnAlertDataset(change.dataset);
  const named = `the burn alert ${JSON.stringify(change.name)} (${change.id})`;
  const steps: WriteSteps = {
    read: async () => (await writer.getBurnAlert(dataset, change.id, signalOf(signal))).data,
    unchanged: (now) => burnAlertUnchanged(change.service, now),
    send: async () => (await writer.updateBurnAlert(dataset, change.id, change.body, signalOf(signal))).data,
    differences: (held) => burnAlertStoredDifferently(change.body, held),
  };
  let now: Json;
  try {
    now = await steps.read();
  } catch (e) {
    if (isServiceNotFound(e))
      return { change, outcome: 'skipped', reason: `${named} was deleted on the service since the plan` };
    throw e;
  }
  if (!steps.unchanged(now)) {
    const when = typeof now.updated_at === 'string' ? ` (updated ${now.updated_at})` : '';
    const reason = `${named} changed on the service since the plan${when}; plan again to see the change`;
    return { change, outcome: 'skipped', reason };
  }
  const sent = await sendOnce(change, steps);
  if (!('sent' in sent)) return sent;
  // The answer of a PUT may leave out members it stored (4.4 lists no budget_rate fields): read the alert back.
  let back: Json;
  try {
    back = await steps.read();
  } catch (e) {
    const why = asServiceError(e)?.message ?? String(e);
    const reason = `reading it back failed (${why}), so what the service stored is not known; plan again to compare`;
    return { change, outcome: 'unverified', id: change.id, reason, cause: causeOf(e) };
  }
  return { change, outcome: 'applied', id: change.id, storedDifferently: steps.differences(back) };
}

async function updateDefinitions(
  change: DefinitionsUpdate,
  writer: BurnAlertWriter,
  signal: AbortSignal | undefined,
): Promise<ChangeResult> {
  // The empty update: changes nothing, answers the whole map as it is now.
  const read = async () => (await writer.updateDatasetDefinitions(change.dataset, {}, signalOf(signal))).data;
  const now = await read();
  if (definitionsVersion(now).sha256 !== change.service.sha256) {
    const reason =
      `the definitions of ${change.dataset} changed on the service since the plan; ` + 'plan again to see the change';
    return { change, outcome: 'skipped', reason };
  }
  const expected = definitionsAfter(now, change.body);
  const steps: WriteSteps = {
    read,
    unchanged: (held) => definitionsVersion(held).sha256 === change.service.sha256,
    send: async () => (await writer.updateDatasetDefinitions(change.dataset, change.body, signalOf(signal))).data,
    differences: (held) => definitionsStoredDifferently(expected, held),
  };
  const sent = await sendOnce(change, steps);
  if (!('sent' in sent)) return sent;
  // The PATCH answers the whole map: compared with what was expected, no read back needed.
  return { change, outcome: 'applied', id: change.id, storedDifferently: steps.differences(sent.sent) };
}
