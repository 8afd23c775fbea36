// The manifest's user-facing texts are localisable: each is a `%key%` reference into package.nls.json (the
// English texts; a language adds package.nls.<locale>.json with the same keys).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as unknown;
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, unknown>;

/**
 * The members VS Code shows to the user, as paths into the manifest: `*` is any array element or object
 * member. Ids, `when` clauses, icons and paths are not text.
 */
const USER_FACING: string[][] = [
  ['displayName'],
  ['description'],
  ['capabilities', 'untrustedWorkspaces', 'description'],
  ['contributes', 'viewsContainers', '*', '*', 'title'],
  ['contributes', 'views', '*', '*', 'name'],
  ['contributes', 'views', '*', '*', 'contextualTitle'],
  ['contributes', 'commands', '*', 'title'],
  ['contributes', 'commands', '*', 'shortTitle'],
  ['contributes', 'commands', '*', 'category'],
  ['contributes', 'submenus', '*', 'label'],
  ['contributes', 'viewsWelcome', '*', 'contents'],
  ['contributes', 'configuration', 'title'],
  ['contributes', 'configuration', 'properties', '*', 'description'],
  ['contributes', 'configuration', 'properties', '*', 'markdownDescription'],
  ['contributes', 'configuration', 'properties', '*', 'enumDescriptions', '*'],
  ['contributes', 'configuration', 'properties', '*', 'markdownEnumDescriptions', '*'],
  ['contributes', 'configuration', 'properties', '*', 'deprecationMessage'],
  ['contributes', 'configuration', 'properties', '*', 'markdownDeprecationMessage'],
  ['contributes', 'walkthroughs', '*', 'title'],
  ['contributes', 'walkthroughs', '*', 'description'],
  ['contributes', 'walkthroughs', '*', 'steps', '*', 'title'],
  ['contributes', 'walkthroughs', '*', 'steps', '*', 'description'],
  ['contributes', 'walkthroughs', '*', 'steps', '*', 'media', 'altText'],
  ['contributes', 'languageModelTools', '*', 'displayName'],
  ['contributes', 'languageModelTools', '*', 'userDescription'],
  ['contributes', 'mcpServerDefinitionProviders', '*', 'label'],
];

/** Every value at `path`, with its dotted location. */
function valuesAt(node: unknown, path: string[], at = ''): { at: string; value: unknown }[] {
  const [head, ...rest] = path;
  if (head === undefined) return [{ at, value: node }];
  if (node === null || typeof node !== 'object') return [];
  const entries = Object.entries(node);
  const picked = head === '*' ? entries : entries.filter(([k]) => k === head);
  return picked.flatMap(([k, v]) => valuesAt(v, rest, at === '' ? k : `${at}.${k}`));
}

const texts = USER_FACING.flatMap((path) => valuesAt(manifest, path));
const KEY = /^%([^%\s]+)%$/;

test('the manifest has user-facing texts to localise (the paths above still match it)', () => {
  for (const path of [
    ['displayName'],
    ['contributes', 'commands', '*', 'title'],
    ['contributes', 'viewsWelcome', '*', 'contents'],
    ['contributes', 'walkthroughs', '*', 'steps', '*', 'description'],
  ]) {
    assert.ok(valuesAt(manifest, path).length > 0, path.join('.'));
  }
});

test('every user-facing manifest text is a %key% reference', () => {
  assert.deepEqual(
    texts.filter((t) => typeof t.value !== 'string' || !KEY.test(t.value)).map((t) => `${t.at}: ${String(t.value)}`),
    [],
  );
});

test('every %key% of the manifest has an English text in package.nls.json', () => {
  const missing = texts
    .map((t) => KEY.exec(String(t.value))?.[1] ?? '')
    .filter((k) => typeof nls[k] !== 'string' || nls[k] === '');
  assert.deepEqual(missing, []);
});

test('package.nls.json holds no key the manifest does not use', () => {
  const used = new Set(
    JSON.stringify(manifest)
      .match(/"%[^%\s"]+%"/g)
      ?.map((k) => k.slice(2, -2)),
  );
  assert.deepEqual(
    Object.keys(nls).filter((k) => !used.has(k)),
    [],
  );
});

test('a bare text in a user-facing member is reported (the check can fail)', () => {
  const bare = { contributes: { commands: [{ command: 'x', title: '%command.x.title%', category: 'Observability' }] } };
  const found = USER_FACING.flatMap((path) => valuesAt(bare, path)).filter(
    (t) => typeof t.value !== 'string' || !KEY.test(t.value),
  );
  assert.deepEqual(
    found.map((t) => t.at),
    ['contributes.commands.0.category'],
  );
});
