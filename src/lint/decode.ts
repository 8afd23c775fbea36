// Trigger files as bytes: decoded as UTF-8 the way editors and TextDecoder do (a byte that cannot be
// decoded reads as U+FFFD), with a diagnostic at each such place instead of silence: the service
// would receive U+FFFD where the author wrote something else.
import * as l10n from '@vscode/l10n';
import { isUtf8 } from 'node:buffer';
import { analyse, DEFAULT_MAX_DIAGNOSTICS, lint, type Analysis, type EncodingProblem } from './lint';
import { lintSloText, sloFileKind, type SloFileKind } from './sloLint';
import type { Diagnostic, LintOptions } from './types';

export interface DecodedFile {
  /** The text, without a byte order mark (editors hide it, so columns match what people see). */
  text: string;
  /** The first undecodable byte sequences, by offset in `text`. */
  problems: EncodingProblem[];
  /** Undecodable sequences past those. */
  more: number;
}

const hex = (b: number) => b.toString(16).toUpperCase().padStart(2, '0');

/**
 * Where the UTF-8 decoder of the Encoding Standard (TextDecoder's) puts U+FFFD, as offsets in its output.
 * Follows its algorithm step by step so that the offsets match the text it decodes.
 */
function replacements(bytes: Uint8Array, limit: number): { problems: EncodingProblem[]; more: number } {
  const decoder = new Utf8Replacements(bytes, limit);
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] ?? 0;
    if (decoder.needed === 0) decoder.lead(byte, i);
    // A byte that breaks a sequence is read again, as the start of the next.
    else if (!decoder.continuation(byte, i)) i--;
  }
  if (decoder.needed !== 0) decoder.fail(decoder.start, bytes.length);
  return { problems: decoder.problems, more: decoder.more };
}

/** The decoder's state between bytes (the standard's bytes needed and seen, code point, boundaries), and the problems found. */
class Utf8Replacements {
  readonly problems: EncodingProblem[] = [];
  more = 0;
  /** UTF-16 units of output so far: where the next U+FFFD lands. */
  private units = 0;
  needed = 0;
  private seen = 0;
  private codePoint = 0;
  private lower = 0x80;
  private upper = 0xbf;
  /** Where the sequence being read began. */
  start = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly limit: number,
  ) {}

  /** A byte read with no sequence open: one unit, the start of a sequence, or a replacement. */
  lead(byte: number, i: number): void {
    this.start = i;
    if (byte <= 0x7f) {
      this.units++;
    } else if (byte >= 0xc2 && byte <= 0xdf) {
      this.needed = 1;
      this.codePoint = byte & 0x1f;
    } else if (byte >= 0xe0 && byte <= 0xef) {
      if (byte === 0xe0) this.lower = 0xa0;
      if (byte === 0xed) this.upper = 0x9f;
      this.needed = 2;
      this.codePoint = byte & 0xf;
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      if (byte === 0xf0) this.lower = 0x90;
      if (byte === 0xf4) this.upper = 0x8f;
      this.needed = 3;
      this.codePoint = byte & 0x7;
    } else {
      this.fail(i, i + 1);
    }
  }

  /** A byte read inside a sequence; false when it does not continue it (the caller reads it again). */
  continuation(byte: number, i: number): boolean {
    if (byte < this.lower || byte > this.upper) {
      // The sequence so far is one replacement.
      this.reset();
      this.fail(this.start, i);
      return false;
    }
    this.lower = 0x80;
    this.upper = 0xbf;
    this.codePoint = (this.codePoint << 6) | (byte & 0x3f);
    if (++this.seen === this.needed) {
      this.units += this.codePoint > 0xffff ? 2 : 1;
      this.reset();
    }
    return true;
  }

  private reset(): void {
    this.needed = 0;
    this.seen = 0;
    this.codePoint = 0;
    this.lower = 0x80;
    this.upper = 0xbf;
  }

  /** One U+FFFD for the bytes from `from` to `to`. */
  fail(from: number, to: number): void {
    if (this.problems.length < this.limit) {
      const shown = Array.from(this.bytes.subarray(from, Math.min(to, from + 4)), hex).join(' ');
      this.problems.push({
        offset: this.units,
        message: l10n.t(
          'bytes {0} at byte {1} are not UTF-8; they read as U+FFFD (the replacement character), which is what the service would get: save the file as UTF-8',
          shown,
          from,
        ),
      });
    } else {
      this.more++;
    }
    this.units++;
  }
}

/** Decodes a trigger file's bytes; `limit` bounds the problems kept (the rest are counted). */
export function decodeTriggerFile(bytes: Uint8Array, limit = DEFAULT_MAX_DIAGNOSTICS): DecodedFile {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = bytes.subarray(bom);
  if (isUtf8(body)) return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(body), problems: [], more: 0 };
  const { problems, more } = replacements(body, limit);
  return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(body), problems, more };
}

/** Lints a trigger file given as bytes (a file read from disk): undecodable bytes get a diagnostic each. */
export function lintBytes(bytes: Uint8Array, options: LintOptions = {}): Diagnostic[] {
  return lintReport(bytes, options).diagnostics;
}

/** What lint and lintBytes report, with the counts of what was left out (`hidden`, by severity) and the datasets the file names. */
export type LintReport = Pick<Analysis, 'diagnostics' | 'hidden' | 'datasets'>;

/** Lints text, or bytes as lintBytes does, and also tells how many diagnostics of each severity were left out. */
export function lintReport(input: string | Uint8Array, options: LintOptions = {}): LintReport {
  if (typeof input === 'string') {
    const { diagnostics, hidden, datasets } = analyse(input, options);
    return { diagnostics, hidden, datasets };
  }
  return lintDecoded(decodeTriggerFile(input, options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS), options);
}

/**
 * What lintReport says of the bytes a file was decoded from (decodeTriggerFile, with the same
 * maxDiagnostics): a caller reading large files can let go of the bytes before the lint.
 */
function lintDecoded(decoded: DecodedFile, options: LintOptions = {}): LintReport {
  const { diagnostics, hidden, datasets } = analyse(decoded.text, options, {
    encoding: { problems: decoded.problems, more: decoded.more },
  });
  return { diagnostics, hidden, datasets };
}

/**
 * lintDecoded for the file named `fileName`: a burn alert file (`*.burn-alert.json`) or a dataset definitions
 * file (`*.definitions.json`) by its rules, any other file as a trigger file.
 */
export function lintNamedDecoded(fileName: string, decoded: DecodedFile, options: LintOptions = {}): LintReport {
  const kind = sloFileKind(fileName);
  return kind === undefined ? lintDecoded(decoded, options) : lintSloDecoded(kind, decoded, options);
}

/** A file's text linted by the rules its name says (as lintNamedDecoded): a plan's gate of each file. */
export function lintNamedText(fileName: string, text: string, options: LintOptions = {}): Diagnostic[] {
  const kind = sloFileKind(fileName);
  return kind === undefined ? lint(text, options) : lintSloText(kind, text, options).diagnostics;
}

/** A burn alert or definitions file's decoded bytes linted: each undecodable byte sequence reported too. */
export function lintSloDecoded(kind: SloFileKind, decoded: DecodedFile, options: LintOptions = {}): LintReport {
  const report = lintSloText(kind, decoded.text, options, decoded.problems);
  return { ...report, hidden: { ...report.hidden, error: report.hidden.error + decoded.more } };
}
