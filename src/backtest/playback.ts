// A test run from a recording, in place of the query calls: the window of an expectation found in the
// recording by its absolute times, each query the engine would send for it answered from the recorded
// series (no query result created, no pacing, no service), or refused in one sentence when the engine would
// now send another query (the trigger's query changed) or needs data the recording does not hold. And the
// other way: the series of a window fetched from the service made into a recorded window. A recorded run
// reads "now" as the moment the window's data was whole, so the 7 days the service keeps do not apply and
// the window is the one recorded. No vscode import.
import type { QueryResultData, SavedQuery } from '../api/schemas';
import type { ApiResponse } from '../api/clientOptions';
import type { CachedData } from './cache';
import { chunkQuery, SAFETY_SECONDS, type PreviewPlan } from './plan';
import {
  isoSeconds,
  isoText,
  type RecordedPoint,
  type RecordedWindow,
  type TriggerTestRecording,
} from './recordingFile';
import type { QueryApi } from './runner';
import { canonicalJson } from './savedQueryCache';
import { epochSeconds } from './series';
import { utcText, type TimeSpec } from './times';
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../result';

/** The window of the recording an expectation's times name; relative times name none. */
export function recordedWindowFor(
  recording: TriggerTestRecording,
  from: TimeSpec,
  to: TimeSpec,
): RecordedWindow | undefined {
  if (from.kind !== 'absolute' || to.kind !== 'absolute') return undefined;
  return recording.windows.find((w) => isoSeconds(w.from) === from.seconds && isoSeconds(w.to) === to.seconds);
}

/**
 * When the service first held a window ending at `to` whole: its last evaluation (the next multiple of the
 * frequency) and the minutes the newest data may still be filling up. A recorded run reads now as this time.
 */
export function completeAt(to: number, frequency: number): number {
  return Math.ceil(to / frequency) * frequency + SAFETY_SECONDS;
}

/** Members a query lists in any order (the service answers them in its own): compared as sets. */
const UNORDERED = new Set(['filters', 'calculated_fields']);

function memberText(key: string, value: unknown): string {
  if (!UNORDERED.has(key) || !Array.isArray(value)) return canonicalJson(value ?? null);
  return `[${value
    .map((v) => canonicalJson(v ?? null))
    .sort()
    .join(',')}]`;
}

/** The members in which two query specifications differ, by name. */
function differingMembers(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.filter((k) => memberText(k, a[k]) !== memberText(k, b[k]));
}

export type PlayedBack = Outcome<{ data: QueryResultData[] }>;

/** The query spec of a chunk without its span: what a recorded window's `query` holds. */
function specBody(
  query: Record<string, unknown>,
  plan: Pick<PreviewPlan, 'step'>,
  chunk: { start: number; end: number },
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...chunkQuery(query, plan, chunk) };
  delete body['start_time'];
  delete body['end_time'];
  return body;
}

/**
 * The data of each query of the plan from a recorded window, as the service answered it for that span;
 * or why the recording cannot stand for them: the engine would send another query (a member of the
 * trigger's query, its dataset or the step changed), or needs data from outside the recorded span.
 */
export function playBack(
  w: RecordedWindow,
  dataset: string,
  query: Record<string, unknown>,
  plan: Pick<PreviewPlan, 'step' | 'chunks'>,
): PlayedBack {
  const start = isoSeconds(w.start_time);
  const end = isoSeconds(w.end_time);
  const points = w.series.map(([t, row]) => ({ t: isoSeconds(t), time: t, data: row }));
  const data: QueryResultData[] = [];
  for (const chunk of plan.chunks) {
    const differs = dataset === w.dataset ? differingMembers(specBody(query, plan, chunk), w.query) : ['dataset'];
    if (differs.length > 0)
      return {
        ok: false,
        reason: l10n.t('the recording is of another query ({0} changed since): record again', differs.join(', ')),
      };
    if (chunk.start < start || chunk.end > end) {
      const first = plan.chunks[0]?.start ?? chunk.start;
      const last = plan.chunks.at(-1)?.end ?? chunk.end;
      return {
        ok: false,
        reason: l10n.t(
          'the recording holds data from {0} to {1}, and the window now needs it from {2} to {3}: record again',
          utcText(start),
          utcText(end),
          utcText(first),
          utcText(last),
        ),
      };
    }
    data.push({
      series: points.filter((p) => p.t >= chunk.start && p.t < chunk.end).map((p) => ({ time: p.time, data: p.data })),
    });
  }
  return { ok: true, data };
}

