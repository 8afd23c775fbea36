// The Markdown of obs review: counts first, the change's own changes apart from the service's older differences,
// hostile text from git shown as text, and a report of any size kept under the comment's limit with what was left
// out said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_MARKDOWN, reviewMarkdown } from '../../src/cli/reviewMarkdown';
import type { ReviewReport } from '../../src/cli/reviewReport';
import type { Plan, PlannedChange } from '../../src/triggerFiles';

function update(name: string, file: string): PlannedChange {
  const service = { sha256: 'a'.repeat(64), updatedAt: '2026-12-01T00:00:00Z' };
  return {
    kind: 'trigger',
    action: 'update',
    file,
    index: -1,
    dataset: 'api-gateway',
    name,
    id: `trig_${name}`,
    matchedBy: 'id',
    differences: [{ path: 'threshold.value', member: 'threshold', service: 5, local: 50 }],
    body: {},
    service,
  };
}

function plan(changes: PlannedChange[]): Plan {
  return {
    format: 'obs-trigger-plan',
    version: 3,
    createdAt: '2026-12-07T00:00:00Z',
    target: { baseUrl: 'https://api.example.com', key: { salt: 's', sha256: 'k' } },
    inputs: { scope: { kind: 'files' }, allowUnknownColumns: false, matchByName: false },
    prune: false,
    files: [],
    changes,
    blocked: [],
    unchanged: 0,
  };
}

function report(over: Partial<ReviewReport>): ReviewReport {
  return {
    format: 'obs-review',
    version: 1,
    lint: [],
    plan: plan([]),
    fromChange: [],
    tests: { files: [], problems: [] },
    problems: [],
    ...over,
  };
}

test('the first lines count the change own changes and say what was planned against', () => {
  const md = reviewMarkdown(report({ plan: plan([update('a', 'a.trigger.json')]), fromChange: [0] }));
  const lines = md.split('\n');
  assert.deepEqual(lines.slice(0, 5), [
    '## Trigger review',
    '',
    '**1 change to apply** · lint: 0 errors, 0 warnings',
    '',
    'Planned against https\\:\\/\\/api\\.example\\.com; every file under the paths checked.',
  ]);
});

test('a review for an environment names it in its title, as its files were seen by it', () => {
  const md = reviewMarkdown(report({ environment: 'production_eu' }));
  assert.equal(md.split('\n')[0], '## Trigger review: production\\_eu');
});

test('a difference the service already had is a section of its own, not counted as the change', () => {
  const p = plan([update('mine', 'mine.trigger.json'), update('older', 'older.trigger.json')]);
  const md = reviewMarkdown(report({ plan: p, fromChange: [0] }));
  assert.match(md, /\*\*1 change to apply\*\* · lint: 0 errors, 0 warnings · 1 other difference with the service\n/);
  const [own, other] = md.split('### Other differences with the service');
  assert.ok(own?.includes('trig\\_mine') && !own.includes('trig\\_older'), own);
  assert.ok(other?.includes('trig\\_older') && !other.includes('trig\\_mine'), other);
});

test('a ref holding Markdown and HTML is shown as text', () => {
  const md = reviewMarkdown(
    report({ changedSince: { ref: '<img src=x>*[a](b)', base: '0123456789abcdef', changed: [], deleted: [] } }),
  );
  assert.ok(md.includes('changes since &lt;img src\\=x&gt;\\*\\[a\\]\\(b\\) (0123456789ab)'), md);
  assert.ok(!md.includes('<img'));
});

test('a report too long for a comment is cut at a line under the limit, saying how many lines were left out', () => {
  const many = Array.from({ length: 3_000 }, (_, i) => update(`trigger-${i}`, `t${i}.trigger.json`));
  const md = reviewMarkdown(report({ plan: plan(many), fromChange: many.map((_, i) => i) }));
  assert.ok(md.length <= MAX_MARKDOWN, String(md.length));
  assert.match(
    md,
    /\n\n\*[\d,]+ more lines left out: the whole report is in the JSON output \(--format json or --json-out\)\.\*\n\n<\/details>/,
  );
  assert.match(md, /### Lint\n\nNo trigger file\.\n\n### Trigger tests\n\nNo trigger test\.\n$/);
});
