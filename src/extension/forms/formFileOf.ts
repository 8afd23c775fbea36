// Which workspace file holds a burn alert or a dataset's definitions (the forms' Open as File). A file is found
// by what it holds: a burn alert file by its `id` and `dataset_slug`, a definitions file by its `dataset_slug`;
// never by its name. No vscode import (the forms' bundle holds none of triggers as code, so this reads the files
// itself).
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from '../../api/schemas/slugs';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `__all__` whichever way an environment-wide dataset is written (`all`, as trigger files say it). */
const datasetKey = (slug: string): string => (slug === ENVIRONMENT_WIDE_TRIGGER_SLUG ? ENVIRONMENT_WIDE : slug);

/** A file's text as one JSON object (a byte order mark allowed), or undefined. */
function objectOf(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A file of the workspace and its text, as the editor read it. */
export interface FileText {
  path: string;
  text: string;
}

/**
 * The files holding the burn alert `id` of `dataset` (`all` and `__all__` alike), sorted by path: a file
 * found whatever its name; several when copies of it exist.
 */
export function burnAlertFilesOf(files: readonly FileText[], dataset: string, id: string): string[] {
  const wanted = datasetKey(dataset);
  return files
    .filter((f) => {
      const value = objectOf(f.text);
      return value?.id === id && typeof value.dataset_slug === 'string' && datasetKey(value.dataset_slug) === wanted;
    })
    .map((f) => f.path)
    .sort(byPath);
}

/** The files holding the definitions of `dataset` (a `definitions` map and its `dataset_slug`), sorted by path. */
export function definitionsFilesOf(files: readonly FileText[], dataset: string): string[] {
  return files
    .filter((f) => {
      const value = objectOf(f.text);
      return value?.dataset_slug === dataset && 'definitions' in value;
    })
    .map((f) => f.path)
    .sort(byPath);
}
