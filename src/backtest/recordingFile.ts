// The recording of a trigger test file (`<name>.trigger-test.recording.json`, beside it): the query results
// its windows were evaluated from, kept so that a test of an incident still runs after the service has
// dropped the data (it keeps 7 days). One zod schema is the format; schemas/trigger-test-recording.schema.json
// is generated from it. The text is written one way only (members in a fixed order, windows by time, one
// line per series point), so the same data always gives the same bytes and a pull request shows each
// point that changed. Merging a new recording into one on disk keeps what is there and says what differs.
// No vscode import.
import * as z from 'zod';
import { canonicalJson } from './savedQueryCache';
import { boundText, jsonOfFile, pathText } from './testFile';
import { utcText } from './times';
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../result';

/** The version of the format this code writes and reads. */
const RECORDING_FORMAT = 1;
export const TRIGGER_RECORDING_SCHEMA_PATH = 'schemas/trigger-test-recording.schema.json';

const ISO_SECOND = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** Epoch seconds of `2025-06-02T09:10:00Z`; NaN for any other text or a date that does not exist. */
export function isoSeconds(text: string): number {
  const m = ISO_SECOND.exec(text);
  if (!m) return NaN;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  return back.getUTCMonth() === mo - 1 && back.getUTCDate() === d && h < 24 && mi < 60 && s < 60 ? ms / 1000 : NaN;
}

/** `2025-06-02T09:10:00Z`: the one form times take in a recording. */
export function isoText(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const Time = z
  .string()
  .refine((t) => !Number.isNaN(isoSeconds(t)), {
    error: () => l10n.t('must be a time in UTC with seconds ("2025-06-02T09:10:00Z")'),
  })
  .meta({
    id: 'recordedTime',
    description: 'A time in UTC with seconds: "2025-06-02T09:10:00Z".',
    pattern: ISO_SECOND.source,
  });

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** A row of a series point: aggregate keys (`COUNT`, `P99(duration_ms)`) and breakdown columns to their values. */
const Row = z.record(z.string(), Scalar);

const Point = z.tuple([Time, Row]).meta({
  description:
    'One point of the series as the service answered it: its time and its row (aggregates and breakdown values).',
});

const RecordedWindow = z
  .strictObject({
    from: Time.meta({
      description: "The expectation's `from`, as an absolute time: the window this data was recorded for.",
    }),
    to: Time.meta({ description: "The expectation's `to`." }),
    dataset: z.string().min(1).meta({ description: 'The dataset the query ran on (`__all__`: the environment).' }),
    query: z
      .looseObject({ granularity: z.number().int().min(1).meta({ description: 'The bucket step, in seconds.' }) })
      .meta({
        description:
          "The query specification the engine sent, without its start and end: the calculations, filters, breakdowns, formulas and calculated fields of the trigger's query, and the granularity (the bucket step in seconds).",
      }),
    start_time: Time.meta({
      description:
        'The first bucket held: the data starts here (before `from`: the time_range of the first evaluation and the evaluations that decide the state at the start).',
    }),
    end_time: Time.meta({ description: 'The data ends before this time (the last evaluation of the window).' }),
    series: z.array(Point).meta({ description: 'The series, one point a line, by time.' }),
  })
  .meta({
    id: 'recordedWindow',
    description:
      'The query results of one window of the test file: every expectation with these `from` and `to` runs from them.',
  });

export const TriggerTestRecording = z
  .strictObject({
    $schema: z.string().optional().meta({ description: 'The JSON Schema of this file, for editors.' }),
    recording: z.literal(RECORDING_FORMAT).meta({ description: 'The version of the format.' }),
    saved_queries: z.record(z.string().min(1), z.record(z.string(), z.unknown())).optional().meta({
      description:
        'The saved query of a trigger that names one by query_id, by its id, as the service answered it: a recorded run reads it here.',
    }),
    windows: z.array(RecordedWindow).meta({ description: 'The recorded windows, by time.' }),
  })
  .meta({
    title: 'Trigger test recording',
    description:
      "The query results the windows of a trigger test file were evaluated from, recorded by `obs test --record` or the Test Explorer's Record the Window. Written by the tools: review it, do not edit it.",
  });

export type TriggerTestRecording = z.infer<typeof TriggerTestRecording>;
export type RecordedWindow = z.infer<typeof RecordedWindow>;
export type RecordedPoint = z.infer<typeof Point>;

export type ParsedRecording = Outcome<{ recording: TriggerTestRecording }, string[]>;

function messageOf(issue: z.core.$ZodIssue): string {
  const where = pathText(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? l10n.t('{0} is missing', where)
        : l10n.t('{0} must be {1}', where, issue.expected);
    case 'invalid_value':
      return l10n.t('{0} must be {1}: this is a recording of another version of obs', where, String(RECORDING_FORMAT));
    case 'unrecognized_keys':
      return l10n.t('{0} has {1} that a recording does not have', where, issue.keys.map((k) => `"${k}"`).join(', '));
    case 'invalid_union':
      return l10n.t('{0} must be a string, a number, true, false or null', where);
    case 'too_big':
    case 'too_small':
      return boundText(where, issue);
    default:
      return `${where} ${issue.message}`;
  }
}

/** Checks zod does not make: each window once, its times in order, and its points inside it. */
function crossChecks(r: TriggerTestRecording): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  r.windows.forEach((w, i) => {
    const key = `${w.from} ${w.to}`;
    if (seen.has(key))
      problems.push(
        l10n.t('windows[{0}] is the window from {1} to {2} again: each window is recorded once', i, w.from, w.to),
      );
    seen.add(key);
    const [start, end] = [isoSeconds(w.start_time), isoSeconds(w.end_time)];
    if (isoSeconds(w.from) >= isoSeconds(w.to) || start >= end)
      problems.push(l10n.t('windows[{0}] ends before it starts', i));
    const outside = w.series.findIndex(([t]) => isoSeconds(t) < start || isoSeconds(t) >= end);
    if (outside >= 0) problems.push(l10n.t('windows[{0}].series[{1}] lies outside start_time to end_time', i, outside));
  });
  return problems;
}

