// Exporting a trigger to a workspace file: the file's path and what goes in it. No vscode import.
import { ENVIRONMENT_WIDE, TRIGGER_READ_ONLY_MEMBERS, type Trigger } from '../../api/schemas';

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

/**
 * The trigger as a file to edit and send back: read-only members (id, triggered, created_at, updated_at)
 * dropped, and members the service returned as null left out (null is not a value a write accepts).
 * A trigger made with an inline query is listed with both `query` and `query_id`, but a write with
 * both is refused (service facts): the inline query is kept and `query_id` dropped.
 */
export function triggerForExport(trigger: Trigger): Record<string, unknown> {
  const drop = new Set<string>(TRIGGER_READ_ONLY_MEMBERS);
  if (trigger.query !== undefined && trigger.query !== null) drop.add('query_id');
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(trigger)) {
    if (drop.has(key) || value === null || value === undefined) continue;
    out[key] = value;
  }
  return out;
}

export function exportText(trigger: Trigger): string {
  return `${JSON.stringify(triggerForExport(trigger), null, 2)}\n`;
}