const isScalar = (v: unknown): v is string | number | boolean | null =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** The points of fetched series inside [start, end), times in the recording's one form, only scalar members. */
function pointsOf(results: readonly CachedData[], start: number, end: number): RecordedPoint[] {
  const points: RecordedPoint[] = [];
  for (const result of results) {
    for (const point of result?.series ?? []) {
      const t = epochSeconds(point.time);
      if (!Number.isFinite(t) || t < start || t >= end || !point.data) continue;
      const row: RecordedPoint[1] = {};
      for (const [k, v] of Object.entries(point.data)) if (isScalar(v)) row[k] = v;
      points.push([isoText(t), row]);
    }
  }
  return points;
}

/** The recorded window of an expectation from what its plan fetched: the query sent, its span, its series. */
export function windowOf(
  times: { from: number; to: number },
  dataset: string,
  query: Record<string, unknown>,
  plan: Pick<PreviewPlan, 'step' | 'fetchStart' | 'to'>,
  results: readonly CachedData[],
): RecordedWindow {
  const span = { start: plan.fetchStart, end: plan.to };
  return {
    from: isoText(times.from),
    to: isoText(times.to),
    dataset,
    query: { ...specBody(query, plan, span), granularity: plan.step },
    start_time: isoText(span.start),
    end_time: isoText(span.end),
    series: pointsOf(results, span.start, span.end),
  };
}

/** What recording an expectation came to, told to the caller of a run that records. */
export type RecordNote =
  | { kind: 'window'; window: RecordedWindow }
  | { kind: 'kept' }
  | { kind: 'not-recorded'; reason: string };

/** What a run that records did with each expectation of one test file: windows recorded, kept, not recorded. */
export class RecordedNotes {
  readonly windows: RecordedWindow[] = [];
  readonly notRecorded: { name: string; reason: string }[] = [];
  kept = 0;

  note(name: string, note: RecordNote): void {
    if (note.kind === 'window') this.windows.push(note.window);
    else if (note.kind === 'kept') this.kept++;
    else this.notRecorded.push({ name, reason: note.reason });
  }
}

/** Why an expectation run against the service is not recorded, if so: a relative window, or one not over yet. */
export function notRecordable(
  from: TimeSpec,
  to: TimeSpec,
  fromText: string,
  toText: string,
  frequency: number,
  nowSeconds: number,
): string | undefined {
  if (from.kind !== 'absolute' || to.kind !== 'absolute') {
    return l10n.t(
      'its window is relative to the run ({0} to {1}), and a recording holds fixed times: write the window in UTC times to record it',
      fromText,
      toText,
    );
  }
  const whole = completeAt(to.seconds, frequency);
  if (nowSeconds < whole)
    return l10n.t('its window is not over: the service holds all of its data from {0}; record it then', utcText(whole));
  return undefined;
}

/** A call a run from recordings cannot make: there is no service. */
class NeedsServiceError extends Error {
  readonly kind = 'needs-service';
}

/**
 * The query calls of a run with a recording: a saved query the recording holds is answered from it (a saved
 * query never changes); everything else goes to the service, or without one fails saying it needs one.
 */
export function recordedQueryApi(recording: TriggerTestRecording | undefined, service: QueryApi | undefined): QueryApi {
  const none = (what: string) =>
    Promise.reject(new NeedsServiceError(l10n.t('{0} needs the service, and none is configured', what)));
  return {
    getQuery: (dataset, id, o) => {
      const saved = recording?.saved_queries?.[id];
      if (saved !== undefined)
        return Promise.resolve<ApiResponse<SavedQuery>>({ data: { ...saved, id }, status: 200, attempts: 0 });
      return service ? service.getQuery(dataset, id, o) : none(l10n.t('Reading the saved query {0}', id));
    },
    createQuery: (dataset, body, o) =>
      service ? service.createQuery(dataset, body, o) : none(l10n.t('Saving a query')),
    createQueryResult: (dataset, body, o) =>
      service ? service.createQueryResult(dataset, body, o) : none(l10n.t('Running a query')),
    getQueryResult: (dataset, id, o) =>
      service ? service.getQueryResult(dataset, id, o) : none(l10n.t('Reading a query result')),
    listDatasets: (o) => (service ? service.listDatasets(o) : none(l10n.t('Listing the datasets'))),
    listColumns: (dataset, o) => (service ? service.listColumns(dataset, o) : none(l10n.t('Listing the columns'))),
  };
}
