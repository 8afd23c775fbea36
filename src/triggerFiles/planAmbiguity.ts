// What makes a plan ambiguous, and so an error before anything is written: two file triggers that match one
// service trigger (two files with one id, or a copy kept by name), two file triggers that would create the same
// name in one dataset, and a file in another dataset's folder than its dataset_slug names. Either file could be
// the one meant: each is named with the other, and neither is written. No vscode import.
import type { FileDrift } from './drift';
import type { LocalFile } from './localFiles';
import { datasetFolder } from './paths';

/** Where a file's trigger is: its file and its place in it (-1 for a file of one trigger). */
export const placeKey = (file: string, index: number): string => `${file}\u0000${index}`;

const placeText = (file: string, index: number): string => (index < 0 ? file : `${file}[${index}]`);

/** The folder a file lies in (the last segment before its name), or undefined at the top. */
function parentFolder(file: string): string | undefined {
  const parts = file.split(/[\\/]+/);
  return parts.length > 1 ? parts[parts.length - 2] : undefined;
}

/** Groups of places sharing a key, of two or more. */
function shared(
  entries: readonly { key: string; place: { file: string; index: number } }[],
): { file: string; index: number }[][] {
  const groups = new Map<string, { file: string; index: number }[]>();
  for (const e of entries) {
    const list = groups.get(e.key);
    if (list === undefined) groups.set(e.key, [e.place]);
    else list.push(e.place);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

function add(out: Map<string, string[]>, place: { file: string; index: number }, reason: string): void {
  const key = placeKey(place.file, place.index);
  out.set(key, [...(out.get(key) ?? []), reason]);
}

/** Each place of a group is told where the others are. */
function blame(
  out: Map<string, string[]>,
  group: readonly { file: string; index: number }[],
  says: (others: string) => string,
): void {
  for (const place of group) {
    const others = group.filter((p) => p !== place).map((p) => placeText(p.file, p.index));
    add(out, place, says(others.join(', ')));
  }
}

/**
 * The reasons each file trigger may not be planned for ambiguity, by placeKey. `datasets` are the datasets the
 * plan's files name: a file is in another dataset's folder when its folder is the folder pull makes for one of
 * them (a folder named like a dataset no file names is not recognised).
 */
export function ambiguities(
  files: readonly { file: string; read: LocalFile }[],
  drifts: readonly FileDrift[],
  datasets: ReadonlySet<string>,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const matched: { key: string; place: { file: string; index: number } }[] = [];
  const created: { key: string; place: { file: string; index: number } }[] = [];
  for (const d of drifts) {
    for (const t of d.triggers) {
      const place = { file: d.file, index: t.index };
      if (t.service !== undefined) matched.push({ key: t.service.id, place });
      else if (t.status === 'local-only' && t.draft === true && t.dataset !== undefined && t.name !== undefined)
        created.push({ key: `${t.dataset}\u0000${t.name}`, place });
    }
  }
  for (const group of shared(matched))
    blame(out, group, (others) => `${others} also holds this trigger of the service: keep one file per trigger`);
  for (const group of shared(created))
    blame(
      out,
      group,
      (others) => `${others} also creates a trigger of this name in this dataset: give each its own name`,
    );
  const folders = new Map([...datasets].map((d) => [datasetFolder(d), d]));
  for (const f of files) {
    const folder = parentFolder(f.file);
    const folderDataset = folder === undefined ? undefined : folders.get(folder);
    if (!f.read.ok || folderDataset === undefined) continue;
    for (const t of f.read.triggers) {
      if (t.dataset === undefined || datasetFolder(t.dataset) === folder) continue;
      add(
        out,
        { file: f.file, index: t.index },
        `it lies in the folder of dataset ${folderDataset} but names dataset ${t.dataset}: move the file or correct its dataset_slug`,
      );
    }
  }
  return out;
}
