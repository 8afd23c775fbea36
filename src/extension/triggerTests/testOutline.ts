// What the Test Explorer shows of a trigger test file: its expectations by name with where each lies in the
// text (so the editor's gutter shows its result), the trigger it names, and, for a file that is not valid,
// each problem where it is. Read from any text, also a broken one: the items stay while the file is edited.
// No vscode import.
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { parseTestFile, type TriggerTestFile } from '../../backtest';

interface ExpectationOutline {
  /** Unique in the file: the name, or for a second expectation of the same name the name and its place. */
  id: string;
  name: string;
  index: number;
  /** The expectation's object in the text: [start, end). */
  start: number;
  end: number;
}

export interface TestOutline {
  expectations: ExpectationOutline[];
  /** The `trigger` member, when it is a string. */
  trigger: string | undefined;
  /** The file as the engine reads it, when it is valid. */
  file: TriggerTestFile | undefined;
  problems: { message: string; start: number; end: number }[];
}

/** The ids of a file's expectations, by their names in order: a repeated name gets its place added. */
function expectationIds(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name, i) => {
    const id = seen.has(name) ? `${name}\u0000${i}` : name;
    seen.add(name);
    return id;
  });
}

export function outlineTestFile(text: string): TestOutline {
  const root = parseTree(text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text, [], { allowTrailingComma: false });
  const list = root ? findNodeAtLocation(root, ['expectations']) : undefined;
  const elements = list?.type === 'array' ? (list.children ?? []) : [];
  const named = elements.map((node, index) => ({ node, index, name: nameOf(node) }));
  const ids = expectationIds(named.map((e) => e.name));
  const expectations = named.map((e, i) => ({
    id: ids[i] ?? e.name,
    name: e.name,
    index: e.index,
    start: e.node.offset,
    end: e.node.offset + e.node.length,
  }));
  const triggerNode = root ? findNodeAtLocation(root, ['trigger']) : undefined;
  const parsed = parseTestFile(text);
  const problems = parsed.ok
    ? []
    : parsed.reason.map((p) => {
        const at = root ? closestNode(root, p.path) : undefined;
        return { message: p.message, start: at?.offset ?? 0, end: at ? at.offset + at.length : 0 };
      });
  return {
    expectations,
    trigger: typeof triggerNode?.value === 'string' ? triggerNode.value : undefined,
    file: parsed.ok ? parsed.file : undefined,
    problems,
  };
}

/** An expectation's `name`, or its place when it has none ("expectations[2]"). */
function nameOf(node: Node): string {
  const name = findNodeAtLocation(node, ['name']);
  if (typeof name?.value === 'string' && name.value !== '') return name.value;
  return `expectations[${node.parent?.children?.indexOf(node) ?? 0}]`;
}

/** The node at a problem's path, or the nearest one above it that exists (a missing member: its object). */
function closestNode(root: Node, path: readonly (string | number)[]): Node | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n));
    if (node) return node;
  }
  return undefined;
}

/** Offsets where each line starts, to turn offsets into line and character. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

export function positionOf(starts: readonly number[], offset: number): { line: number; character: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - (starts[lo] as number) };
}
