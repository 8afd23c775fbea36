// A lazy syntax tree: an object's or array's children are found only when asked for, and each
// container is indexed once (its children's offsets in one flat array, its keys in a map), so a
// lookup by key or index costs the same in an object of 5 members as in one of 1,000,000.
// Over valid JSON the index comes from skimming strings and brackets (jsonc-parser builds every
// node, which dominated lint time); over broken JSON it comes from the recovering parser
// (recover.ts), which knows every container's children already.

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

/**
 * Where a container's children lie. Objects: 4 numbers a member (key start, key end, value start or
 * -1 when broken text gave the member no value, member end); arrays: 2 an element (start, end).
 */
export interface ContainerIndex {
  readonly spans: readonly number[];
  /** The members' keys, in order (objects only). */
  readonly keys?: readonly string[];
  /**
   * Indexes the next child; false once every child is in. Absent when the index is complete: a
   * lookup of element 10 in an array of 100,000 then skims 11 elements, not all of them.
   */
  readonly more?: () => boolean;
}

/** Gives the index of the container (object or array) that starts at an offset. */
export interface IndexSource {
  readonly text: string;
  index(offset: number, type: 'object' | 'array'): ContainerIndex;
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The end (exclusive) of the string whose opening quote is at `i`. */
export function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    j = text.indexOf('"', j);
    if (j < 0) return text.length;
    let k = j - 1;
    while (text.charCodeAt(k) === 92 /* \ */) k--;
    // An even number of backslashes before the quote: they escape each other, not the quote.
    if ((j - 1 - k) % 2 === 0) return j + 1;
    j++;
  }
}

