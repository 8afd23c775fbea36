import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod';
import { SandboxData } from './state';

// The `--data FILE` store: validated on load (a corrupt file is refused and left untouched), written
// atomically (temp file in the same directory, fsync, rename) so a crash never leaves half a file.

export const DATA_FILE_FORMAT = 'obs-sandbox-data';
export const DATA_FILE_VERSION = 1;

const DataFile = z.strictObject({
  format: z.literal(DATA_FILE_FORMAT),
  version: z.literal(DATA_FILE_VERSION),
  data: SandboxData,
});

export type DataFileErrorKind = 'data-file-unreadable' | 'data-file-corrupt' | 'data-file-unwritable';

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

/** The data in `file`, or undefined when there is no such file. */
export async function loadDataFile(file: string): Promise<SandboxData | undefined> {
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
    throw new DataFileError('data-file-corrupt', file, `data file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const result = DataFile.safeParse(parsed);
  if (!result.success) {
    const first = result.error.issues.slice(0, 3).map(describeIssue).join('; ');
    throw new DataFileError('data-file-corrupt', file, `data file ${file} is not sandbox data: ${first}`);
  }
  return result.data.data;
}

let tempSerial = 0;

/** Writes the data atomically: a reader sees the old file or the new one, never a mix. */
export async function saveDataFile(file: string, data: SandboxData): Promise<void> {
  tempSerial += 1;
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${tempSerial}.tmp`);
  const text = JSON.stringify({ format: DATA_FILE_FORMAT, version: DATA_FILE_VERSION, data }, null, 1) + '\n';
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

/** Serialises saves so two writes never race to rename. */
export class DataFileStore {
  private chain: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  save(data: SandboxData): Promise<void> {
    const snapshot = JSON.parse(JSON.stringify(data)) as SandboxData;
    const next = this.chain.then(() => saveDataFile(this.file, snapshot));
    this.chain = next.catch(() => undefined);
    return next;
  }

  flush(): Promise<void> {
    return this.chain;
  }
}
