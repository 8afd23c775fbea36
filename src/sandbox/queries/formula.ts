// Formulas over a row's aggregates, e.g. `DIV($failed, $total)`: numbers, `$name` references and the
// functions below, nested freely. Anything else is refused with the reason, at save time.
import type { Outcome } from '../../result';

const FUNCTIONS: Record<string, (args: number[]) => number | null> = {
  DIV: ([a = NaN, b = NaN]) => (b === 0 ? null : a / b),
  MUL: (args) => args.reduce((x, y) => x * y, 1),
  SUM: (args) => args.reduce((x, y) => x + y, 0),
  ADD: (args) => args.reduce((x, y) => x + y, 0),
  SUB: ([a = NaN, b = NaN]) => a - b,
  MIN: (args) => Math.min(...args),
  MAX: (args) => Math.max(...args),
};

type Node =
  | { kind: 'number'; value: number }
  | { kind: 'ref'; name: string }
  | { kind: 'call'; fn: string; args: Node[] };

export function parseFormula(text: string): Outcome<{ node: Node }> {
  let i = 0;
  const skip = () => {
    while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  };
  const parse = (): Node => {
    skip();
    const rest = text.slice(i);
    const num = /^-?\d+(\.\d+)?/.exec(rest);
    if (num) {
      i += num[0].length;
      return { kind: 'number', value: Number(num[0]) };
    }
    const ref = /^\$([A-Za-z_][\w.]*)/.exec(rest);
    if (ref) {
      i += ref[0].length;
      return { kind: 'ref', name: ref[1] ?? '' };
    }
    const fn = /^([A-Z_]+)\s*\(/.exec(rest);
    if (!fn) throw new Error(`unexpected "${rest.slice(0, 12)}" at ${i}`);
    const name = fn[1] ?? '';
    if (FUNCTIONS[name] === undefined) throw new Error(`unknown function ${name}`);
    i += fn[0].length;
    const args: Node[] = [];
    skip();
    if (text[i] === ')') throw new Error(`${name} needs arguments`);
    for (;;) {
      args.push(parse());
      skip();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ')') {
        i++;
        return { kind: 'call', fn: name, args };
      }
      throw new Error(`expected "," or ")" at ${i}`);
    }
  };
  try {
    const node = parse();
    skip();
    if (i !== text.length) return { ok: false, reason: `unexpected "${text.slice(i, i + 12)}" at ${i}` };
    return { ok: true, node };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

export function referencesOf(node: Node): string[] {
  if (node.kind === 'ref') return [node.name];
  if (node.kind === 'call') return node.args.flatMap(referencesOf);
  return [];
}

/** The formula's value over one row; null when a reference has no value or it divides by zero. */
export function evaluateFormula(node: Node, row: Record<string, unknown>): number | null {
  if (node.kind === 'number') return node.value;
  if (node.kind === 'ref') {
    const v = row[node.name];
    return typeof v === 'number' ? v : null;
  }
  const args: number[] = [];
  for (const a of node.args) {
    const v = evaluateFormula(a, row);
    if (v === null) return null;
    args.push(v);
  }
  const out = FUNCTIONS[node.fn]?.(args) ?? null;
  return out === null || !Number.isFinite(out) ? null : Math.round(out * 1e9) / 1e9;
}

export type FormulaNode = Node;
