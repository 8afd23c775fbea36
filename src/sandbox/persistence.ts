import { open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod';
import { SandboxData } from './state';

// The `--data FILE` store: validated on load (a corrupt file is refused and left untouched), written
// atomically (temp file in the same directory, fsync, rename) so a crash never leaves half a file.

const DATA_FILE_FORMAT = 'obs-sandbox-data';
const DATA_FILE_VERSION = 1;

const DataFile = z.strictObject({
  format: z.literal(DATA_FILE_FORMAT),
  version: z.literal(DATA_FILE_VERSION),
  data: SandboxData,
});

export type DataFileErrorKind =
  | 'data-file-unreadable'
  | 'data-file-corrupt'
  | 'data-file-unwritable'
  | 'data-file-in-use';

export class DataFileError extends Error {
  override readonly name = 'DataFileError';
  constructor(
    readonly kind: DataFileErrorKind,
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length === 0 ? '(top level)' : issue.path.map(String).join('.');
  return `${where}: ${issue.message}`;
}

/** The data in `file` and the file's text, or undefined when there is no such file. */
async function readDataFile(file: string): Promise<{ data: SandboxData; text: string } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DataFileError('data-file-unreadable', file, `cannot read data file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new DataFileError(
      'data-file-corrupt',
      file,
      `data file ${file} is not valid JSON: ${(err as Error).message}`,
    );
  }
  const result = DataFile.safeParse(parsed);
  if (!result.success) {
    const first = result.error.issues.slice(0, 3).map(describeIssue).join('; ');
    throw new DataFileError('data-file-corrupt', file, `data file ${file} is not sandbox data: ${first}`);
  }
  return { data: result.data.data, text };
}

/** The text of a data file holding `data`. */
function dataFileText(data: SandboxData): string {
  return JSON.stringify({ format: DATA_FILE_FORMAT, version: DATA_FILE_VERSION, data }, null, 1) + '\n';
}

let tempSerial = 0;

/** `.<name>.<pid>.<serial>.tmp` beside the file: the temporary files saveDataFile writes. */
function tempPattern(file: string): RegExp {
  const name = basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\.${name}\\.\\d+\\.\\d+\\.tmp$`);
}

/** Removes the temporary files of `file` that a killed sandbox left behind (call with the file's lock held). */
export async function removeLeftoverTempFiles(file: string): Promise<void> {
  const pattern = tempPattern(file);
  const dir = dirname(file);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (pattern.test(name)) await unlink(join(dir, name)).catch(() => undefined);
  }
}

/** Writes the data atomically: a reader sees the old file or the new one, never a mix. */
export async function saveDataFile(file: string, data: SandboxData): Promise<void> {
  await writeDataFile(file, dataFileText(data));
}

async function writeDataFile(file: string, text: string): Promise<void> {
  tempSerial += 1;
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${tempSerial}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw new DataFileError('data-file-unwritable', file, `cannot write data file ${file}: ${(err as Error).message}`);
  }
}

/**
 * Serialises saves so two writes never race to rename. A save serialises the data once, at once: that
 * text is the snapshot written (no deep copy of the data), and the text last written is kept, so a
 * write whose save fails is undone from it (see `lastSaved`) instead of from a copy made before every write.
 */
export class DataFileStore {
  private chain: Promise<void> = Promise.resolve();
  private saved: string | undefined;

  constructor(readonly file: string) {}

  /** Reads the file (undefined when there is none) and remembers its text as the last saved. */
  async load(): Promise<SandboxData | undefined> {
    const read = await readDataFile(this.file);
    if (read !== undefined) this.saved = read.text;
    return read?.data;
  }

  save(data: SandboxData): Promise<void> {
    const text = dataFileText(data);
    const next = this.chain.then(async () => {
      await writeDataFile(this.file, text);
      this.saved = text;
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** The data as last written to the file (or read from it); undefined before the first. */
  lastSaved(): SandboxData | undefined {
    return this.saved === undefined ? undefined : (JSON.parse(this.saved) as { data: SandboxData }).data;
  }

  flush(): Promise<void> {
    return this.chain;
  }
}
