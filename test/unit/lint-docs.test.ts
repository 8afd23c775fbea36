// docs/rules.md documents every rule at the anchor the editor links to, and its examples are true:
// each Bad example breaks its rule, each Good example passes every rule.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RULES, ruleDocsAnchor } from '../../src/lint';
import { docs, example, expandEllipsis, lintExample, section } from './lint-doc-examples';

test('every rule has a section at its anchor, and every section a rule', () => {
  assert.deepEqual(
    RULES.filter((r) => section(r.id) === '').map((r) => r.id),
    [],
  );
  const anchors = [...docs.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]);
  assert.deepEqual(
    anchors,
    RULES.map((r) => ruleDocsAnchor(r.id)),
  );
});

test('the contents link every section', () => {
  for (const r of RULES) assert.ok(docs.includes(`[${r.id}](#${ruleDocsAnchor(r.id)})`), r.id);
});

for (const rule of RULES) {
  describe(`docs ${rule.id}`, () => {
    const text = section(rule.id);
    test('states the severity and whether there is a fix', () => {
      assert.match(text, new RegExp(`^Severity: ${rule.severity}\\. Fix: ${rule.fixable ? 'yes' : 'none'}`, 'm'));
    });
    test('the bad example breaks the rule', () => {
      const found = lintExample(expandEllipsis(example(text, 'Bad')), undefined, rule.id).map((d) => d.rule);
      assert.ok(found.includes(rule.id), `found ${found.join(', ')}`);
    });
    test('the good example passes every rule', () => {
      assert.deepEqual(lintExample(example(text, 'Good'), undefined, rule.id), []);
    });
  });
}