/** Reads a recording's text: the recording, or every problem of it. */
export function parseRecording(text: string): ParsedRecording {
  const json = jsonOfFile(text);
  if (!json.ok) return { ok: false, reason: [json.reason] };
  const parsed = TriggerTestRecording.safeParse(json.value);
  if (!parsed.success) return { ok: false, reason: parsed.error.issues.map(messageOf) };
  const problems = crossChecks(parsed.data);
  return problems.length > 0 ? { ok: false, reason: problems } : { ok: true, recording: parsed.data };
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One window as it is written: members in order, the query on one line, a line per point, points by time then row. */
function windowText(w: RecordedWindow): string {
  const points = w.series.map(([t, row]) => `[${JSON.stringify(t)}, ${canonicalJson(row)}]`).sort(byText);
  const series = points.length === 0 ? '[]' : `[\n${points.map((p) => `        ${p}`).join(',\n')}\n      ]`;
  const members = [
    `"from": ${JSON.stringify(w.from)}`,
    `"to": ${JSON.stringify(w.to)}`,
    `"dataset": ${JSON.stringify(w.dataset)}`,
    `"query": ${canonicalJson(w.query)}`,
    `"start_time": ${JSON.stringify(w.start_time)}`,
    `"end_time": ${JSON.stringify(w.end_time)}`,
    `"series": ${series}`,
  ];
  return `    {\n${members.map((m) => `      ${m}`).join(',\n')}\n    }`;
}

const windowOrder = (a: RecordedWindow, b: RecordedWindow) => byText(a.from, b.from) || byText(a.to, b.to);

/** The text of a recording: the same recording gives the same bytes whatever order it was made in. */
export function recordingText(r: TriggerTestRecording): string {
  const top: string[] = [];
  if (r.$schema !== undefined) top.push(`"$schema": ${JSON.stringify(r.$schema)}`);
  top.push(`"recording": ${RECORDING_FORMAT}`);
  const ids = Object.keys(r.saved_queries ?? {}).sort(byText);
  if (ids.length > 0)
    top.push(
      `"saved_queries": {\n${ids.map((id) => `    ${JSON.stringify(id)}: ${canonicalJson(r.saved_queries?.[id])}`).join(',\n')}\n  }`,
    );
  const windows = [...r.windows].sort(windowOrder).map(windowText);
  top.push(`"windows": ${windows.length === 0 ? '[]' : `[\n${windows.join(',\n')}\n  ]`}`);
  return `{\n${top.map((m) => `  ${m}`).join(',\n')}\n}\n`;
}

/** What a run recorded of one test file: the windows fetched now, and the saved query its trigger names. */
export interface FreshRecording {
  windows: readonly RecordedWindow[];
  savedQueries: Readonly<Record<string, Record<string, unknown>>>;
}

interface MergedRecording {
  recording: TriggerTestRecording;
  /** Windows new to the file, and windows of the file whose content changed. */
  added: RecordedWindow[];
  replaced: RecordedWindow[];
  /** What the file held that differs from what was recorded now, each in one sentence. */
  differences: string[];
}

/** Why a window recorded now differs from the one of the same times in the file. */
function differenceOf(old: RecordedWindow, now: RecordedWindow): string {
  const span = `${utcText(isoSeconds(old.from))} to ${utcText(isoSeconds(old.to))}`;
  if (old.dataset !== now.dataset || canonicalJson(old.query) !== canonicalJson(now.query))
    return l10n.t('the recorded window {0} holds another query', span);
  if (old.start_time !== now.start_time || old.end_time !== now.end_time)
    return l10n.t(
      'the recorded window {0} holds data from {1} to {2}, this run needs it from {3} to {4}',
      span,
      old.start_time,
      old.end_time,
      now.start_time,
      now.end_time,
    );
  return l10n.t('the recorded window {0} holds other data: the service answers differently now', span);
}

/**
 * The file's recording with what was recorded now: new windows added, a window of the same times whose
 * content differs replaced (the difference said), and windows no expectation recorded now kept as they are.
 */
function mergeRecording(existing: TriggerTestRecording | undefined, fresh: FreshRecording): MergedRecording {
  const windows = new Map((existing?.windows ?? []).map((w) => [`${w.from} ${w.to}`, w]));
  const out: MergedRecording = {
    recording: { recording: RECORDING_FORMAT, windows: [] },
    added: [],
    replaced: [],
    differences: [],
  };
  // Expectations of the same window recorded it once each: the same window.
  const recorded = new Map(fresh.windows.map((w) => [`${w.from} ${w.to}`, w]));
  for (const [key, w] of recorded) {
    const old = windows.get(key);
    if (old !== undefined && windowText(old) === windowText(w)) continue;
    if (old !== undefined) out.differences.push(differenceOf(old, w));
    (old === undefined ? out.added : out.replaced).push(w);
    windows.set(key, w);
  }
  const saved: Record<string, Record<string, unknown>> = { ...(existing?.saved_queries ?? {}) };
  for (const [id, query] of Object.entries(fresh.savedQueries)) {
    const old = saved[id];
    if (old !== undefined && canonicalJson(old) !== canonicalJson(query))
      out.differences.push(l10n.t('the saved query {0} in the recording is not the one the service answers now', id));
    saved[id] = query;
  }
  out.recording = {
    ...(existing?.$schema === undefined ? {} : { $schema: existing.$schema }),
    recording: RECORDING_FORMAT,
    ...(Object.keys(saved).length > 0 ? { saved_queries: saved } : {}),
    windows: [...windows.values()],
  };
  return out;
}

/** The JSON Schema text of the format, formatted as committed (2-space indent, final newline). */
export function recordingJsonSchemaText(): string {
  const schema = z.toJSONSchema(TriggerTestRecording, { io: 'input', target: 'draft-07', unrepresentable: 'any' });
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** What to do with the recording file after a run that recorded. */
export type RecordingUpdate =
  | { kind: 'unchanged'; windows: number }
  | { kind: 'write'; text: string; added: number; replaced: number; differences: string[] }
  | { kind: 'refused'; reasons: string[] };

/**
 * The file's next text from its present text (undefined: there is none) and what was recorded now. A file
 * whose content would change other than by new windows (a window of other content, a file that is not a
 * valid recording) is rewritten only when `force`; otherwise nothing is written and the reasons say why.
 */
export function recordingUpdate(
  existingText: string | undefined,
  fresh: FreshRecording,
  force: boolean,
): RecordingUpdate {
  const parsed = existingText === undefined ? undefined : parseRecording(existingText);
  const invalid = parsed && !parsed.ok ? [l10n.t('it is not a valid recording ({0})', parsed.reason.join('; '))] : [];
  if (invalid.length > 0 && !force) return { kind: 'refused', reasons: invalid };
  const merged = mergeRecording(parsed?.ok === true ? parsed.recording : undefined, fresh);
  if (merged.differences.length > 0 && !force) return { kind: 'refused', reasons: merged.differences };
  const text = recordingText(merged.recording);
  if (text === existingText || (existingText === undefined && fresh.windows.length === 0))
    return { kind: 'unchanged', windows: merged.recording.windows.length };
  return {
    kind: 'write',
    text,
    added: merged.added.length,
    replaced: merged.replaced.length,
    differences: [...invalid, ...merged.differences],
  };
}
