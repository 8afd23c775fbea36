import * as z from 'zod';
import type { ErrorBodyShape, FieldProblem } from './errors';

// The three error body shapes of the service-facts note. Told apart by Content-Type first, then by shape,
// because the service is not always consistent about the media type.

// Members are read leniently: a member that is null or of an unexpected type is dropped on its own, so one odd
// member (`"detail": null`, `"source": null`) does not cost the status code, type or field problems of the rest.
const text = z.string().optional().catch(undefined);
const textOrNumber = z.union([z.string(), z.number()]).optional().catch(undefined);
/** Items that are not objects are dropped; the others are read leniently. */
const lenientList = <T extends z.ZodType>(item: T) =>
  z
    .array(z.unknown())
    .optional()
    .catch(undefined)
    .transform((items) =>
      (items ?? []).flatMap((i) => {
        const r = item.safeParse(i);
        return r.success ? [r.data as z.output<T>] : [];
      }),
    );

const LegacyError = z.looseObject({ error: z.string() });

const ProblemDetails = z.looseObject({
  type: text,
  title: text,
  status: textOrNumber,
  error: text,
  detail: text,
  type_detail: lenientList(z.looseObject({ field: text, code: text, description: text })),
});

const JsonApiErrors = z.looseObject({
  errors: z
    .array(
      z.looseObject({
        id: text,
        status: textOrNumber,
        code: text,
        title: text,
        detail: text,
        source: z.looseObject({ pointer: text, header: text, parameter: text }).optional().catch(undefined),
      }),
    )
    .min(1),
});

export type { ErrorBodyShape };

export interface ParsedErrorBody {
  shape: ErrorBodyShape;
  code?: string;
  type?: string;
  title?: string;
  detail?: string;
  fieldProblems: FieldProblem[];
}

/** `/data/attributes/name` -> `data.attributes.name`; `/data/0/id` -> `data[0].id` (RFC 6901 unescaping). */
export function pointerToField(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return formatPath(parts);
}

/** Formats a path of keys and indices as `a.b[0].c`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number' || (typeof part === 'string' && /^\d+$/.test(part))) out += `[${String(part)}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function fromJsonApi(body: z.infer<typeof JsonApiErrors>): ParsedErrorBody {
  const first = body.errors[0];
  const fieldProblems: FieldProblem[] = [];
  for (const e of body.errors) {
    const source = e.source;
    if (source === undefined) continue;
    const message = e.detail ?? e.title ?? 'invalid';
    if (source.pointer !== undefined) {
      fieldProblems.push({ field: pointerToField(source.pointer), code: e.code, message, pointer: source.pointer });
    } else if (source.header !== undefined) {
      fieldProblems.push({ field: `header ${source.header}`, code: e.code, message });
    } else if (source.parameter !== undefined) {
      fieldProblems.push({ field: `parameter ${source.parameter}`, code: e.code, message });
    }
  }
  return { shape: 'json-api', code: first?.code, title: first?.title, detail: first?.detail, fieldProblems };
}

function fromProblem(body: z.infer<typeof ProblemDetails>): ParsedErrorBody {
  const fieldProblems: FieldProblem[] = body.type_detail.map((d) => ({
    field: d.field ?? '',
    code: d.code,
    message: d.description ?? d.code ?? 'invalid',
  }));
  return {
    shape: 'problem',
    type: body.type,
    title: body.title,
    detail: body.detail ?? body.error,
    fieldProblems,
  };
}

/**
 * Parses an error response body. Never throws; an unknown shape yields only `shape`. `scrub` is applied to every
 * string of the body before anything is read from it, so what is derived from a string (a field from a JSON
 * pointer) is derived from the scrubbed text, and a member read later cannot be missed.
 */
export function parseErrorBody(
  contentType: string | undefined,
  text: string,
  scrub: (s: string) => string = (s) => s,
): ParsedErrorBody {
  if (text.trim() === '') return { shape: 'empty', fieldProblems: [] };
  const media = mediaType(contentType);
  const looksJson = media === 'application/json' || media.endsWith('+json') || media === '';
  if (!looksJson) return { shape: 'not-json', fieldProblems: [] };
  let value: unknown;
  try {
    value = scrubStrings(JSON.parse(text), scrub);
  } catch {
    return { shape: 'not-json', fieldProblems: [] };
  }

  const jsonApi = JsonApiErrors.safeParse(value);
  const problem = ProblemDetails.safeParse(value);
  const legacy = LegacyError.safeParse(value);

  // The media type decides first; the shape decides when the media type is generic or does not fit.
  if (media === 'application/vnd.api+json' && jsonApi.success) return fromJsonApi(jsonApi.data);
  if (media === 'application/problem+json' && problem.success) return fromProblem(problem.data);
  if (jsonApi.success) return fromJsonApi(jsonApi.data);
  if (problem.success && isProblemShaped(value)) return fromProblem(problem.data);
  if (legacy.success) return { shape: 'legacy', detail: legacy.data.error, fieldProblems: [] };
  return { shape: 'unrecognised-json', fieldProblems: [] };
}

function isProblemShaped(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return 'type' in value || 'title' in value || 'type_detail' in value || 'detail' in value;
}

/** Applies `scrub` to every string value of a parsed JSON value, in place (no recursion: any depth). Keys are never read out. */
function scrubStrings(value: unknown, scrub: (s: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const member = record[key];
      if (typeof member === 'string') record[key] = scrub(member);
      else pending.push(member);
    }
  }
  return value;
}
