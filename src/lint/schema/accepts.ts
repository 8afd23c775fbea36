// A fast "does zod accept this?" for the schemas the linter checks with. Most triggers in a file are
// valid, and for them zod's parse is mostly work whose result is thrown away: a copy of every object
// and array, a payload per node. This predicate walks the same schema definitions (`_zod.def`) and
// runs zod's own checks (`_zod.check`: lengths, bounds, patterns, refinements) on the values, without
// copying anything. It answers true only where zod's parse has no issue and its output equals the
// input member for member (so a refinement sees the same trigger); a schema kind it does not model
// (a default, a transform, a pipe, a coercion, a rewriting check...) makes it answer false. A false
// answer costs nothing but the full parse that follows (findings.ts): the findings never depend on it.
// test/unit/lint-accepts.test.ts holds it to zod's answer over the fuzz corpus and the fixtures.
import * as z from 'zod';
import { util } from 'zod/v4/core';

type Schema = z.core.$ZodType;
type Check = z.core.$ZodCheck;
/** Whether zod's parse of a value would raise no issue. */
export type Accepts = (value: unknown) => boolean;

interface Probe {
  value: unknown;
  issues: unknown[];
}

/** A schema kind not modelled here: zod is asked instead (by the caller), so the answer is false. */
const NOT_MODELLED: Accepts = () => false;

const traitOf = (schema: Schema, trait: string): boolean => schema._zod.traits.has(trait);

/** The checks zod runs after a schema's parse, in its order (a schema that is itself a check comes first). */
function checksOf(schema: Schema): Check[] {
  const own = (schema._zod.def.checks ?? []) as Check[];
  const all = traitOf(schema, '$ZodCheck') ? [schema as unknown as Check, ...own] : own;
  // describe() and meta() attach no-op checks: skipping them changes nothing.
  return all.filter((c) => c._zod.def.check !== 'describe' && c._zod.def.check !== 'meta');
}

/** The probe zod's checks are run on: one for all (a check runs to its end before the next starts). */
const probe: Probe = { value: undefined, issues: [] };

/** The `when` zod gives a length check (run it on a value with a length): always true on a string or array. */
const LENGTH_WHEN = (z.string().min(1)._zod.def.checks?.[0]?._zod.def.when as unknown) ?? null;

/** zod's check on the probe, as zod's runChecks runs it on a value with no issue yet: true when it raises none. */
function zodCheck(check: Check, when: ((p: Probe) => boolean) | undefined): Accepts {
  const run = check._zod.check.bind(check._zod) as (p: Probe) => unknown;
  return (value) => {
    probe.value = value;
    if (when !== undefined && !when(probe)) return true;
    // A check that answers later (a Promise) is zod's to judge.
    if (run(probe) instanceof Promise || probe.issues.length > 0) {
      probe.issues = [];
      return false;
    }
    return true;
  };
}

type Def = Record<string, unknown>;

/**
 * The answer of the commonest checks (lengths, bounds, whole numbers, multiples, patterns), computed as
 * zod's own code computes it (its helpers for code points and remainders), without a probe: undefined for
 * any other check, or one that runs only `when` something holds.
 */
function plainCheck(check: Check, def: Def): Accepts | undefined {
  const is = (trait: string) => (check._zod as { traits?: Set<string> }).traits?.has(trait) === true;
  if (is('$ZodCheckMinLength') && typeof def.minimum === 'number') {
    const min = def.minimum;
    return (v) => {
      const units = (v as { length: number }).length;
      return (typeof v === 'string' && units >= min && units < min * 2 ? util.codePointLength(v) : units) >= min;
    };
  }
  if (is('$ZodCheckMaxLength') && typeof def.maximum === 'number') {
    const max = def.maximum;
    return (v) => {
      const units = (v as { length: number }).length;
      return (typeof v === 'string' && units > max ? util.codePointLength(v) : units) <= max;
    };
  }
  if ((is('$ZodCheckGreaterThan') || is('$ZodCheckLessThan')) && typeof def.value === 'number') {
    const bound = def.value;
    if (is('$ZodCheckGreaterThan'))
      return def.inclusive === true ? (v) => (v as number) >= bound : (v) => (v as number) > bound;
    return def.inclusive === true ? (v) => (v as number) <= bound : (v) => (v as number) < bound;
  }
  if (
    is('$ZodCheckNumberFormat') &&
    typeof def.format === 'string' &&
    Object.hasOwn(util.NUMBER_FORMAT_RANGES, def.format)
  ) {
    const [min, max] = util.NUMBER_FORMAT_RANGES[def.format as keyof typeof util.NUMBER_FORMAT_RANGES];
    const int = def.format.includes('int');
    return (v) => (!int || Number.isSafeInteger(v)) && (v as number) >= min && (v as number) <= max;
  }
  if (is('$ZodCheckMultipleOf') && typeof def.value === 'number') {
    const step = def.value;
    return (v) => typeof v === 'number' && util.floatSafeRemainder(v, step) === 0;
  }
  if (is('$ZodCheckRegex') && def.pattern instanceof RegExp) {
    const pattern = def.pattern;
    return (v) => {
      pattern.lastIndex = 0;
      return pattern.test(v as string);
    };
  }
  return undefined;
}

