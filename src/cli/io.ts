// What every command of obs is given, its exit statuses, and how it says what went wrong.
import type { Readable, Writable } from 'node:stream';
import { visible } from './visible';

export interface MainIo {
  cwd: string;
  /** Where the service's address and key are read (OBS_BASE_URL, OBS_CONFIG_KEY); none when absent. */
  env?: Readonly<Record<string, string | undefined>>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Aborts on Ctrl+C: what is done stays done, nothing is half-written. */
  signal?: AbortSignal;
  /** The raw streams, for `obs mcp`, which speaks its protocol on them. */
  stdio?: { input: Readable; output: Writable };
}

export const EXIT_OK = 0;
/** Something was found: a file with an error (lint), a difference (drift), files a pull left alone. */
export const EXIT_FOUND = 1;
/** A usage problem, a file that cannot be read or written, or the service could not be read. */
export const EXIT_TROUBLE = 2;

export const PROGRAM = 'obs';

/** A problem with the command line: exit 2 with the command's help. */
export class CliUsageError extends Error {
  readonly kind = 'usage';
}

/** One line on stderr, `obs: <message>`; whatever the message echoes (file names, the service's words) is shown escaped. */
export function warn(io: Pick<MainIo, 'stderr'>, message: string): void {
  io.stderr(`${visible(`${PROGRAM}: ${message}`)}\n`);
}

/** A whole number from `min` to `max` given to `option`, or a usage error naming both. */
export function wholeNumber(option: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max)
    throw new CliUsageError(`${option} needs a whole number from ${min} to ${max}, got "${text}"`);
  return n;
}

/** `--concurrency N` of pull and drift: a whole number from 1 to 16. */
export function parseConcurrency(text: string): number {
  return wholeNumber('--concurrency', text, 1, 16);
}
