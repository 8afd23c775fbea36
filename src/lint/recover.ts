// Reading broken JSON: jsonc-parser's error-tolerant visitor, with the value built as its parseTree
// plus getNodeValue would build it, but without their tree of one object per node (about 50 times
// the text in memory). What the linter needs to locate findings is kept in two typed arrays instead:
// every container's children's offsets, one container after another (the index of skim.ts), and per
// container where its children are. Duplicate members are noted on the way. A caller may take the
// elements of a top-level array one by one as they are read (ElementCheck): their values are then not
// kept, nor the indexes of their containers unless the caller asks (memory of the order of one trigger,
// not of the file).
import { createScanner, visit, type JSONVisitor, type ParseErrorCode } from 'jsonc-parser';
import { Int32List } from './int32List';
import type { ContainerIndex, IndexSource } from './skim';

const STRICT_JSON = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false } as const;

export interface RecoveredError {
  error: ParseErrorCode;
  offset: number;
  length: number;
}

/**
 * Hears each element of the top-level array as it is read (`index` in the array, its span), after which its
 * value is not kept; answers whether the indexes of the element's containers are to be kept (to locate
 * what was found in it; they are also kept when a duplicate member lies in it).
 */
export type ElementCheck = (index: number, value: unknown, start: number, end: number) => boolean;

export interface Recovered {
  /** The top-level value; with an ElementCheck, a top-level array holds `undefined` for each element. */
  value: unknown;
  /** Where the first top-level value lies (jsonc-parser reads one value). */
  root?: { offset: number; end: number };
  /** Every container's index. */
  containers: Containers;
  /** The first `limit` errors (one per offset), in document order. */
  errors: RecoveredError[];
  /** Errors past `limit`. */
  moreErrors: number;
  /** Pairs of key offsets: a member JSON.parse ignores, and the next member of its object with its name. */
  duplicates: number[];
  /** Whether the top-level value is an array whose elements went to the ElementCheck. */
  streamed: boolean;
}

/**
 * The children of every container: `children` holds each container's spans (as ContainerIndex.spans)
 * one container after another; per container, numbered in the order they open (so by start offset),
 * `starts` holds its offset, `first` where its spans begin in `children` and `count` their length.
 */
export class Containers {
  readonly starts = new Int32List(1024);
  readonly first = new Int32List(1024);
  readonly count = new Int32List(1024);
  readonly children = new Int32List(1024);

  open(start: number): number {
    this.starts.push(start);
    this.first.push(0);
    this.count.push(0);
    return this.starts.length - 1;
  }

  /** Where the lists end now: `truncate` goes back there, forgetting the containers opened since. */
  mark(): { rows: number; children: number } {
    return { rows: this.starts.length, children: this.children.length };
  }

  truncate(mark: { rows: number; children: number }): void {
    for (const list of [this.starts, this.first, this.count]) list.truncate(mark.rows);
    this.children.truncate(mark.children);
  }

  close(row: number, spans: readonly number[]): void {
    this.first.data[row] = this.children.length;
    this.count.data[row] = spans.length;
    for (const n of spans) this.children.push(n);
  }

  /** The spans of the container starting at `offset`, if one does. */
  spansAt(offset: number): number[] | undefined {
    const starts = this.starts.data;
    let low = 0;
    let high = this.starts.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const s = starts[mid] ?? 0;
      if (s < offset) low = mid + 1;
      else if (s > offset) high = mid - 1;
      else {
        const first = this.first.data[mid] ?? 0;
        return Array.from(this.children.data.subarray(first, first + (this.count.data[mid] ?? 0)));
      }
    }
    return undefined;
  }
}

/** An open object, with the member being read (jsonc-parser's property node) held in place. */
interface ObjectFrame {
  kind: 'object';
  start: number;
  row: number;
  spans: number[];
  value: Record<string, unknown>;
  /** Key to the key offset of its last member with a value; made at the object's first duplicate. */
  lastKeyAt?: Map<string, number>;
  /** Whether a member is being read: its key is in, its value may be. */
  reading: boolean;
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  memberValue: unknown;
}
interface ArrayFrame {
  kind: 'array';
  start: number;
  row: number;
  spans: number[];
  value: unknown[];
}
type Frame = ObjectFrame | ArrayFrame;

