import type { z } from 'zod';
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
    const parts = Object.entries(r.data).flatMap(([k, v]) => (v === undefined ? [] : [`${encodeURIComponent(k)}=${encodeURIComponent(v)}`]));
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
