// A test file's recording in the editor (`<name>.trigger-test.recording.json`, beside it): read only in a
// local workspace folder and only inside it (a link leading out is refused, as for the trigger file), written
// whole through a temporary file (triggers as code's node file operations, never over a file that appeared
// meanwhile), what the editor says of a recording made, and which expectations of a test file it holds (the
// lens that opens their window in the preview). No vscode import.
import { basename } from 'node:path';
import { parseRecording, readTime, recordedWindowFor, recordingPathFor, type RecordingUpdate } from '../../backtest';
import { errorText } from '../../api/errors';
import { nodeFileSystem } from '../../triggerFiles/nodeFs';
import { isAlreadyThere } from '../../triggerFiles/pullFs';
import type { RecordedFile, RecordingRead } from './runTests';
import { outlineTestFile } from './testOutline';
import { outsideFolder } from './triggerLocation';
import * as l10n from '@vscode/l10n';

/** The recording beside a test file of a local workspace folder (`folder`); none for other workspaces. */
export async function readRecordingBeside(folder: string | undefined, testPath: string): Promise<RecordingRead> {
  if (folder === undefined) return { ok: true, text: undefined };
  const path = recordingPathFor(testPath);
  const refused = await outsideFolder(folder, path);
  if (refused !== undefined) return { ok: false, reason: l10n.t('{0}: {1}', basename(path), refused) };
  try {
    return { ok: true, text: await nodeFileSystem.read(path) };
  } catch (err) {
    return { ok: false, reason: l10n.t('The recording {0} cannot be read: {1}', basename(path), errorText(err)) };
  }
}

/** Writes a recording's new text whole; why not, if it was not written. */
export async function writeRecording(
  folder: string,
  testPath: string,
  before: string | undefined,
  text: string,
): Promise<string | undefined> {
  const path = recordingPathFor(testPath);
  const refused = await outsideFolder(folder, path);
  if (refused !== undefined) return refused;
  try {
    await (before === undefined ? nodeFileSystem.create(path, text) : nodeFileSystem.replace(path, text));
    return undefined;
  } catch (err) {
    return isAlreadyThere(err) ? l10n.t('a file appeared there meanwhile: record again') : errorText(err);
  }
}

const windows = (n: number) => (n === 1 ? l10n.t('1 window') : l10n.t('{0} windows', n));

/** What the editor says once a recording was written, found unchanged, or not needed; and what was not recorded. */
export function recordedText(
  update: Exclude<RecordingUpdate, { kind: 'refused' }>,
  file: RecordedFile,
  testPath: string,
): string {
  const name = basename(recordingPathFor(testPath));
  const done =
    update.kind === 'write'
      ? l10n.t('Recorded {0} in {1}.', windows(update.added + update.replaced), name)
      : update.windows === 0
        ? l10n.t('Nothing recorded for {0}.', basename(testPath))
        : l10n.t('{0} is unchanged ({1}).', name, windows(update.windows));
  const not = file.notRecorded.map((n) => l10n.t('"{0}": {1}', n.name, n.reason));
  return not.length === 0 ? done : `${done} ${l10n.t('Not recorded: {0}.', not.join('; '))}`;
}

/** The question before a recording whose content would change is replaced. */
export function replaceQuestion(reasons: readonly string[], testPath: string): string {
  return l10n.t(
    '{0} holds a different recording: {1}. Replace it with the one made now? What it held of those windows is lost (the service may no longer keep it).',
    basename(recordingPathFor(testPath)),
    reasons.join('; '),
  );
}

/** The expectations of a test file whose windows its recording holds, with where each starts in the text. */
export function recordedExpectations(
  testText: string,
  recordingText: string | undefined,
): { id: string; name: string; start: number }[] {
  const recording = recordingText === undefined ? undefined : parseRecording(recordingText);
  if (recording?.ok !== true) return [];
  const outline = outlineTestFile(testText);
  const file = outline.file;
  if (file === undefined) return [];
  return outline.expectations.flatMap((o) => {
    const e = file.expectations[o.index];
    const from = e && readTime(e.from);
    const to = e && readTime(e.to);
    return from && to && recordedWindowFor(recording.recording, from, to)
      ? [{ id: o.id, name: o.name, start: o.start }]
      : [];
  });
}
