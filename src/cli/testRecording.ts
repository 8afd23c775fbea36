// `obs test` and a test file's recording (`<name>.trigger-test.recording.json`, beside it): read before the
// run (the expectations whose windows it holds run from it), and after `obs test --record` written whole
// through a temporary file (triggers as code's node file operations), never over a recording whose content
// differs unless --force, and never outside the folder obs test runs in.
import { resolve } from 'node:path';
import { errorText } from '../api/errors';
import {
  parseRecording,
  recordingPathFor,
  recordingUpdate,
  type FreshRecording,
  type RecordedNotes,
  type TriggerTestRecording,
} from '../backtest';
import { placeIn } from '../triggerFiles/contained';
import { nodeFileSystem } from '../triggerFiles/nodeFs';
import { isAlreadyThere } from '../triggerFiles/pullFs';
import { decodeStrict, readCommandLineFile, ReadProblem } from './read';

export type RecordingRead =
  | { ok: true; path: string; text: string | undefined; recording: TriggerTestRecording | undefined; invalid?: string }
  | { ok: false; reason: string; path: string };

/** Why a recording's path is not read or written, if so: it must lie inside the folder obs test runs in. */
async function outside(cwd: string, path: string): Promise<string | undefined> {
  switch (await placeIn(cwd, path)) {
    case 'inside':
      return undefined;
    case 'outside':
      return `${path}: it lies outside the folder obs test runs in, so it is not used`;
    default:
      return `${path}: it is a link leading outside the folder obs test runs in, so it is not used`;
  }
}

/** The recording beside a test file: none, its recording, one that is not valid (said), or why it cannot be read. */
export async function readRecording(testFile: string, cwd: string, maxBytes: number): Promise<RecordingRead> {
  const path = recordingPathFor(testFile);
  const refused = await outside(cwd, path);
  if (refused !== undefined) return { ok: false, reason: refused, path };
  let bytes: Uint8Array;
  try {
    bytes = await readCommandLineFile(path, cwd, maxBytes);
  } catch (e) {
    if (e instanceof ReadProblem && e.reason === 'missing')
      return { ok: true, path, text: undefined, recording: undefined };
    return { ok: false, reason: `cannot read ${path}: ${e instanceof ReadProblem ? e.message : errorText(e)}`, path };
  }
  const text = decodeStrict(bytes);
  if (text === undefined) return { ok: false, reason: `cannot read ${path}: the file is not UTF-8`, path };
  const parsed = parseRecording(text);
  if (!parsed.ok)
    return {
      ok: true,
      path,
      text,
      recording: undefined,
      invalid: `${path} is not a valid recording: ${parsed.reason.join('; ')}`,
    };
  return { ok: true, path, text, recording: parsed.recording };
}

const windows = (n: number) => `${n} ${n === 1 ? 'window' : 'windows'}`;

/**
 * Writes what was recorded into the recording, as recordingUpdate decides; the lines that say what
 * happened (for the standard error), and whether it went as asked (false: nothing written that should be).
 */
export async function saveRecording(
  read: Extract<RecordingRead, { ok: true }>,
  recorder: RecordedNotes,
  savedQueries: FreshRecording['savedQueries'],
  force: boolean,
  cwd: string,
): Promise<{ written: boolean; lines: string[] }> {
  const lines = recorder.notRecorded.map((n) => `not recorded: "${n.name}": ${n.reason}`);
  const update = recordingUpdate(read.text, { windows: recorder.windows, savedQueries }, force);
  const kept =
    recorder.kept > 0 ? ` (${recorder.kept} ${recorder.kept === 1 ? 'expectation' : 'expectations'} ran from it)` : '';
  if (update.kind === 'unchanged')
    return {
      written: true,
      lines: [
        ...lines,
        update.windows === 0
          ? `${read.path}: nothing to record`
          : `${read.path} is unchanged: ${windows(update.windows)}${kept}`,
      ],
    };
  if (update.kind === 'refused')
    return {
      written: false,
      lines: [...lines, `${read.path} not written: ${update.reasons.join('; ')}; --force replaces it`],
    };
  const refused = await outside(cwd, read.path);
  if (refused !== undefined) return { written: false, lines: [...lines, `${refused}: not written`] };
  const full = resolve(cwd, read.path);
  try {
    await (read.text === undefined
      ? nodeFileSystem.create(full, update.text)
      : nodeFileSystem.replace(full, update.text));
  } catch (e) {
    const why = isAlreadyThere(e) ? 'a file appeared there meanwhile; run it again' : errorText(e);
    return { written: false, lines: [...lines, `${read.path} not written: ${why}`] };
  }
  const replaced =
    update.replaced > 0 || update.differences.length > 0 ? `; replaced: ${update.differences.join('; ')}` : '';
  return {
    written: true,
    lines: [...lines, `recorded ${windows(update.added + update.replaced)} in ${read.path}${kept}${replaced}`],
  };
}
