// What every command of the CLI is given, and its exit statuses.

export interface MainIo {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Aborts on Ctrl+C: what is done stays done, nothing is half-written. */
  signal?: AbortSignal;
}

export const EXIT_OK = 0;
/** Something differs: a drift, or files a pull left alone. */
export const EXIT_DIFFERS = 1;
/** A usage problem, a file that cannot be read or written, or the service could not be read. */
export const EXIT_TROUBLE = 2;

/** A problem with the command line of pull or drift. */
export class CliUsageError extends Error {
  readonly kind = 'usage';
}

/** `--concurrency N` of pull and drift: a whole number from 1 to 16. */
export function parseConcurrency(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 16) throw new CliUsageError(`--concurrency needs a whole number from 1 to 16, got "${text}"`);
  return n;
}
