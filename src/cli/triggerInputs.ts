// What drift and plan start from: the trigger files named on the command line, read (regular files only,
// bounded, only inside the current folder once links are resolved), and the service's triggers of the
// datasets they name. No vscode import.
import type { ServiceClient } from '../api/client';
import { errorText } from '../api/errors';
import {
  BURN_ALERT_FILE_SUFFIX,
  DEFINITIONS_FILE_SUFFIX,
  datasetsOfFiles,
  listDatasets,
  PacedPool,
  readTriggerFile,
  ServiceIndex,
  TRIGGER_FILE_SUFFIX,
  type LocalFile,
  type PlanSource,
} from '../triggerFiles';
import { expandPaths } from './files';
import { warn, type MainIo } from './io';
import { READ_AHEAD, readAhead } from './readAhead';
import { decodeStrict, readCommandLineFile, ReadProblem } from './read';
import type { Outcome } from '../result';

/** Why a file of bytes that are not UTF-8 is not read as a trigger file. */
const NOT_UTF8 = 'the file is not UTF-8 (obs lint names the bytes)';

export interface ReadFiles {
  /** Each file's text as read (drift's SARIF locates members in it; plan records its hash). */
  texts: Map<string, string>;
  read: Map<string, LocalFile>;
  /** False when a path matched nothing or a file could not be read (each said on stderr). */
  ok: boolean;
  /** What each path that names nothing says (said on stderr): then no file is read, and the command stops. */
  nothing: string[];
  /** Paths not read because they lie outside the current folder, links resolved (each said on stderr). */
  outside: string[];
  /** Files found that could not be read, with why (each said on stderr): a plan takes them as files that may hold any trigger. */
  unreadable: Map<string, string>;
  /** The files named on their own, not found by a walk: a prune deletes nothing on their account. */
  named: Set<string>;
}

/** What a folder stands for: its trigger files, or (obs plan and apply) its trigger, burn alert and definitions files. */
export type FileKinds = 'triggers' | 'every kind';

/** The files under the paths (default: the current folder), each read once; none outside it. */
export async function readTriggerFiles(
  paths: readonly string[],
  io: MainIo,
  maxBytes: number,
  kinds: FileKinds = 'triggers',
): Promise<ReadFiles> {
  const also = kinds === 'triggers' ? [] : [BURN_ALERT_FILE_SUFFIX, DEFINITIONS_FILE_SUFFIX];
  const {
    files,
    problems,
    nothing,
    outside,
    named,
    unreadable: unwalked,
  } = await expandPaths(paths.length === 0 ? ['.'] : paths, io.cwd, TRIGGER_FILE_SUFFIX, also);
  for (const p of problems) warn(io, p);
  const texts = new Map<string, string>();
  const read = new Map<string, LocalFile>();
  // A path that names nothing stops the command: no file is read.
  if (nothing.length > 0) return { texts, read, ok: false, nothing, outside, unreadable: new Map(), named: new Set() };
  // What the walk could not read is taken as a file that may hold any trigger, as one that could not be read.
  const unreadable = new Map(unwalked.map((u) => [u.path, u.reason]));
  for (const [path, why] of unreadable) warn(io, `cannot read ${path}: ${why}`);
  let ok = problems.length === 0 && unreadable.size === 0;
  const readFile = async (
    file: string,
    admit: (size: number) => Promise<void>,
  ): Promise<Outcome<{ bytes: Uint8Array }, unknown>> => {
    try {
      return { ok: true, bytes: await readCommandLineFile(file, io.cwd, maxBytes, admit) };
    } catch (problem) {
      return { ok: false, reason: problem };
    }
  };
  // Read ahead of their use, each file handled in the order given (readAhead.ts).
  await readAhead(files, READ_AHEAD, readFile, (r, i) => {
    const file = files[i] ?? '';
    if (!r.ok) {
      const why = r.reason instanceof ReadProblem ? r.reason.message : errorText(r.reason);
      warn(io, `cannot read ${file}: ${why}`);
      unreadable.set(file, why);
      ok = false;
      return;
    }
    const text = decodeStrict(r.bytes);
    // Bytes that are not UTF-8 are said, never read with replacement characters (a plan would send those).
    texts.set(file, text ?? new TextDecoder('utf-8', { ignoreBOM: true }).decode(r.bytes));
    read.set(file, text === undefined ? { ok: false, reason: NOT_UTF8 } : readTriggerFile(text));
  });
  return { texts, read, ok, nothing, outside, unreadable, named: new Set(named) };
}

/** The service's triggers of the datasets the files name; false when a list failed (said on stderr). */
export async function serviceIndexFor(
  client: Pick<ServiceClient, 'listTriggers'>,
  files: Iterable<LocalFile>,
  concurrency: number,
  io: MainIo,
): Promise<{ index: ServiceIndex; ok: boolean }> {
  const index = new ServiceIndex();
  let ok = true;
  const listings = await listDatasets(
    client,
    [...datasetsOfFiles(files)].sort(),
    new PacedPool({ concurrency }),
    io.signal,
  );
  for (const [dataset, listing] of listings) {
    index.add(dataset, listing);
    if (listing.state === 'failed') {
      ok = false;
      warn(io, `could not list the triggers of ${dataset}: ${listing.message}`);
    }
  }
  return { index, ok };
}

/**
 * The files as the plan pipeline takes them: a file that is not UTF-8 goes in without its text (a plan would
 * send replacement characters), and so does a file that could not be read: either may hold a trigger, so the
 * plan withholds its deletes.
 */
export function sourcesOf(files: Pick<ReadFiles, 'texts' | 'read' | 'unreadable' | 'named'>): PlanSource[] {
  const named = (file: string) => (files.named.has(file) ? { named: true } : {});
  const read = [...files.read].map(
    ([file, r]): PlanSource =>
      !r.ok && r.reason === NOT_UTF8
        ? { file, text: undefined, problem: r.reason, ...named(file) }
        : { file, text: files.texts.get(file) ?? '', ...named(file) },
  );
  const unread = [...files.unreadable].map(
    ([file, why]): PlanSource => ({ file, text: undefined, problem: `it could not be read (${why})`, ...named(file) }),
  );
  return [...read, ...unread];
}
