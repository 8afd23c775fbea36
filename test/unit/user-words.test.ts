// What users read is in their words: no citation of the service's specification by section ("spec 2.6.1
// rule 3") or of the project's notes on the service ("service facts"), documents the user has never seen,
// and no bare status line ("HTTP 422"), which says nothing of what to do. Scanned: the manifest's texts, the
// translation bundle, the JSON Schemas' hover texts, the rule documentation every diagnostic links to, the
// walkthrough's pages, and every string and template literal of the product's source (the sandbox aside: it
// plays the service, whose own words it sends).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..');

const JARGON: { what: string; pattern: RegExp }[] = [
  { what: 'a section of the spec', pattern: /\(spec\b|\bspec(?:ification)?\s+(?:part\s+)?\d/i },
  // The project's own notes of how the service behaves: a user has never seen them either.
  { what: 'the service-facts notes', pattern: /\bservice[- ]facts\b/i },
  // "HTTP 422", or the same made by a placeholder: "HTTP {0}" (a translated text), "HTTP ${status}" (a template).
  { what: 'a raw HTTP status', pattern: /\bHTTP\s+(?:\d{3}\b|\{\d+\}|\$\{)/ },
];

interface Found {
  where: string;
  text: string;
}

/** Each text that holds jargon, named with where it is and what it holds. */
function jargonIn(texts: readonly Found[]): string[] {
  return texts.flatMap((t) =>
    JARGON.filter((j) => j.pattern.test(t.text)).map((j) => `${t.where}: ${j.what}: ${t.text.slice(0, 160)}`),
  );
}

/** Every string in a JSON value, member names included. */
function jsonStrings(value: unknown, where: string): Found[] {
  if (typeof value === 'string') return [{ where, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => jsonStrings(v, `${where}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [{ where, text: k }, ...jsonStrings(v, `${where}.${k}`)]);
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(join(root, file), 'utf8'));

/** The string literals of a source file (a template with its placeholders written `${...}`), with their lines. */
function literalsOf(file: string, text: string): Found[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: Found[] = [];
  const at = (n: ts.Node): string => `${file}:${source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1}`;
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) return;
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) found.push({ where: at(n), text: n.text });
    else if (ts.isTemplateExpression(n)) {
      found.push({ where: at(n), text: [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join('${...}') });
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

/** The product's sources: src/ without the sandbox, which answers as the service does. */
function productSources(): string[] {
  return readdirSync(join(root, 'src'), { recursive: true })
    .map((f) => String(f).split('\\').join('/'))
    .filter((f) => f.endsWith('.ts') && !f.startsWith('sandbox/'))
    .map((f) => `src/${f}`);
}

test('the manifest, the translation bundle and the walkthrough pages cite no spec section and no raw HTTP status', () => {
  const media = readdirSync(join(root, 'media')).filter((f) => f.endsWith('.md'));
  const texts = [
    ...jsonStrings(readJson('package.nls.json'), 'package.nls.json'),
    ...jsonStrings(readJson('l10n/bundle.l10n.json'), 'l10n/bundle.l10n.json'),
    ...media.map((f) => ({ where: `media/${f}`, text: readFileSync(join(root, 'media', f), 'utf8') })),
  ];
  assert.deepEqual(jargonIn(texts), []);
});

test("the trigger files' hover texts (the JSON Schemas) and the rule documentation cite no spec section", () => {
  const schemas = readdirSync(join(root, 'schemas'))
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => jsonStrings(readJson(`schemas/${f}`), `schemas/${f}`));
  const rules = readFileSync(join(root, 'docs', 'rules.md'), 'utf8')
    .split('\n')
    .map((line, i) => ({ where: `docs/rules.md:${i + 1}`, text: line }));
  assert.deepEqual(jargonIn([...schemas, ...rules]), []);
});

test("no literal of the product's source (lint messages, errors, CLI output, the editor's texts) cites a spec section or a raw HTTP status", () => {
  const files = productSources();
  const read = ['src/api/pipeline.ts', 'src/lint/schema/query.ts'].every((f) => files.includes(f));
  assert.ok(read, 'the scan reads the client and the linter');
  const texts = files.flatMap((f) => literalsOf(f, readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(jargonIn(texts), []);
});

test('the scan finds a spec section and a raw status wherever they are written, and passes what says the same in words', () => {
  const snippet = [
    "const a = l10n.t('{0} must not be set (spec 2.6.1 rule 3)', m);",
    'const b = `${op} failed: HTTP ${status} ${title}`;',
    "const c = l10n.t('the key was not accepted (HTTP {0})', status);",
    "const d = 'see spec part 4';",
    '// a comment may cite spec 2.6 and HTTP 404: nobody reads it in the editor',
    "const e = l10n.t('{0} must not be set in a trigger query: the service orders the results itself', m);",
    "const f = 'HTTP URL or equivalent route processed by the request.';",
  ].join('\n');
  assert.deepEqual(jargonIn(literalsOf('x.ts', snippet)), [
    'x.ts:1: a section of the spec: {0} must not be set (spec 2.6.1 rule 3)',
    'x.ts:2: a raw HTTP status: ${...} failed: HTTP ${...} ${...}',
    'x.ts:3: a raw HTTP status: the key was not accepted (HTTP {0})',
    'x.ts:4: a section of the spec: see spec part 4',
  ]);
});
