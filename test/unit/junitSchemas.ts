// The two schemas CI tools read JUnit XML with, as rules a test can check without the network: Jenkins'
// junit-10.xsd (the xunit plugin's, which the junit plugin's parser follows) and Ant's JUnit.xsd (the JUnit
// schema most tools cite). Only the elements and attributes `obs test` writes are encoded, each rule as the
// schema states it; an element or attribute outside them is refused, as the schemas refuse it. Also the small
// XML reader they need: the subset of XML 1.0 the report uses (a declaration, elements, attributes in double
// quotes, text with the five entities and character references), everything else refused.

export interface XmlElement {
  name: string;
  attributes: Map<string, string>;
  children: XmlElement[];
  /** The element's own text, its children's left out. */
  text: string;
}

/** A character XML 1.0 allows (its production Char). */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescape(raw: string, where: string): string {
  if (raw.includes('<')) throw new Error(`${where}: a raw "<"`);
  return raw.replace(/&([^;]*);?/g, (m, ref: string) => {
    if (!m.endsWith(';')) throw new Error(`${where}: an "&" that starts no reference`);
    const num = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(ref);
    if (num) {
      const code = num[1]?.startsWith('x') ? parseInt(num[1].slice(1), 16) : Number(num[1]);
      if (!isXmlChar(code)) throw new Error(`${where}: a reference to a character XML refuses`);
      return String.fromCodePoint(code);
    }
    const entity = ENTITIES[ref];
    if (entity === undefined) throw new Error(`${where}: an unknown entity &${ref};`);
    return entity;
  });
}

/** Reads a document of one root element; throws naming what is not well-formed XML. */
export function readXml(text: string): XmlElement {
  for (const c of text)
    if (!isXmlChar(c.codePointAt(0) ?? 0))
      throw new Error(`a character XML 1.0 refuses: U+${(c.codePointAt(0) ?? 0).toString(16)}`);
  let at = 0;
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n?/.exec(text);
  if (decl) at = decl[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const tag = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"]*")*)\s*(\/?)>/y;
  while (at < text.length) {
    const next = text.indexOf('<', at);
    const raw = text.slice(at, next === -1 ? text.length : next);
    const open = stack[stack.length - 1];
    if (open !== undefined) open.text += unescape(raw, `text in <${open.name}>`);
    else if (raw.trim() !== '') throw new Error(`text outside the root element: ${JSON.stringify(raw.slice(0, 40))}`);
    if (next === -1) break;
    tag.lastIndex = next;
    const m = tag.exec(text);
    if (!m) throw new Error(`not a tag at ${next}: ${JSON.stringify(text.slice(next, next + 40))}`);
    at = tag.lastIndex;
    const [, closing, name = '', attrs = '', selfClosing] = m;
    if (closing === '/') {
      if (stack.pop()?.name !== name) throw new Error(`</${name}> closes no open <${name}>`);
      continue;
    }
    const element: XmlElement = { name, attributes: new Map(), children: [], text: '' };
    for (const a of attrs.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
      const [, key = '', value = ''] = a;
      if (element.attributes.has(key)) throw new Error(`<${name}> has ${key} twice`);
      element.attributes.set(key, unescape(value, `${name}/@${key}`).replace(/[\t\n\r]/g, ' '));
    }
    if (open !== undefined) open.children.push(element);
    else if (root === undefined) root = element;
    else throw new Error('a second root element');
    if (selfClosing !== '/') stack.push(element);
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1]?.name}> is never closed`);
  if (root === undefined) throw new Error('no root element');
  return root;
}

// --- the types of the schemas' attributes ---------------------------------------------------------------------

type AttributeType = (value: string) => boolean;
const string: AttributeType = () => true;
/** xs:token: any string, white space collapsed; with minLength 1, not empty once collapsed. */
const token1: AttributeType = (v) => v.replace(/\s+/g, ' ').trim().length >= 1;
/** xs:int. */
const int: AttributeType = (v) => /^[+-]?\d+$/.test(v.trim()) && Math.abs(Number(v)) <= 2 ** 31;
/** xs:decimal. */
const decimal: AttributeType = (v) => /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(v.trim());
/** Jenkins' SUREFIRE_TIME: digits, optionally grouped by commas, and a fraction. */
const surefireTime: AttributeType = (v) => /^((([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?)$/.test(v);
/** Ant's ISO8601_DATETIME_PATTERN: an xs:dateTime to the second, without a zone. */
const isoNoZone: AttributeType = (v) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}Z`));

interface ElementRule {
  attributes: Record<string, AttributeType>;
  required: readonly string[];
  /** Whether the element may hold text besides white space. */
  text: boolean;
  /** Which child elements in what order: a check of the names of the children, saying what is wrong. */
  children(names: readonly string[]): string | undefined;
}

/** A regular expression over the children's names, each followed by a space. */
const contentModel =
  (model: string): ElementRule['children'] =>
  (names) =>
    new RegExp(`^${model}$`).test(names.map((n) => `${n} `).join(''))
      ? undefined
      : `children ${JSON.stringify(names)} do not match ${model}`;

/** The rule of each element by its name, or by its parent's name and its own (`testsuites/testsuite`) where they differ. */
type Schema = Record<string, ElementRule>;

const FAILURE_LIKE = { type: string, message: string };

/**
 * Jenkins' junit-10.xsd: <testsuites> takes name, time, tests, failures and errors (no skipped); <testsuite>
 * needs name, tests, failures and errors and takes the rest listed, its children in any order; a <testcase>
 * needs a name and holds <skipped>, <error>, <failure>, <system-out> and <system-err> in any order.
 */
