// How deeply a trigger nests. normalize, compare and JSON.stringify recurse once per level, so a value
// nested thousands of levels deep (which JSON.parse accepts) would overflow the stack and stop a whole
// pull or drift check. Every trigger is measured here first, without recursion, and one nested deeper
// than MAX_NESTING is left out with a reason, so the others go on. No vscode import.

/**
 * The deepest nesting a trigger may have: the trigger object is level 1, its query 2, a filter's value
 * array 7. Real triggers stay under 10; this leaves room for any list value a filter can hold.
 */
export const MAX_NESTING = 64;

/** Whether `value` holds objects or arrays nested more than `max` levels deep (measured with a stack of its own). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, depth] = next;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(v))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** Why a trigger cannot be written or compared, or undefined when it can: the top-level member nested too deep. */
export function nestingProblem(trigger: unknown, whose: string): string | undefined {
  if (!nestedDeeperThan(trigger, MAX_NESTING)) return undefined;
  const where =
    typeof trigger === 'object' && trigger !== null
      ? Object.entries(trigger).find(([, v]) => nestedDeeperThan(v, MAX_NESTING - 1))?.[0]
      : undefined;
  const member = where === undefined ? '' : ` (in ${where})`;
  return `${whose} is nested more than ${MAX_NESTING} levels deep${member}; trigger files hold at most ${MAX_NESTING} levels`;
}

/** Thrown by normalize() when handed a trigger nested too deep (callers check nestingProblem first). */
export class TriggerTooDeep extends Error {
  readonly kind = 'too-deep';
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'TriggerTooDeep';
  }
}

/**
 * Whether a JSON text nests objects or arrays more than `max` levels deep, read in one pass over its
 * characters (strings skipped), for callers that would hand the text to a recursive parser.
 */
export function textNestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