/** Reads text that JSON.parse refused. Recursion follows nesting: callers check the depth first (parse.ts). */
export function recover(text: string, limit: number, elements?: ElementCheck): Recovered {
  const reader = new RecoveringReader(text, limit, elements);
  visit(text, reader, STRICT_JSON);
  return reader.recovered();
}

/**
 * The visitor recover passes to jsonc-parser: its on* members are arrows, as the parser calls them as
 * plain functions. They return nothing: a begin callback answering false would make it skip a container.
 */
class RecoveringReader implements JSONVisitor {
  private readonly containers = new Containers();
  private readonly errors: RecoveredError[] = [];
  private readonly duplicates: number[] = [];
  private readonly stack: Frame[] = [];
  private moreErrors = 0;
  private lastErrorOffset = -1;
  private root: { value: unknown; offset: number; end: number } | undefined;
  // With an ElementCheck: the first top-level array, and where the lists stood when its element being read began.
  private rootArray: ArrayFrame | undefined;
  private elementMark = { rows: 0, children: 0, duplicates: 0 };

  constructor(
    private readonly text: string,
    private readonly limit: number,
    private readonly elements: ElementCheck | undefined,
  ) {}

  readonly onObjectBegin = (offset: number): void => {
    this.elementBegins();
    this.stack.push({
      kind: 'object',
      start: offset,
      row: this.containers.open(offset),
      spans: [],
      value: {},
      reading: false,
      key: '',
      keyStart: -1,
      keyEnd: -1,
      valueStart: -1,
      memberValue: undefined,
    });
  };

  readonly onObjectProperty = (key: string, offset: number, length: number): void => {
    const object = this.top();
    if (object?.kind !== 'object') return;
    // jsonc-parser completes a member before it reads the next; should it not, end it here.
    this.completeProperty(offset);
    object.reading = true;
    object.key = key;
    object.keyStart = offset;
    object.keyEnd = offset + length;
    object.valueStart = -1;
  };

  readonly onObjectEnd = (offset: number, length: number): void => {
    // In case of a member without a value.
    this.completeProperty(offset + length);
    this.closeContainer(offset, length);
  };

  readonly onArrayBegin = (offset: number): void => {
    this.elementBegins();
    const frame: ArrayFrame = { kind: 'array', start: offset, row: this.containers.open(offset), spans: [], value: [] };
    if (
      this.elements !== undefined &&
      this.stack.length === 0 &&
      this.root === undefined &&
      this.rootArray === undefined
    )
      this.rootArray = frame;
    this.stack.push(frame);
  };

  private readonly closeContainer = (offset: number, length: number): void => {
    const frame = this.stack.pop();
    if (frame === undefined) return;
    this.containers.close(frame.row, frame.spans);
    this.valueDone(frame.value, frame.start, offset + length);
    this.completeProperty(offset + length);
  };

  readonly onArrayEnd = this.closeContainer;

  readonly onLiteralValue = (value: unknown, offset: number, length: number): void => {
    this.elementBegins();
    this.valueDone(value, offset, offset + length);
    this.completeProperty(offset + length);
  };

  readonly onSeparator = (separator: string, offset: number): void => {
    if (separator === ',') this.completeProperty(offset);
  };

  readonly onError = (error: ParseErrorCode, offset: number, length: number): void => {
    // Recovery often reports several errors at one place (e.g. ] and } expected at the end): the first says it.
    if (offset === this.lastErrorOffset) return;
    this.lastErrorOffset = offset;
    if (this.errors.length < this.limit) this.errors.push({ error, offset, length });
    else this.moreErrors++;
  };

  /** What was read, once the parser is done. */
  recovered(): Recovered {
    const { root, rootArray, containers, errors, moreErrors, duplicates } = this;
    const streamed = rootArray !== undefined && root !== undefined && root.value === rootArray.value;
    const recovered: Recovered = { value: root?.value, containers, errors, moreErrors, duplicates, streamed };
    if (root !== undefined) recovered.root = { offset: root.offset, end: root.end };
    return recovered;
  }

