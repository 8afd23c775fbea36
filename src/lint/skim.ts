// A lazy syntax tree over valid JSON: an object's or array's children are found only when asked
// for, by skimming strings and brackets. Locating a few findings in a file of thousands of triggers
// then costs a skim, not a full tree (jsonc-parser builds every node, which dominated lint time).
// Only for text JSON.parse accepted; broken text goes through jsonc-parser's recovering parser.

/** The node shape the linter reads; jsonc-parser's Node has it too. */
export interface TreeNode {
  readonly type: 'object' | 'array' | 'property' | 'string' | 'number' | 'boolean' | 'null';
  readonly offset: number;
  readonly length: number;
  readonly parent?: TreeNode | undefined;
  readonly children?: TreeNode[] | undefined;
  /** For strings: the value (so a property's key node holds the key). */
  readonly value?: unknown;
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The end (exclusive) of the string whose opening quote is at `i`. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 92 /* \ */) j++;
    else if (c === 34 /* " */) return j + 1;
  }
  return text.length;
}

/** The end (exclusive) of the value starting at `i`. */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return stringEnd(text, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 34) j = stringEnd(text, j) - 1;
      else if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) return j + 1;
    }
    return text.length;
  }
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === 44 || d === 125 || d === 93 || isSpace(d)) break;
    j++;
  }
  return j;
}

function typeAt(text: string, i: number): TreeNode['type'] {
  switch (text.charCodeAt(i)) {
    case 123:
      return 'object';
    case 91:
      return 'array';
    case 34:
      return 'string';
    case 116:
    case 102:
      return 'boolean';
    case 110:
      return 'null';
    default:
      return 'number';
  }
}

class SkimNode implements TreeNode {
  private kids: SkimNode[] | undefined;
  /** For a property: its key and value nodes. */
  private pair: [SkimNode, SkimNode] | undefined;

  constructor(
    private readonly text: string,
    readonly type: TreeNode['type'],
    readonly offset: number,
    readonly length: number,
    readonly parent: SkimNode | undefined,
    readonly value?: unknown,
  ) {}

  get children(): SkimNode[] | undefined {
    if (this.type === 'property') return this.pair;
    if (this.type !== 'object' && this.type !== 'array') return undefined;
    this.kids ??= this.type === 'object' ? this.members() : this.elements();
    return this.kids;
  }

  private elements(): SkimNode[] {
    const text = this.text;
    const out: SkimNode[] = [];
    let i = skipSpace(text, this.offset + 1);
    while (i < text.length && text.charCodeAt(i) !== 93) {
      const end = valueEnd(text, i);
      out.push(value(text, i, end, this));
      i = skipSpace(text, end);
      if (text.charCodeAt(i) === 44) i = skipSpace(text, i + 1);
    }
    return out;
  }

  private members(): SkimNode[] {
    const text = this.text;
    const out: SkimNode[] = [];
    let i = skipSpace(text, this.offset + 1);
    while (i < text.length && text.charCodeAt(i) === 34) {
      const keyEnd = stringEnd(text, i);
      const raw = text.slice(i + 1, keyEnd - 1);
      const key = raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
      const start = skipSpace(text, skipSpace(text, keyEnd) + 1);
      const end = valueEnd(text, start);
      const property = new SkimNode(text, 'property', i, end - i, this);
      const keyNode = new SkimNode(text, 'string', i, keyEnd - i, property, key);
      property.pair = [keyNode, value(text, start, end, property)];
      out.push(property);
      i = skipSpace(text, end);
      if (text.charCodeAt(i) === 44) i = skipSpace(text, i + 1);
    }
    return out;
  }
}

function value(text: string, start: number, end: number, parent: SkimNode | undefined): SkimNode {
  return new SkimNode(text, typeAt(text, start), start, end - start, parent);
}

/** The root of a lazy tree over valid JSON text. */
export function skimTree(text: string): TreeNode | undefined {
  const start = skipSpace(text, 0);
  if (start >= text.length) return undefined;
  return value(text, start, valueEnd(text, start), undefined);
}
