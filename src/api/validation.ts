import type * as z from 'zod';
import { formatPath } from './errorBody';
import type { FieldProblem } from './errors';

/**
 * Zod issues as field problems, one per issue (and one per unknown key), with `a.b[0].c` paths.
 * `prefix` names the thing validated when it is not a body (a path or query parameter).
 */
export function issuesToProblems(issues: readonly z.core.$ZodIssue[], prefix?: string): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const issue of issues) {
    const base = prefix === undefined ? [...issue.path] : [prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ field: formatPath([...base, key]), code: issue.code, message: `unknown field "${key}"` });
      }
      continue;
    }
    out.push({ field: formatPath(base) || '(body)', code: issue.code, message: issue.message });
  }
  return out;
}

/** Collects the problems of a request's parts before it is sent, so one error can list all of them. */
export class RequestChecks {
  readonly problems: FieldProblem[] = [];

  /** Validates a path segment and returns it URL-encoded. */
  segment(name: string, schema: z.ZodType<string>, value: unknown): string {
    const r = schema.safeParse(value);
    if (!r.success) {
      this.problems.push(...issuesToProblems(r.error.issues, name));
      return '';
    }
    return encodeURIComponent(r.data);
  }

  /** Validates query parameters and returns them as `?a=1&b=2`, URL-encoded (absent values left out). */
  query(schema: z.ZodType<Record<string, string | undefined>>, value: Record<string, unknown>): string {
    const r = schema.safeParse(value);
    if (!r.success) {
      this.problems.push(...issuesToProblems(r.error.issues));
      return '';
    }
    const parts = Object.entries(r.data).flatMap(([k, v]) =>
      v === undefined ? [] : [`${encodeURIComponent(k)}=${encodeURIComponent(v)}`],
    );
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  }

  /** Validates a request body; returns the parsed value (undefined when invalid). */
  body<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
    const r = schema.safeParse(value);
    if (!r.success) {
      this.problems.push(...issuesToProblems(r.error.issues));
      return undefined;
    }
    return r.data;
  }

  add(problem: FieldProblem): void {
    this.problems.push(problem);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function valueAtPath(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** A copy of `value` without the object members at `paths` (only the objects on those paths are copied). */
function withoutMembers(value: unknown, paths: readonly (readonly PropertyKey[])[]): unknown {
  const root = Array.isArray(value) ? [...(value as unknown[])] : isObject(value) ? { ...value } : value;
  for (const path of paths) {
    let node: unknown = root;
    for (let i = 0; i < path.length - 1; i++) {
      const container = node as Record<PropertyKey, unknown>;
      const key = path[i] as PropertyKey;
      const child = container[key];
      const copy = Array.isArray(child) ? [...(child as unknown[])] : isObject(child) ? { ...child } : child;
      container[key] = copy;
      node = copy;
    }
    if (isObject(node)) delete (node as Record<PropertyKey, unknown>)[path[path.length - 1] as PropertyKey];
  }
  return root;
}

/**
 * Parses what the service sent, reading `null` in a member the schema does not take null for as absent
 * (service facts: the service sends null where a member is optional; the member's default then applies).
 * A response without such a null costs one parse; only one with them is parsed again, with those members
 * left out of a copy. A null the schema still cannot do without (a required member) fails as missing.
 */
export function readTolerantly<T>(schema: z.ZodType<T>, value: unknown): z.ZodSafeParseResult<T> {
  let current = value;
  let result = schema.safeParse(current);
  for (let round = 0; round < 4 && !result.success; round++) {
    const nulls = result.error.issues
      .filter(
        (issue) =>
          issue.path.length > 0 &&
          valueAtPath(current, issue.path) === null &&
          isObject(valueAtPath(current, issue.path.slice(0, -1))),
      )
      .map((issue) => issue.path);
    if (nulls.length === 0) break;
    current = withoutMembers(current, nulls);
    result = schema.safeParse(current);
  }
  return result;
}