  private top(): Frame | undefined {
    return this.stack[this.stack.length - 1];
  }

  /** An element of the top-level array begins (a container opening in it, or a literal): note where the lists stand. */
  private elementBegins(): void {
    if (this.rootArray !== undefined && this.top() === this.rootArray)
      this.elementMark = { ...this.containers.mark(), duplicates: this.duplicates.length };
  }

  private valueDone(value: unknown, start: number, end: number): void {
    const parent = this.top();
    if (parent === undefined) {
      this.root ??= { value, offset: start, end };
    } else if (parent.kind === 'object') {
      if (!parent.reading) return;
      parent.memberValue = value;
      parent.valueStart = start;
    } else if (this.elements !== undefined && parent === this.rootArray) {
      const keep = this.elements(parent.spans.length / 2, value, start, end);
      parent.value.push(undefined);
      parent.spans.push(start, end);
      if (!keep && this.duplicates.length === this.elementMark.duplicates) this.containers.truncate(this.elementMark);
    } else {
      parent.value.push(value);
      parent.spans.push(start, end);
    }
  }

  // As parseTree's ensurePropertyComplete: a member ends with its value, or (without one) at the next
  // comma or closing brace.
  private completeProperty(end: number): void {
    const object = this.top();
    if (object?.kind !== 'object' || !object.reading) return;
    object.reading = false;
    const { key, keyStart, valueStart, spans } = object;
    spans.push(keyStart, object.keyEnd, valueStart, end);
    if (valueStart < 0) return;
    if (Object.prototype.hasOwnProperty.call(object.value, key)) this.noteDuplicate(object, key, keyStart);
    object.lastKeyAt?.set(key, keyStart);
    // `__proto__` is an ordinary member, as in JSON.parse. (Objects keep their prototype: V8 makes a
    // prototype-less object a slow dictionary from the start, and this builds millions of them.)
    if (key === '__proto__')
      Object.defineProperty(object.value, key, {
        value: object.memberValue,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    else object.value[key] = object.memberValue;
    object.memberValue = undefined;
  }

  /** A member named as one before it in its object: the pair is noted if that one has a value. */
  private noteDuplicate(object: ObjectFrame, key: string, keyStart: number): void {
    const spans = object.spans;
    if (object.lastKeyAt === undefined) {
      object.lastKeyAt = new Map();
      // Every member but the one just added; keys are read again from the text (duplicates are rare).
      for (let i = 0; i + 4 < spans.length; i += 4) {
        if ((spans[i + 2] ?? -1) >= 0)
          object.lastKeyAt.set(keyAt(this.text, spans[i] ?? 0, spans[i + 1] ?? 0), spans[i] ?? 0);
      }
    }
    const earlier = object.lastKeyAt.get(key);
    if (earlier !== undefined) this.duplicates.push(earlier, keyStart);
  }
}

/** The index source of a recovered text: what the parser saw, not a skim (the text is broken). */
export class RecoveredIndex implements IndexSource {
  constructor(
    readonly text: string,
    private readonly containers: Containers,
  ) {}

  index(offset: number, type: 'object' | 'array'): ContainerIndex {
    const spans = this.containers.spansAt(offset) ?? [];
    if (type === 'array') return { spans };
    // Keys are read again from the text, and only for the objects looked into.
    const keys: string[] = [];
    for (let i = 0; i + 3 < spans.length; i += 4) keys.push(keyAt(this.text, spans[i] ?? 0, spans[i + 1] ?? 0));
    return { spans, keys };
  }
}

/** The key whose quoted text lies from `start` to `end`, decoded as jsonc-parser's scanner decodes it (broken escapes too). */
function keyAt(text: string, start: number, end: number): string {
  const quoted = text.slice(start, end);
  let plain = quoted.length > 1 && quoted.endsWith('"') && !quoted.includes('\\');
  // Control characters are errors the scanner reports and keeps; leave such keys to it too.
  for (let i = 0; plain && i < quoted.length; i++) if (quoted.charCodeAt(i) < 0x20) plain = false;
  if (plain) return quoted.slice(1, -1);
  const scanner = createScanner(quoted, true);
  scanner.scan();
  return scanner.getTokenValue();
}
