// docs/rules.md documents every rule at the anchor the editor links to, and its examples are true:
// each Bad example breaks its rule, each Good example passes every rule.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintBytes, RULES, ruleDocsAnchor, type LintOptions } from '../../src/lint';

const docs = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'rules.md'), 'utf8');
/** The examples treat otel-metrics as a metrics dataset, and know the columns of checkout (docs/rules.md says so). */
const OPTIONS: LintOptions = {
  metricsDatasets: ['otel-metrics'],
  columns: { checkout: { names: ['duration_ms', 'status_code', 'http.route', 'internal.card_hash'], hidden: ['internal.card_hash'] } },
};

function section(id: string): string {
  const start = docs.indexOf(`<a id="${ruleDocsAnchor(id)}"></a>\n## ${id}\n`);
  if (start < 0) return '';
  const next = docs.indexOf('<a id="', start + 1);
  return docs.slice(start, next < 0 ? undefined : next);
}

function example(text: string, label: 'Bad' | 'Good'): string {
  const match = new RegExp(`\\*\\*${label}\\*\\*\\n\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(text);
  return match?.[1] ?? '';
}

/** `...` between two lines numbered n and m stands for the lines numbered n+1 to m-1. */
function expandEllipsis(json: string): string {
  const lines = json.split('\n');
  const i = lines.findIndex((l) => l.trim() === '...');
  if (i < 0) return json;
  const before = lines[i - 1] ?? '';
  const after = lines[i + 1] ?? '';
  const n = Number(/[a-z](\d+)"/.exec(before)?.[1]);
  const m = Number(/[a-z](\d+)"/.exec(after)?.[1]);
  const filled = Array.from({ length: m - n - 1 }, (_, k) => before.replace(new RegExp(`([a-z])${n}"`, 'g'), `$1${n + k + 1}"`));
  return [...lines.slice(0, i), ...filled, ...lines.slice(i + 1)].join('\n');
}

/** An example as a file's bytes: UTF-8, except that `\\xNN` stands for the one byte NN (file/encoding shows such bytes). */
function lintExample(json: string) {
  const parts = json.split(/\\x([0-9A-F]{2})/);
  return lintBytes(Buffer.concat(parts.map((p, i) => (i % 2 === 1 ? Buffer.from([parseInt(p, 16)]) : Buffer.from(p, 'utf8')))), OPTIONS);
}

test('every rule has a section at its anchor, and every section a rule', () => {
  assert.deepEqual(
    RULES.filter((r) => section(r.id) === '').map((r) => r.id),
    [],
  );
  const anchors = [...docs.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]);
  assert.deepEqual(anchors, RULES.map((r) => ruleDocsAnchor(r.id)));
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
      const found = lintExample(expandEllipsis(example(text, 'Bad'))).map((d) => d.rule);
      assert.ok(found.includes(rule.id), `found ${found.join(', ')}`);
    });
    test('the good example passes every rule', () => {
      assert.deepEqual(lintExample(example(text, 'Good')), []);
    });
  });
}
