// How obs reads a file named on its command line: a regular file only, at most --max-bytes of it
// (src/triggerFiles/regularFile.ts), with obs's words for a file past the cap.
import { readRegularFile } from '../triggerFiles/regularFile';

export { DEFAULT_MAX_BYTES, ReadProblem } from '../triggerFiles/regularFile';

/** The bytes of `file` (relative to `cwd`); throws ReadProblem. `admit` as for readRegularFile (obs's read-ahead budget). */
export function readCommandLineFile(
  file: string,
  cwd: string,
  maxBytes?: number,
  admit?: (size: number) => Promise<void>,
): Promise<Uint8Array> {
  return readRegularFile(file, cwd, maxBytes, 'the most obs reads of a file; --max-bytes N raises it', admit);
}

/** The text of a trigger file: UTF-8 or nothing (a file that is not is reported, never read with replacements). */
export function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