/** Checks as one predicate, in zod's order: true when none raises an issue. */
function checksPass(checks: readonly Check[], hasLength: boolean): Accepts {
  const each = checks.map((c) => {
    const def = c._zod.def as unknown as Def;
    // A length check's `when` (a value with a length) always holds on a string or an array.
    const when = hasLength && def.when === LENGTH_WHEN ? undefined : (def.when as ((p: Probe) => boolean) | undefined);
    return (when === undefined ? plainCheck(c, def) : undefined) ?? zodCheck(c, when);
  });
  return (value) => {
    for (const passes of each) if (!passes(value)) return false;
    return true;
  };
}

/** A check that rewrites the value (trim, toLowerCase) makes the next checks see another value: not modelled. */
const rewrites = (checks: readonly Check[]): boolean => checks.some((c) => c._zod.def.check === 'overwrite');

/** The predicate of a schema; `made` keeps each schema's once (shared member schemas, recursion). */
export function acceptsOf(schema: Schema, made = new Map<Schema, Accepts>()): Accepts {
  const known = made.get(schema);
  if (known !== undefined) return known;
  // A recursive schema reaches itself before its predicate is made: the cell answers once it is.
  let cell: Accepts = () => false;
  made.set(schema, (v) => cell(v));
  const checks = checksOf(schema);
  const parse = rewrites(checks) ? NOT_MODELLED : parserOf(schema, made);
  const type = schema._zod.def.type;
  const passes = checks.length === 0 ? undefined : checksPass(checks, type === 'string' || type === 'array');
  cell = passes === undefined ? parse : (v) => parse(v) && passes(v);
  made.set(schema, cell);
  return cell;
}

/** What zod's `_zod.parse` of the schema accepts, before its checks. */
function parserOf(schema: Schema, made: Map<Schema, Accepts>): Accepts {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  if (def.coerce === true) return NOT_MODELLED;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'unknown':
    case 'any':
      return () => true;
    case 'never':
      return () => false;
    case 'enum':
    case 'literal': {
      const values = schema._zod.values;
      return values === undefined ? NOT_MODELLED : (v) => values.has(v as never);
    }
    case 'optional':
      return optionalOf(schema, def, made);
    case 'nullable': {
      const inner = acceptsOf(def.innerType as Schema, made);
      return (v) => v === null || inner(v);
    }
    case 'array':
      return arrayOf(def, made);
    case 'union':
      return unionOf(schema, def, made);
    case 'object':
      return objectOf(def, made);
    default:
      return NOT_MODELLED;
  }
}

function optionalOf(schema: Schema, def: Record<string, unknown>, made: Map<Schema, Accepts>): Accepts {
  const innerSchema = def.innerType as Schema;
  const inner = acceptsOf(innerSchema, made);
  // exactOptional hands undefined to its inner schema; a defaulted inner substitutes a value for it.
  if (traitOf(schema, '$ZodExactOptional')) return inner;
  if (innerSchema._zod.optin === 'defaulted') return NOT_MODELLED;
  return (v) => v === undefined || inner(v);
}

function arrayOf(def: Record<string, unknown>, made: Map<Schema, Accepts>): Accepts {
  const element = acceptsOf(def.element as Schema, made);
  return (v) => {
    if (!Array.isArray(v)) return false;
    for (const e of v as unknown[]) if (!element(e)) return false;
    return true;
  };
}

