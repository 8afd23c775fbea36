// How a trigger file is read (a file named on obs's command line, a file pull compares, a file apply
// writes an id into): only a regular file (a link to one is fine), and at most a cap of bytes. A device (a
// link to /dev/zero never ends), a FIFO (blocks until someone writes) or a socket is refused at once, and
// so is a file past the cap, each with its reason. No vscode import.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { errorText } from '../api/errors';

/** The default cap: far above any trigger file (10,000 triggers take about 10 MB). */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** Why a file was not read; `message` ends a line `cannot read <file>: <message>`. */
export class ReadProblem extends Error {
  constructor(
    readonly reason: 'missing' | 'directory' | 'not-regular' | 'too-large' | 'denied' | 'other',
    message: string,
  ) {
    super(message);
  }
}

const errnoCode = (e: unknown) => (e instanceof Error && 'code' in e ? e.code : undefined);

/** 67108864 as `64 MiB`, 1536 as `1.5 KiB`, 100 as `100 bytes`. */
function size(bytes: number): string {
  const [unit, n] =
    bytes >= 1024 * 1024 ? ['MiB', bytes / 1024 / 1024] : bytes >= 1024 ? ['KiB', bytes / 1024] : ['bytes', bytes];
  return `${Number(n.toFixed(1))} ${unit}`;
}

function openProblem(e: unknown): ReadProblem {
  switch (errnoCode(e)) {
    case 'ENOENT':
      return new ReadProblem('missing', 'no such file');
    case 'EACCES':
    case 'EPERM':
      return new ReadProblem('denied', 'permission denied');
    case 'EISDIR':
      return directory();
    case 'ENXIO':
      return notRegular();
    default:
      return new ReadProblem('other', errorText(e));
  }
}

// obs reads a folder named on its command line as the files under it: one met here is where a file was asked for.
const directory = () => new ReadProblem('directory', 'is a folder, not a file');

const notRegular = () =>
  new ReadProblem('not-regular', 'is not a regular file (a device, FIFO or socket): only files are read');

const tooLarge = (maxBytes: number, why: string) =>
  new ReadProblem('too-large', `is larger than ${size(maxBytes)}, ${why}`);

/** What a too-large message says after the size when the caller says nothing. */
const DEFAULT_WHY = 'the most read of a trigger file';

/**
 * The bytes of `file` (relative to `cwd`); throws ReadProblem. `why` ends the message of a file past the
 * cap (obs names its --max-bytes there). `admit`, when given, hears the file's size once it is known to be
 * a regular file under the cap, and the bytes are read when it resolves (obs reads ahead within a budget).
 */
export async function readRegularFile(
  file: string,
  cwd: string,
  maxBytes = DEFAULT_MAX_BYTES,
  why = DEFAULT_WHY,
  admit?: (size: number) => Promise<void>,
): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(resolve(cwd, file), OPEN_FLAGS);
  } catch (e) {
    throw openProblem(e);
  }
  try {
    // fstat on the open file: what is read is what was checked, even if the path changes meanwhile.
    const stat = await handle.stat();
    checkStat(stat, maxBytes, why);
    if (admit !== undefined) await admit(stat.size);
    return await readAtMost(handle, stat.size, maxBytes, why);
  } catch (e) {
    throw e instanceof ReadProblem ? e : openProblem(e);
  } finally {
    await handle.close();
  }
}

// O_NONBLOCK: opening a FIFO would otherwise wait for a writer. It changes nothing for a regular file.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** Refuses what is not a regular file under the cap. */
function checkStat(stat: Stats, maxBytes: number, why: string): void {
  if (stat.isDirectory()) throw directory();
  if (!stat.isFile()) throw notRegular();
  if (stat.size > maxBytes) throw tooLarge(maxBytes, why);
}

/**
 * As readRegularFile, read at once on this thread, for a file of at most `small` bytes: many small files
 * cost less so than through the thread pool. Undefined for a larger regular file (read it with
 * readRegularFile). Throws ReadProblem as readRegularFile does.
 */
export function readSmallRegularFile(
  file: string,
  cwd: string,
  small: number,
  maxBytes = DEFAULT_MAX_BYTES,
  why = DEFAULT_WHY,
): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(resolve(cwd, file), OPEN_FLAGS);
  } catch (e) {
    throw openProblem(e);
  }
  try {
    const stat = fstatSync(fd);
    checkStat(stat, maxBytes, why);
    if (stat.size > small) return undefined;
    let buffer: Uint8Array = new Uint8Array(0);
    let total = 0;
    for (;;) {
      buffer = room(buffer, total, stat.size, maxBytes, why);
      const read = readSync(fd, buffer, total, buffer.length - total, null);
      if (read === 0) return buffer.subarray(0, total);
      total += read;
    }
  } catch (e) {
    throw e instanceof ReadProblem ? e : openProblem(e);
  } finally {
    closeSync(fd);
  }
}

/**
 * The buffer to read into next, once `total` bytes are in `buffer`: one sized by fstat first (a byte more:
 * the read that finds it tells the file grew), grown twice as large when full; refused past `maxBytes`.
 */
function room(buffer: Uint8Array, total: number, size: number, maxBytes: number, why: string): Uint8Array {
  if (buffer.length === 0) return new Uint8Array(Math.min(maxBytes + 1, size > 0 ? size + 1 : 64 * 1024));
  if (total < buffer.length) return buffer;
  if (total > maxBytes) throw tooLarge(maxBytes, why);
  const grown = new Uint8Array(Math.min(maxBytes + 1, buffer.length * 2));
  grown.set(buffer);
  return grown;
}

type Readable = {
  read(buffer: Uint8Array, offset: number, length: number, position: null): Promise<{ bytesRead: number }>;
};

/**
 * Reads to the end into one buffer sized by fstat (a regular file's bytes are read once, held once),
 * grown if the file grows or reports size 0 as /proc's do; refuses past `maxBytes`.
 */
async function readAtMost(handle: Readable, size: number, maxBytes: number, why: string): Promise<Uint8Array> {
  let buffer: Uint8Array = new Uint8Array(0);
  let total = 0;
  for (;;) {
    buffer = room(buffer, total, size, maxBytes, why);
    const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
    if (bytesRead === 0) return buffer.subarray(0, total);
    total += bytesRead;
  }
}
