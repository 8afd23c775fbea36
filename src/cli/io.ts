// What every command of obs is given, its exit statuses, and how it says what went wrong.
import type { Readable, Writable } from 'node:stream';
import { visible } from './visible';

export interface MainIo {
  cwd: string;
  /** Where the service's address and key are read (OBS_BASE_URL, OBS_CONFIG_KEY); none when absent. */
  env?: Readonly<Record<string, string | undefined>>;
  /** What a person reads: text reports, Markdown, help. */
  stdout(text: string): void;
  stderr(text: string): void;
  /** What a program reads, written byte for byte (JSON, SARIF, JUnit XML, GitHub's annotations); stdout if absent. */
  stdoutData?(text: string): void;
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

/** Writes output meant for a program (JSON, SARIF, JUnit XML, workflow commands) exactly as given. */
export function writeData(io: Pick<MainIo, 'stdout' | 'stdoutData'>, text: string): void {
  (io.stdoutData ?? io.stdout)(text);
}

/**
 * In a GitHub Actions step (GITHUB_ACTIONS=true) the runner acts on any line of the step's output, on stdout or
 * stderr, that starts with `::name` (after spaces) or holds `##[name`: a file or trigger named `::error::x`
 * would add an annotation, `::add-mask::` hide text, `::stop-commands::` silence the step. So the writers for
 * people show those lines' second `:` (or the `[`) as the escape visible.ts uses (`:\u{3a}error::x`), line by
 * line and stream by stream: nothing to open or close, so it holds whatever the interleaving of the two streams
 * and when obs stops half-way (`::stop-commands::TOKEN` would leave every later command of the step unread, and
 * races between the two pipes). writeData's output is left whole: programs read it byte for byte, and the lines
 * of `--format github` are the commands obs means.
 */
export function withoutWorkflowCommands(io: MainIo): MainIo {
  if (io.env?.GITHUB_ACTIONS !== 'true') return io;
  return {
    ...io,
    stdout: inertLines(io.stdout),
    stderr: inertLines(io.stderr),
    stdoutData: io.stdoutData ?? io.stdout,
  };
}

/** What the runner trims from the start of a line (.NET's white space, and JavaScript's). */
const SPACE = /^[\s\u0085]$/u;

/** A writer whose lines cannot start a workflow command; its state is that of the line it is writing. */
function inertLines(write: (text: string) => void): (text: string) => void {
  let colonFirst = false; // the last character written is a `:` with only spaces before it on its line
  let hashes = 0; // how many `#` were written last
  return (text) => {
    // A write starts a line as far as this stream knows: with `2>&1` the other stream may have ended one.
    let blank = true;
    let out = '';
    for (const c of text) {
      const escape = (c === ':' && colonFirst) || (c === '[' && hashes >= 2);
      out += escape ? `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}` : c;
      const lineBreak = c === '\n' || c === '\r';
      colonFirst = c === ':' && blank && !escape;
      hashes = c === '#' ? hashes + 1 : 0;
      blank = lineBreak || (blank && SPACE.test(c));
    }
    write(out);
  };
}