function unionOf(schema: Schema, def: Record<string, unknown>, made: Map<Schema, Accepts>): Accepts {
  // Exclusive and discriminated unions answer by other rules than "any option passes".
  if (!traitOf(schema, '$ZodUnion') || traitOf(schema, '$ZodXor') || traitOf(schema, '$ZodDiscriminatedUnion'))
    return NOT_MODELLED;
  const options = (def.options as Schema[]).map((o) => acceptsOf(o, made));
  return (v) => options.some((accepts) => accepts(v));
}

function objectOf(def: Record<string, unknown>, made: Map<Schema, Accepts>): Accepts {
  const shape = def.shape as Record<string, Schema>;
  const keys = Object.keys(shape);
  // Symbol keys and a declared __proto__ follow rules of their own: such an object is left to zod.
  if (Object.getOwnPropertySymbols(shape).length > 0 || keys.includes('__proto__')) return () => false;
  const plan = objectPlan(shape, keys, def.catchall as Schema | undefined, made);
  const general = generalObject(plan);
  const parsed = parsedObject(plan);
  // A member name Object.prototype also has ("constructor") is found by `in` on every object.
  const inherited = keys.some((k) => k in Object.prototype);
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const input = v as Record<string, unknown>;
    return !inherited && Object.getPrototypeOf(input) === Object.prototype && !prototypeEnumerates()
      ? parsed(input)
      : general(input);
  };
}

interface Member {
  key: string;
  /** A member zod lets be absent without a word: an optional that is optional on both sides. */
  absentOk: boolean;
  accepts: Accepts;
}

/** An object schema's members and catchall, as its predicates read them. */
interface ObjectPlan {
  members: Member[];
  keySet: Set<string>;
  byKey: Map<string, Member>;
  /** How many members must be present. */
  required: number;
  /** Whether keys other than the members are looked at (a catchall is declared). */
  hasCatchall: boolean;
  /** A catchall of never: any other key is refused. */
  strict: boolean;
  /** What other keys' values must pass, when the catchall is neither absent nor never. */
  extra: Accepts | undefined;
}

function objectPlan(
  shape: Record<string, Schema>,
  keys: string[],
  catchall: Schema | undefined,
  made: Map<Schema, Accepts>,
): ObjectPlan {
  const members = keys.map((key): Member => {
    const s = shape[key] as Schema;
    return { key, absentOk: s._zod.optin === 'optional' && s._zod.optout === 'optional', accepts: acceptsOf(s, made) };
  });
  const strict = catchall !== undefined && catchall._zod.def.type === 'never';
  return {
    members,
    keySet: new Set(keys),
    byKey: new Map(members.map((m) => [m.key, m])),
    required: members.filter((m) => !m.absentOk).length,
    hasCatchall: catchall !== undefined,
    strict,
    extra: catchall === undefined || strict ? undefined : acceptsOf(catchall, made),
  };
}

// The two predicates below read the plan's parts as their own constants (not through the plan) for speed.

/** zod's way: each member by `in`, then every enumerable key (own or inherited) for the catchall. */
function generalObject({
  members,
  keySet,
  hasCatchall,
  strict,
  extra,
}: ObjectPlan): (input: Record<string, unknown>) => boolean {
  return (input) => {
    for (const m of members) {
      if (!(m.key in input)) {
        if (!m.absentOk) return false;
      } else if (!m.accepts(input[m.key])) {
        return false;
      }
    }
    if (!hasCatchall) return true;
    for (const key in input) {
      if (keySet.has(key)) continue;
      if (strict) return false;
      if (key !== '__proto__' && extra !== undefined && !extra(input[key])) return false;
    }
    return true;
  };
}

/**
 * The same answer for an object as JSON.parse makes them (own, enumerable members; the ordinary
 * prototype, which adds none): one pass over its own keys.
 */
function parsedObject({ byKey, required, strict, extra }: ObjectPlan): (input: Record<string, unknown>) => boolean {
  return (input) => {
    let seen = 0;
    for (const key of Object.keys(input)) {
      const m = byKey.get(key);
      if (m === undefined) {
        if (strict) return false;
        if (key !== '__proto__' && extra !== undefined && !extra(input[key])) return false;
        continue;
      }
      if (!m.accepts(input[key])) return false;
      if (!m.absentOk) seen++;
    }
    return seen === required;
  };
}

/** Whether Object.prototype has an enumerable member (then every object has it for zod's catchall). */
function prototypeEnumerates(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}
