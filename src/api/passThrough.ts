// A cheaper path for large list responses. zod builds a new object for every element it validates,
// which costs as much as JSON.parse itself on a 10,000-column list. Most elements pass their schema
// unchanged (no default to fill in, no unknown member to strip): for those, a plain check derived from
// the schema says so without copying, and the parsed elements are returned as they are. Whenever an
// element is not certainly unchanged, the whole response goes through zod as before, so what is
// accepted and every error message stay zod's. The check is derived from the schema's definition, so
// it follows the schema as it changes; a construct it does not know means no cheap path at all.
// Like zod's own fast path, the check is compiled (new Function): a per-member closure call would
// cost nearly as much as zod.
import type * as z from 'zod';
import { readTolerantly } from './validation';

/** True only when the value passes the schema and zod's output would equal it. */
export type Check = (value: unknown) => boolean;

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
}
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, unknown>;
  values?: unknown[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Thrown while compiling: the schema holds something the check cannot judge. */
class Unsupported extends Error {}

/** Compiles schemas into one function source: helpers for objects and arrays, expressions for the rest. */
class Compiler {
  private readonly helpers: string[] = [];
  private readonly names = new Map<z.ZodType, string>();
  readonly knownKeys: Set<string>[] = [];

  private lengths(def: Def, x: string): string {
    const parts: string[] = [];
    for (const c of def.checks ?? []) {
      const d = c._zod.def;
      if (d.check === 'min_length' && typeof d.minimum === 'number') parts.push(`${x}.length >= ${d.minimum}`);
      else if (d.check === 'max_length' && typeof d.maximum === 'number') parts.push(`${x}.length <= ${d.maximum}`);
      else throw new Unsupported(d.check);
    }
    return parts.map((p) => ` && ${p}`).join('');
  }

  private literal(v: unknown): string {
    if (v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))
      return JSON.stringify(v);
    throw new Unsupported('literal');
  }

  /** An expression that is true when `x` passes `schema` unchanged. */
  expression(schema: z.ZodType, x: string): string {
    const def = defOf(schema);
    const noChecks = () => {
      if (def.checks?.length) throw new Unsupported(`${def.type} checks`);
    };
    switch (def.type) {
      case 'unknown':
      case 'any':
        noChecks();
        return 'true';
      case 'boolean':
        noChecks();
        return `typeof ${x} === 'boolean'`;
      case 'string':
        return `(typeof ${x} === 'string'${this.lengths(def, x)})`;
      case 'number': {
        const parts = [`typeof ${x} === 'number'`, `Number.isFinite(${x})`];
        for (const c of def.checks ?? []) {
          const d = c._zod.def;
          if (d.check === 'number_format' && d.format === 'safeint') parts.push(`Number.isSafeInteger(${x})`);
          else if ((d.check === 'greater_than' || d.check === 'less_than') && typeof d.value === 'number') {
            parts.push(`${x} ${d.check === 'greater_than' ? '>' : '<'}${d.inclusive === true ? '=' : ''} ${d.value}`);
          } else throw new Unsupported(d.check);
        }
        return `(${parts.join(' && ')})`;
      }
      case 'enum':
        noChecks();
        return `(${
          Object.values(def.entries ?? {})
            .map((v) => `${x} === ${this.literal(v)}`)
            .join(' || ') || 'false'
        })`;
      case 'literal':
        noChecks();
        return `(${(def.values ?? []).map((v) => `${x} === ${this.literal(v)}`).join(' || ') || 'false'})`;
      case 'optional':
        noChecks();
        return `(${x} === undefined || ${this.inner(def, x)})`;
      case 'nullable':
        noChecks();
        return `(${x} === null || ${this.inner(def, x)})`;
      case 'default':
        // A missing value would be filled in: not unchanged.
        noChecks();
        return `(${x} !== undefined && ${this.inner(def, x)})`;
      case 'array':
      case 'object':
        return `${this.helper(schema)}(${x})`;
      default:
        throw new Unsupported(def.type);
    }
  }

  private inner(def: Def, x: string): string {
    if (def.innerType === undefined) throw new Unsupported('no inner type');
    return this.expression(def.innerType, x);
  }

  /** The name of a helper function checking an object or array (one per schema). */
  helper(schema: z.ZodType): string {
    const known = this.names.get(schema);
    if (known !== undefined) return known;
    const name = `h${this.names.size}`;
    this.names.set(schema, name);
    const def = defOf(schema);
    if (def.type === 'array') {
      if (def.element === undefined) throw new Unsupported('array');
      this.helpers.push(
        `function ${name}(a) { if (!Array.isArray(a)${this.lengths(def, 'a')}) return false; for (let i = 0; i < a.length; i++) { const e = a[i]; if (!${this.expression(def.element, 'e')}) return false; } return true; }`,
      );
      return name;
    }
    if (def.checks?.length || def.shape === undefined) throw new Unsupported('object checks');
    // A loose object keeps unknown members as they are; any other drops or refuses them, which changes the value.
    const catchall = def.catchall === undefined ? undefined : defOf(def.catchall).type;
    const keepsUnknown = catchall === 'unknown' || catchall === 'any';
    if (def.catchall !== undefined && !keepsUnknown) throw new Unsupported('catchall');
    const lines = [
      `function ${name}(o) {`,
      `if (typeof o !== 'object' || o === null || Array.isArray(o)) return false;`,
    ];
    Object.entries(def.shape).forEach(([key, member], i) => {
      lines.push(`const m${i} = o[${JSON.stringify(key)}];`, `if (!${this.expression(member, `m${i}`)}) return false;`);
    });
    if (!keepsUnknown) {
      this.knownKeys.push(new Set(Object.keys(def.shape)));
      lines.push(`for (const k in o) if (!known[${this.knownKeys.length - 1}].has(k)) return false;`);
    }
    lines.push('return true; }');
    this.helpers.push(lines.join('\n'));
    return name;
  }

  source(root: string): string {
    return `${this.helpers.join('\n')}\nreturn ${root};`;
  }
}

const cache = new WeakMap<object, Check | null>();

/** The pass-through check of a schema, or undefined when the schema holds something it cannot judge. */
export function passThroughCheck(schema: z.ZodType): Check | undefined {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached ?? undefined;
  let made: Check | undefined;
  try {
    const compiler = new Compiler();
    const root = compiler.helper(schema);
    // Compiled from our own schemas' definitions (keys quoted with JSON.stringify): no outside text.
    made = new Function('known', compiler.source(root))(compiler.knownKeys) as Check;
  } catch {
    // An unknown construct, or a host that forbids compiling code: zod does all the work.
    made = undefined;
  }
  cache.set(schema, made ?? null);
  return made;
}

/**
 * Validates a response: a list whose elements all pass their schema unchanged is returned as parsed
 * (no copy); anything else is read tolerantly by zod (readTolerantly: nulls in optional members dropped).
 */
export function validateResponse<T>(
  schema: z.ZodType<T>,
  value: unknown,
): { success: true; data: T } | { success: false; error: z.ZodError } {
  const def = defOf(schema);
  if (def.type === 'array' && Array.isArray(value)) {
    const list = passThroughCheck(schema);
    if (list?.(value) === true) return { success: true, data: value as T };
  }
  const result = readTolerantly(schema, value);
  return result.success ? { success: true, data: result.data } : { success: false, error: result.error };
}
