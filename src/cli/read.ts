// How obs reads a file named on its command line: a regular file only, at most --max-bytes of it
// (src/triggerFiles/regularFile.ts), with obs's words for a file past the cap.
import { readRegularFile, readSmallRegularFile } from '../triggerFiles/regularFile';

export { DEFAULT_MAX_BYTES, ReadProblem } from '../triggerFiles/regularFile';

/** What obs says of a file past its cap, after the size. */
const WHY = 'the most obs reads of a file; --max-bytes N raises it';

/** The bytes of `file` (relative to `cwd`); throws ReadProblem. `admit` as for readRegularFile (obs's read-ahead budget). */
export function readCommandLineFile(
  file: string,
  cwd: string,
  maxBytes?: number,
  admit?: (size: number) => Promise<void>,
): Promise<Uint8Array> {
  return readRegularFile(file, cwd, maxBytes, WHY, admit);
}

/** Files of at most this many bytes are read at once, on obs's thread (as readSmallRegularFile). */
export const SMALL_FILE_BYTES = 256 * 1024;

/** readCommandLineFile for a file of at most SMALL_FILE_BYTES, read at once; undefined for a larger one. */
export function readSmallCommandLineFile(file: string, cwd: string, maxBytes?: number): Uint8Array | undefined {
  return readSmallRegularFile(file, cwd, SMALL_FILE_BYTES, maxBytes, WHY);
}

/** The text of a trigger file: UTF-8 or nothing (a file that is not is reported, never read with replacements). */
export function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
