// Where a trigger's file lies: `<folder>/<dataset>/<name>.trigger.json`, every segment one safe path
// segment on every platform. No vscode import.
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from '../api/schemas/slugs';

/** The suffix of every file pull and export write. */
export const TRIGGER_FILE_SUFFIX = '.trigger.json';
/** A burn alert file's name ends so (docs/SLO-FILES.md). */
export const BURN_ALERT_FILE_SUFFIX = '.burn-alert.json';
/** A dataset definitions file's name ends so (docs/SLO-FILES.md). */
export const DEFINITIONS_FILE_SUFFIX = '.definitions.json';
/** The environments file's name (docs/ENVIRONMENTS.md). */
export const ENVIRONMENTS_FILE_NAME = 'obs.environments.json';

// Windows refuses these device names as file names, with any extension ("con.x.trigger.json" too),
// so the part before the first dot is checked.
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

function isReserved(segment: string): boolean {
  return RESERVED.test(segment.split('.')[0] ?? '');
}

/** A safe single path segment: letters, digits, '.', '_' and '-' only; never empty, '.' or '..'. */
export function sanitizeFileSegment(name: string, fallback: string, max = 80): string {
  let s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  if (s.length > max) s = s.slice(0, max).replace(/[-.]+$/, '');
  if (s === '' || isReserved(s)) s = fallback === '' ? 'trigger' : sanitizeFileSegment(fallback, 'trigger', max);
  return s;
}

/** The folder of a dataset's trigger files: its slug made safe; `__all__` for environment-wide triggers. */
export function datasetFolder(dataset: string): string {
  return dataset === ENVIRONMENT_WIDE || dataset === ENVIRONMENT_WIDE_TRIGGER_SLUG
    ? ENVIRONMENT_WIDE
    : sanitizeFileSegment(dataset, 'dataset');
}

/** `<name>.trigger.json`; with `withId`, `<name>-<id>.trigger.json` (for a second trigger of the same name). */
export function triggerFileName(trigger: { id: string; name: string }, withId = false): string {
  const base = sanitizeFileSegment(trigger.name, trigger.id);
  if (!withId) return `${base}${TRIGGER_FILE_SUFFIX}`;
  return `${base}-${sanitizeFileSegment(trigger.id, 'id', 40)}${TRIGGER_FILE_SUFFIX}`;
}

/** `<dataset>/<name>.trigger.json`, relative to the folder trigger files are kept in. */
export function triggerRelativePath(dataset: string, trigger: { id: string; name: string }): string {
  return `${datasetFolder(dataset)}/${triggerFileName(trigger)}`;
}

/**
 * A path as a case-insensitive file system sees it (macOS, Windows): two paths with the same key are the
 * same file there. NFKC first (compatibility forms: the ligature "ﬁ" is "fi", full-width letters are
 * ASCII), then case folded by upper- then lower-casing ("ß" and "SS", the Kelvin sign and "k" meet),
 * then NFKC again for what folding composed. Folding more than a file system does only costs a longer
 * file name; folding less would let two triggers share a file, so when in doubt it folds. The names pull
 * makes are ASCII (sanitizeFileSegment); other characters come only from files already on disk.
 */
export function pathKey(path: string): string {
  return path.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}
