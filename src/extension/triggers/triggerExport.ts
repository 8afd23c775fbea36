// Exporting a trigger to a workspace file: the file's path. What goes in it is the canonical trigger
// file (triggerFiles/normalize.ts), written by the triggers-as-code bundle. No vscode import.
import { ENVIRONMENT_WIDE, type Trigger } from '../../api/schemas';

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

/** `<dataset>/<name>.trigger.json`, relative to the chosen folder. */
export function exportRelativePath(dataset: string, trigger: Pick<Trigger, 'id' | 'name'>): string {
  const folder = dataset === ENVIRONMENT_WIDE ? ENVIRONMENT_WIDE : sanitizeFileSegment(dataset, 'dataset');
  return `${folder}/${sanitizeFileSegment(trigger.name, trigger.id)}.trigger.json`;
}