/** The end (exclusive) of the value starting at `i` in valid JSON. */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return stringEnd(text, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    let j = i;
    while (j < text.length) {
      const d = text.charCodeAt(j);
      if (d === 34) {
        j = stringEnd(text, j);
        continue;
      }
      if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) return j + 1;
      j++;
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

/** Skims the children of a container in valid JSON text. */
class ValidTextIndex implements IndexSource {
  constructor(readonly text: string) {}

  index(offset: number, type: 'object' | 'array'): ContainerIndex {
    const { text } = this;
    const spans: number[] = [];
    let i = skipSpace(text, offset + 1);
    if (type === 'array') {
      const more = () => {
        if (i >= text.length || text.charCodeAt(i) === 93) return false;
        const end = valueEnd(text, i);
        spans.push(i, end);
        i = skipSpace(text, end);
        if (text.charCodeAt(i) === 44) i = skipSpace(text, i + 1);
        return true;
      };
      return { spans, more };
    }
    const keys: string[] = [];
    const more = () => {
      if (i >= text.length || text.charCodeAt(i) !== 34) return false;
      const keyEnd = stringEnd(text, i);
      const raw = text.slice(i + 1, keyEnd - 1);
      keys.push(raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw);
      const start = skipSpace(text, skipSpace(text, keyEnd) + 1);
      const end = valueEnd(text, start);
      spans.push(i, keyEnd, start, end);
      i = skipSpace(text, end);
      if (text.charCodeAt(i) === 44) i = skipSpace(text, i + 1);
      return true;
    };
    return { spans, keys, more };
  }
}

export class SkimNode implements TreeNode {
  private idx: ContainerIndex | undefined;
  /** Key to the last member with a value (the one JSON.parse keeps). */
  private lastByKey: Map<string, number> | undefined;
  /** Keys given more than once (with a value), and how often. */
  private repeated: Map<string, number> | undefined;
  /** Child nodes made so far, by position. */
  private made: Map<number, SkimNode> | undefined;
  /** For a property: its key and (unless broken text gave none) value nodes. */
  private pair: SkimNode[] | undefined;

  constructor(
    private readonly source: IndexSource,
    readonly type: TreeNode['type'],
    readonly offset: number,
    readonly length: number,
    readonly parent: SkimNode | undefined,
    /** Position among the parent's children (a property's key is 0, its value 1). */
    readonly slot: number,
    readonly value?: unknown,
  ) {}

  private complete = false;

  private width(): number {
    return this.type === 'object' ? 4 : 2;
  }

  /** The index with at least `children` children in (all of them, when there are fewer). */
  private index(children = Infinity): ContainerIndex {
    if (this.idx === undefined) {
      this.idx =
        this.type === 'object' || this.type === 'array' ? this.source.index(this.offset, this.type) : { spans: [] };
      this.complete = this.idx.more === undefined;
    }
    const idx = this.idx;
    const width = this.width();
    while (!this.complete && idx.spans.length < children * width) {
      if (idx.more?.() !== true) this.complete = true;
    }
    return idx;
  }

  /** Members of an object, elements of an array; 0 for anything else. */
  childCount(): number {
    if (this.type !== 'object' && this.type !== 'array') return 0;
    return this.index().spans.length / this.width();
  }

  /** Whether there are more than i children (indexing only that far). */
  private hasChild(i: number): boolean {
    if (!Number.isInteger(i) || i < 0 || (this.type !== 'object' && this.type !== 'array')) return false;
    return this.index(i + 1).spans.length > i * this.width();
  }

  /** Where the i-th child starts (without making its node); the container's own offset past the end. */
  childStart(i: number): number {
    if (!this.hasChild(i)) return this.offset;
    return this.index(i + 1).spans[this.width() * i] ?? this.offset;
  }

  /** The i-th member (a property node) or element. */
  childAt(i: number): SkimNode | undefined {
    if (!this.hasChild(i)) return undefined;
    const made = (this.made ??= new Map());
    let node = made.get(i);
    if (node !== undefined) return node;
    const { spans, keys } = this.index(i + 1);
    const text = this.source.text;
    if (this.type === 'array') {
      const start = spans[2 * i] ?? 0;
      node = new SkimNode(this.source, typeAt(text, start), start, (spans[2 * i + 1] ?? start) - start, this, i);
    } else {
      const keyStart = spans[4 * i] ?? 0;
      const keyEnd = spans[4 * i + 1] ?? keyStart;
      const valueStart = spans[4 * i + 2] ?? -1;
      const end = spans[4 * i + 3] ?? keyEnd;
      const property = new SkimNode(this.source, 'property', keyStart, end - keyStart, this, i);
      property.pair = [new SkimNode(this.source, 'string', keyStart, keyEnd - keyStart, property, 0, keys?.[i])];
      if (valueStart >= 0)
        property.pair.push(
          new SkimNode(this.source, typeAt(text, valueStart), valueStart, end - valueStart, property, 1),
        );
      node = property;
    }
    made.set(i, node);
    return node;
  }

  get children(): SkimNode[] | undefined {
    if (this.type === 'property') return this.pair;
    if (this.type !== 'object' && this.type !== 'array') return undefined;
    const out: SkimNode[] = [];
    const n = this.childCount();
    for (let i = 0; i < n; i++) {
      const child = this.childAt(i);
      if (child !== undefined) out.push(child);
    }
    return out;
  }

  /** A property's value node. */
  valueNode(): SkimNode | undefined {
    return this.type === 'property' ? this.pair?.[1] : undefined;
  }

  private keyIndex(): Map<string, number> {
    if (this.lastByKey !== undefined) return this.lastByKey;
    const last = new Map<string, number>();
    const { spans, keys = [] } = this.index();
    keys.forEach((key, i) => {
      if ((spans[4 * i + 2] ?? -1) < 0) return;
      if (last.has(key)) {
        this.repeated ??= new Map();
        this.repeated.set(key, (this.repeated.get(key) ?? 1) + 1);
      }
      last.set(key, i);
    });
    this.lastByKey = last;
    return last;
  }

  /** The property node of the member JSON.parse keeps for `key` (the last one with a value). */
  member(key: string): SkimNode | undefined {
    if (this.type !== 'object') return undefined;
    const i = this.keyIndex().get(key);
    return i === undefined ? undefined : this.childAt(i);
  }

  /** Offset and length of the member JSON.parse keeps for `key` (key through value), without making its node. */
  memberSpan(key: string): { offset: number; length: number } | undefined {
    if (this.type !== 'object') return undefined;
    const i = this.keyIndex().get(key);
    if (i === undefined) return undefined;
    const { spans } = this.index();
    const offset = spans[4 * i] ?? 0;
    return { offset, length: (spans[4 * i + 3] ?? offset) - offset };
  }

  /** Offset and length of the i-th element of an array, without making its node. */
  elementSpan(i: number): { offset: number; length: number } | undefined {
    if (this.type !== 'array' || !this.hasChild(i)) return undefined;
    const { spans } = this.index(i + 1);
    const offset = spans[2 * i] ?? 0;
    return { offset, length: (spans[2 * i + 1] ?? offset) - offset };
  }

  /** How many members with a value are named `key`. */
  occurrences(key: string): number {
    if (this.type !== 'object') return 0;
    const index = this.keyIndex();
    return index.has(key) ? (this.repeated?.get(key) ?? 1) : 0;
  }

  /** The child whose span holds `offset` (children lie in order, so a binary search finds it). */
  childContaining(offset: number): SkimNode | undefined {
    if (this.type !== 'object' && this.type !== 'array') return undefined;
    const width = this.width();
    // Index just past the offset.
    let idx = this.index(0);
    while (!this.complete && (idx.spans[idx.spans.length - 1] ?? -1) <= offset)
      idx = this.index(idx.spans.length / width + 1);
    const { spans } = idx;
    const n = spans.length / width;
    let low = 0;
    let high = n - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const start = spans[width * mid] ?? 0;
      const end = spans[width * mid + width - 1] ?? start;
      if (offset < start) high = mid - 1;
      else if (offset >= end) low = mid + 1;
      else return this.childAt(mid);
    }
    return undefined;
  }
}

/** The root of a tree over `source`, whose top-level value spans `offset` to `end`. */
export function treeOver(source: IndexSource, offset: number, end: number): SkimNode {
  return new SkimNode(source, typeAt(source.text, offset), offset, end - offset, undefined, 0);
}

/** The root of a lazy tree over valid JSON text (one value, so it ends where the trailing space starts). */
export function skimTree(text: string): SkimNode | undefined {
  const start = skipSpace(text, 0);
  if (start >= text.length) return undefined;
  let end = text.length;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return treeOver(new ValidTextIndex(text), start, end);
}