export const JENKINS_JUNIT_10: Schema = {
  testsuites: {
    attributes: { name: string, time: surefireTime, tests: string, failures: string, errors: string },
    required: [],
    text: false,
    children: contentModel('(testsuite )*'),
  },
  testsuite: {
    attributes: {
      name: string,
      tests: string,
      failures: string,
      errors: string,
      group: string,
      time: surefireTime,
      skipped: string,
      timestamp: string,
      hostname: string,
      id: string,
      package: string,
      file: string,
      log: string,
      url: string,
    },
    required: ['name', 'tests', 'failures', 'errors'],
    text: false,
    children: contentModel('((testsuite|properties|testcase|system-out|system-err) )*'),
  },
  properties: { attributes: {}, required: [], text: false, children: contentModel('(property )*') },
  property: {
    attributes: { name: string, value: string },
    required: ['name', 'value'],
    text: false,
    children: contentModel(''),
  },
  testcase: {
    attributes: { name: string, time: string, classname: string, group: string },
    required: ['name'],
    text: false,
    children: contentModel('((skipped|error|failure|system-out|system-err) )*'),
  },
  failure: { attributes: FAILURE_LIKE, required: [], text: true, children: contentModel('') },
  error: { attributes: FAILURE_LIKE, required: [], text: true, children: contentModel('') },
  skipped: { attributes: FAILURE_LIKE, required: [], text: true, children: contentModel('') },
  'system-out': { attributes: {}, required: [], text: true, children: contentModel('') },
  'system-err': { attributes: {}, required: [], text: true, children: contentModel('') },
};

const ANT_SUITE = {
  name: token1,
  timestamp: isoNoZone,
  hostname: token1,
  tests: int,
  failures: int,
  errors: int,
  skipped: int,
  time: decimal,
};
const ANT_SUITE_REQUIRED = ['name', 'timestamp', 'hostname', 'tests', 'failures', 'errors', 'time'];
const ANT_SUITE_CHILDREN = contentModel('properties (testcase )*system-out system-err ');

/**
 * Ant's JUnit.xsd: <testsuites> has no attribute; a <testsuite> needs name, timestamp (no zone), hostname,
 * tests, failures, errors and time, and in a <testsuites> package and id too; its children are <properties>, the
 * test cases, <system-out> and <system-err>, in that order, each but the cases exactly once. A <testcase>
 * needs name, classname and time, and holds at most one <skipped>, <error> or <failure>; the last two need a
 * type and hold text only.
 */
export const ANT_JUNIT: Schema = {
  testsuites: { attributes: {}, required: [], text: false, children: contentModel('(testsuite )*') },
  testsuite: { attributes: ANT_SUITE, required: ANT_SUITE_REQUIRED, text: false, children: ANT_SUITE_CHILDREN },
  'testsuites/testsuite': {
    attributes: { ...ANT_SUITE, package: token1, id: int },
    required: [...ANT_SUITE_REQUIRED, 'package', 'id'],
    text: false,
    children: ANT_SUITE_CHILDREN,
  },
  properties: { attributes: {}, required: [], text: false, children: contentModel('(property )*') },
  property: {
    attributes: { name: token1, value: string },
    required: ['name', 'value'],
    text: false,
    children: contentModel(''),
  },
  testcase: {
    attributes: { name: string, classname: string, time: decimal },
    required: ['name', 'classname', 'time'],
    text: false,
    children: contentModel('((skipped|error|failure) )?'),
  },
  failure: { attributes: FAILURE_LIKE, required: ['type'], text: true, children: contentModel('') },
  error: { attributes: FAILURE_LIKE, required: ['type'], text: true, children: contentModel('') },
  // anyType: it may hold anything (the report writes a message and nothing else).
  skipped: { attributes: { type: string, message: string }, required: [], text: true, children: () => undefined },
  'system-out': { attributes: {}, required: [], text: true, children: contentModel('') },
  'system-err': { attributes: {}, required: [], text: true, children: contentModel('') },
};

/** What the document breaks of the schema, each named by its element's path; none when it is valid. */
export function violations(schema: Schema, root: XmlElement): string[] {
  const out: string[] = [];
  if (root.name !== 'testsuites' && root.name !== 'testsuite') out.push(`the root is <${root.name}>`);
  const visit = (e: XmlElement, path: string, parent: string): void => {
    const rule = schema[`${parent}/${e.name}`] ?? schema[e.name];
    if (rule === undefined) {
      out.push(`${path}: no element <${e.name}> in the schema`);
      return;
    }
    for (const [key, value] of e.attributes) {
      const type = rule.attributes[key];
      if (type === undefined) out.push(`${path}/@${key}: not an attribute of <${e.name}>`);
      else if (!type(value)) out.push(`${path}/@${key}: ${JSON.stringify(value)} is not of its type`);
    }
    for (const key of rule.required) if (!e.attributes.has(key)) out.push(`${path}: <${e.name}> lacks ${key}`);
    if (!rule.text && e.text.trim() !== '') out.push(`${path}: <${e.name}> holds text`);
    const order = rule.children(e.children.map((c) => c.name));
    if (order !== undefined) out.push(`${path}: ${order}`);
    e.children.forEach((c, i) => visit(c, `${path}/${c.name}[${i}]`, e.name));
  };
  visit(root, root.name, '');
  return out;
}

/** The document's elements of a name, depth first. */
export function elementsNamed(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const stack = [root];
  for (let e = stack.pop(); e !== undefined; e = stack.pop()) {
    if (e.name === name) found.push(e);
    stack.push(...[...e.children].reverse());
  }
  return found;
}
