// How obs reads a file named on its command line: a regular file only, at most --max-bytes of it
// (src/triggerFiles/regularFile.ts), with obs's words for a file past the cap.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readRegularFile } from '../triggerFiles/regularFile';

export { DEFAULT_MAX_BYTES, ReadProblem } from '../triggerFiles/regularFile';

/** The bytes of `file` (relative to `cwd`); throws ReadProblem. */
export function readCommandLineFile(file: string, cwd: string, maxBytes?: number): Promise<Uint8Array> {
  return readRegularFile(file, cwd, maxBytes, 'the most obs reads of a file; --max-bytes N raises it');
}

/** The text of a trigger file: UTF-8 or nothing (a file that is not is reported, never read with replacements). */
export function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The size of a regular file named on the command line, before it is read (0 for anything else, or when it cannot be told). */
export async function sizeOnDisk(file: string, cwd: string): Promise<number> {
  try {
    const s = await stat(resolve(cwd, file));
    return s.isFile() ? s.size : 0;
  } catch {
    return 0;
  }
}
