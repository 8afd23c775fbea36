// The examples of docs/rules.md, as lint-docs.test.ts checks them and the linter's translation test lints them.
import { lintEnvironmentsText } from '../../src/triggerFiles/environmentsLint';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintBytes, lintSloText, ruleDocsAnchor, type LintOptions, type RuleId } from '../../src/lint';
import { sloKindOfRule } from '../../src/lint/sloLint';

export const docs = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'rules.md'), 'utf8');
/**
 * The examples treat otel-metrics as a metrics dataset, know the columns of checkout and the service's
 * datasets, and know the account's recipients rcp_4f2a and rcp_7c1e (docs/rules.md says so).
 */
export const OPTIONS: LintOptions = {
  metricsDatasets: ['otel-metrics'],
  datasets: ['api', 'checkout', 'otel-metrics'],
  columns: {
    checkout: {
      names: ['duration_ms', 'status_code', 'http.route', 'internal.card_hash'],
      hidden: ['internal.card_hash'],
    },
  },
  recipients: [
    { id: 'rcp_4f2a', name: 'On-call (PagerDuty)', shortName: 'On-call', type: 'pagerduty' },
    {
      id: 'rcp_7c1e',
      name: 'oncall@example.com (email)',
      shortName: 'oncall@example.com',
      type: 'email',
      target: 'oncall@example.com',
    },
  ],
};

export function section(id: string): string {
  const start = docs.indexOf(`<a id="${ruleDocsAnchor(id)}"></a>\n## ${id}\n`);
  if (start < 0) return '';
  const next = docs.indexOf('<a id="', start + 1);
  return docs.slice(start, next < 0 ? undefined : next);
}

export function example(text: string, label: 'Bad' | 'Good'): string {
  const match = new RegExp(`\\*\\*${label}\\*\\*\\n\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(text);
  return match?.[1] ?? '';
}

/** `...` between two lines numbered n and m stands for the lines numbered n+1 to m-1 (or n-1 down to m+1); an example may have several. */
export function expandEllipsis(json: string): string {
  const lines = json.split('\n');
  const i = lines.findIndex((l) => l.trim() === '...');
  if (i < 0) return json;
  const before = lines[i - 1] ?? '';
  const after = lines[i + 1] ?? '';
  const n = Number(/[a-z](\d+)"/.exec(before)?.[1]);
  const m = Number(/[a-z](\d+)"/.exec(after)?.[1]);
  const step = m > n ? 1 : -1;
  const filled = Array.from({ length: Math.abs(m - n) - 1 }, (_, k) =>
    before.replace(new RegExp(`([a-z])${n}"`, 'g'), `$1${n + step * (k + 1)}"`),
  );
  return expandEllipsis([...lines.slice(0, i), ...filled, ...lines.slice(i + 1)].join('\n'));
}

/**
 * An example as a file's bytes: UTF-8, except that `\\xNN` stands for the one byte NN (file/encoding shows such
 * bytes); linted as the kind of file its rule is about (a burn alert or definitions file by those rules' ids).
 */
export function lintExample(json: string, options: LintOptions = OPTIONS, rule?: RuleId) {
  const kind = rule === undefined ? undefined : sloKindOfRule(rule);
  if (kind !== undefined) return lintSloText(kind, json, options).diagnostics;
  if (rule?.startsWith('environments/') === true) return lintEnvironmentsText(json);
  const parts = json.split(/\\x([0-9A-F]{2})/);
  return lintBytes(
    Buffer.concat(parts.map((p, i) => (i % 2 === 1 ? Buffer.from([parseInt(p, 16)]) : Buffer.from(p, 'utf8')))),
    options,
  );
}
