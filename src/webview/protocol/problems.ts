// Where a problem belongs on a form: a zod issue path, a service field name or a JSON:API pointer is
// resolved to the id of the form field it names; anything that names no field is shown at the top.
// No vscode import: the webview scripts use this module too.
import type { z } from 'zod';
import { wordFor, type FormWording } from './wording';

export type PathSegment = string | number;

/** Problems as a form shows them: per field id, and form-wide. */
export interface FormProblems {
  fields: Record<string, string[]>;
  form: string[];
}

export function noProblems(): FormProblems {
  return { fields: {}, form: [] };
}

export function hasProblems(p: FormProblems): boolean {
  return p.form.length > 0 || Object.values(p.fields).some((list) => list.length > 0);
}

/**
 * Splits a JSON pointer (`/data/attributes/name`) or a dotted path (`recipients[0].id`,
 * `data.attributes.name`) into segments; array indexes become numbers.
 */
export function pathSegments(text: string): PathSegment[] {
  if (text.startsWith('/')) {
    return text
      .slice(1)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  }
  const out: PathSegment[] = [];
  for (const part of text.split('.')) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) {
      out.push(part);
      continue;
    }
    if (match[1]) out.push(match[1]);
    for (const index of (match[2] ?? '').matchAll(/\[(\d+)\]/g)) out.push(Number(index[1]));
  }
  return out.filter((s) => s !== '');
}

export type FieldResolver = (segments: readonly PathSegment[]) => string | undefined;

/**
 * A resolver from a table of dotted request paths (array indexes left out) to field ids. A path
 * resolves to the longest entry it starts with; a bare name the service reports (`name` for
 * `data.attributes.name`) resolves to the entry it ends.
 */
export function tableResolver(table: Readonly<Record<string, string>>): FieldResolver {
  const keys = Object.keys(table).sort((a, b) => b.length - a.length);
  return (segments) => {
    const names = segments.filter((s): s is string => typeof s === 'string');
    if (names.length === 0) return undefined;
    const path = names.join('.');
    for (const key of keys) {
      if (path === key || path.startsWith(`${key}.`)) return table[key];
    }
    // A shorter name than the request path, e.g. `permissions.create_datasets` or `name`.
    for (let i = names.length; i > 0; i--) {
      const head = names.slice(0, i).join('.');
      const key = keys.find((k) => k.endsWith(`.${head}`));
      if (key !== undefined) return table[key];
    }
    return undefined;
  };
}

function add(problems: FormProblems, field: string | undefined, message: string): void {
  if (field === undefined) {
    if (!problems.form.includes(message)) problems.form.push(message);
    return;
  }
  const list = (problems.fields[field] ??= []);
  if (!list.includes(message)) list.push(message);
}

/**
 * Places every issue of a failed zod parse on the field its path names, in the form's words (the
 * field's label and what is wrong); an issue that names no field keeps the schema's message.
 */
export function problemsFromZod(error: z.ZodError, resolve: FieldResolver, wording: FormWording): FormProblems {
  const problems = noProblems();
  for (const issue of error.issues) {
    const field = resolve(issue.path.filter(isSegment));
    add(problems, field, field === undefined ? issue.message : wordFor(wording, issue, field));
  }
  return problems;
}

function isSegment(s: PropertyKey): s is PathSegment {
  return typeof s === 'string' || typeof s === 'number';
}

/** The parts of a ServiceError (src/api/errors.ts) a form needs; structural, so tests can build one. */
export interface ServiceFailure {
  kind: string;
  message: string;
  status?: number | undefined;
  title?: string | undefined;
  detail?: string | undefined;
  fieldProblems: readonly { field: string; message: string; pointer?: string | undefined; code?: string | undefined }[];
}

export function isServiceFailure(e: unknown): e is ServiceFailure {
  if (typeof e !== 'object' || e === null) return false;
  const r = e as Record<string, unknown>;
  return typeof r.kind === 'string' && typeof r.message === 'string' && Array.isArray(r.fieldProblems);
}

/**
 * Field details of a failed request land on the field they name (pointer first, then field name);
 * the error's own message goes to the top, so the user always learns what the service said.
 */
export function problemsFromFailure(error: ServiceFailure, resolve: FieldResolver): FormProblems {
  const problems = noProblems();
  let placed = 0;
  for (const fp of error.fieldProblems) {
    const field =
      resolve(pathSegments(fp.pointer ?? fp.field)) ?? (fp.pointer ? resolve(pathSegments(fp.field)) : undefined);
    if (field !== undefined) placed++;
    add(problems, field, fp.message);
  }
  // When every field problem sits on its field, the summary lists them, one each: nothing more is counted.
  if (placed < error.fieldProblems.length || placed === 0) add(problems, undefined, error.message);
  return problems;
}

/** Problems from anything thrown: a service failure, or an unexpected error shown by its message. */
export function problemsFromThrown(error: unknown, resolve: FieldResolver): FormProblems {
  if (isServiceFailure(error)) return problemsFromFailure(error, resolve);
  const problems = noProblems();
  add(problems, undefined, error instanceof Error ? error.message : String(error));
  return problems;
}

export function formProblem(message: string): FormProblems {
  return { fields: {}, form: [message] };
}
