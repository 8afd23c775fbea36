// What a pull finds in the dataset folders it is about to write: every entry whose name could be a
// trigger file (links, folders and files pull cannot read included, so that nothing at a path is ever
// taken for nothing), and every dataset folder that leads outside the folder pulled into. No vscode import.
import type { PullItem } from './listing';
import { datasetFolder, pathKey, TRIGGER_FILE_SUFFIX } from './paths';
import { PullCancelled } from './pool';
import { within } from './contained';
import { errorMessage, relativeTo, type DirEntry, type PullFileSystem } from './pullFs';

/**
 * Something at a path of the pull folder, relative to it (`api/x.trigger.json`). With `text`, a file pull
 * can compare (a link is read through: `linkTo` is where it leads). With `refused`, something pull must
 * leave alone, and why; a refused dataset folder (a path without `/`) means nothing is written in it.
 */
export interface ExistingFile {
  path: string;
  text?: string;
  /** A link's target, relative to the pull folder. */
  linkTo?: string;
  refused?: string;
}

const join = (...parts: string[]) => parts.filter((p) => p !== '').join('/');

const NO_LINKS = 'it is a link, and links are followed only on a local disk';

/** Why pull may not write in a dataset folder, or undefined. `base` is the pull folder's real path. */
async function folderProblem(
  fs: PullFileSystem,
  root: string,
  folder: string,
  kind: DirEntry['kind'] | undefined,
  base: string | undefined,
): Promise<string | undefined> {
  if (kind === 'file' || kind === 'other') return `${folder} is not a folder`;
  if (fs.realPath === undefined || base === undefined)
    return kind === 'link' ? `the folder ${folder}: ${NO_LINKS}` : undefined;
  const real = await fs.realPath(join(root, folder));
  return within(base, real)
    ? undefined
    : `the folder ${folder} is a link leading outside the folder pulled into (to ${real}); pull writes only inside it`;
}

/** One entry of a dataset folder as pull sees it; undefined when it vanished since it was listed. */
async function entryOf(
  fs: PullFileSystem,
  root: string,
  path: string,
  kind: DirEntry['kind'],
  base: string | undefined,
): Promise<ExistingFile | undefined> {
  if (kind === 'folder') return { path, refused: 'a folder is in the way' };
  if (kind === 'other') return { path, refused: 'it is not a regular file' };
  let linkTo: string | undefined;
  try {
    if (kind === 'link') {
      if (fs.realPath === undefined || base === undefined) return { path, refused: NO_LINKS };
      const real = await fs.realPath(join(root, path));
      if (!within(base, real))
        return { path, refused: `it is a link leading outside the folder pulled into (to ${real})` };
      linkTo = relativeTo(base, real);
    }
    const text = await fs.read(join(root, path));
    if (text !== undefined) return linkTo === undefined ? { path, text } : { path, text, linkTo };
    return kind === 'link' ? { path, refused: 'it is a link to a file that does not exist' } : undefined;
  } catch (err) {
    return { path, refused: `it could not be read (${errorMessage(err)})` };
  }
}

/**
 * Reads what is in each dataset folder under `root` that the items go to: every entry whose name ends
 * in `.trigger.json` in any letter case (on macOS and Windows those are the same files).
 */
export function scanExisting(
  fs: PullFileSystem,
  root: string,
  items: readonly PullItem[],
  signal?: AbortSignal,
): Promise<ExistingFile[]> {
  return scanFolders(
    fs,
    root,
    items.map((i) => datasetFolder(i.dataset)),
    TRIGGER_FILE_SUFFIX,
    signal,
  );
}

/** As scanExisting, for the dataset folders given and files of any kind (`suffix`: `.burn-alert.json`). */
export async function scanFolders(
  fs: PullFileSystem,
  root: string,
  datasetFolders: readonly string[],
  suffix: string,
  signal?: AbortSignal,
): Promise<ExistingFile[]> {
  const folders = [...new Set(datasetFolders)].sort();
  const base = fs.realPath === undefined ? undefined : await fs.realPath(root);
  const kinds = new Map(((await fs.list(root)) ?? []).map((e) => [e.name, e.kind]));
  const out: ExistingFile[] = [];
  for (const folder of folders) {
    if (signal?.aborted === true) throw new PullCancelled();
    const problem = await folderProblem(fs, root, folder, kinds.get(folder), base);
    if (problem !== undefined) {
      out.push({ path: folder, refused: problem });
      continue;
    }
    out.push(...(await entriesIn(fs, root, folder, suffix, base)));
  }
  return out;
}

/** Every entry of `folder` (relative to `root`, '' for root itself) whose name ends in `suffix` in any letter case. */
async function entriesIn(
  fs: PullFileSystem,
  root: string,
  folder: string,
  suffix: string,
  base: string | undefined,
): Promise<ExistingFile[]> {
  const entries = ((await fs.list(join(root, folder))) ?? []).filter((e) => pathKey(e.name).endsWith(suffix));
  const out: ExistingFile[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const found = await entryOf(fs, root, join(folder, e.name), e.kind, base);
    if (found !== undefined) out.push(found);
  }
  return out;
}

/** What lies directly in `root` whose name ends in `suffix` (the definitions files: one per dataset, no folders). */
export async function scanRoot(fs: PullFileSystem, root: string, suffix: string): Promise<ExistingFile[]> {
  const base = fs.realPath === undefined ? undefined : await fs.realPath(root);
  return entriesIn(fs, root, '', suffix, base);
}
