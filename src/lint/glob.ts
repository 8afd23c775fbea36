// A small glob expander for the CLI: `*`, `**`, `?`, `[abc]`, `[!abc]`, `{a,b}`. Node 20 has no
// fs.glob, and the glob libraries at hand ship ESM that breaks in the CJS bundle.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { isAbsolute, join } from 'node:path';

const MAGIC = /[*?[\]{}]/;
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);

export function isGlob(target: string): boolean {
  return MAGIC.test(target);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+^${}()|[\]\\/*?]/g, '\\$&');
}

/** The regular expression of one path segment (no `/` inside). */
function segmentSource(segment: string): string {
  let out = '';
  let i = 0;
  // Wildcards do not match a leading dot, as in shells: `*.json` skips `.hidden.json`.
  if (segment.length > 0 && '*?['.includes(segment.charAt(0))) out += '(?!\\.)';
  while (i < segment.length) {
    const c = segment.charAt(i);
    if (c === '*') {
      out += '[^/]*';
      while (segment.charAt(i) === '*') i++;
      continue;
    }
    if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
      } else {
        let body = segment.slice(i + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        if (negated) body = body.slice(1);
        out += `[${negated ? '^/' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        i = close;
      }
    } else if (c === '{') {
      const close = matchingBrace(segment, i);
      if (close === -1) {
        out += '\\{';
      } else {
        const alternatives = splitTopLevel(segment.slice(i + 1, close));
        out += `(?:${alternatives.map(segmentSource).join('|')})`;
        i = close;
      }
    } else {
      out += escapeRegExp(c);
    }
    i++;
  }
  return out;
}

function matchingBrace(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}') depth--;
    else if (s[i] === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

/** A glob over `/`-separated relative paths as a regular expression matching whole paths. */
export function globToRegExp(glob: string): RegExp {
  const segments = glob.split('/');
  let source = '';
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '**') {
      // Any number of directories (none included), never dot-directories.
      source += last ? '(?:(?!\\.)[^/]*(?:/(?!\\.)[^/]*)*)?' : '(?:(?!\\.)[^/]*/)*';
    } else {
      source += segmentSource(segment) + (last ? '' : '/');
    }
  });
  return new RegExp(`^${source}$`);
}

/** Files under `cwd` matching the glob, sorted; paths keep the glob's static prefix as written. */
export function expandGlob(pattern: string, cwd: string): string[] {
  const normalized = pattern.split('\\').join('/');
  const segments = normalized.split('/');
  const firstMagic = segments.findIndex((s) => MAGIC.test(s));
  const baseSegments = segments.slice(0, firstMagic);
  const rest = segments.slice(firstMagic);
  const base = baseSegments.join('/');
  const baseDir = base === '' ? cwd : isAbsolute(base) ? base : join(cwd, base);
  const matcher = globToRegExp(rest.join('/'));
  const maxDepth = rest.includes('**') ? Infinity : rest.length;
  const found: string[] = [];

  const walk = (dir: string, relative: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // an unreadable directory holds nothing we can lint
    }
    for (const entry of entries) {
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const full = join(dir, entry.name);
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          isFile = statSync(full).isFile();
        } catch {
          isFile = false;
        }
      }
      if (isFile) {
        if (matcher.test(rel)) found.push(base === '' ? rel : `${base.replace(/\/$/, '')}/${rel}`);
      } else if (entry.isDirectory() && depth + 1 < maxDepth && !SKIPPED_DIRECTORIES.has(entry.name)) {
        walk(full, rel, depth + 1);
      }
    }
  };
  walk(baseDir, '', 0);
  return found.sort();
}
