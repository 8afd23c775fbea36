import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyFixes, lint, RULES, ruleDocsAnchor, type Diagnostic } from '../../src/lint';
import {
  SEVERITY,
  TAG,
  countBySeverity,
  fixAllAction,
  lintSummary,
  minimalEdit,
  quickFixes,
  quickFixesInRange,
  toDiagnosticData,
} from '../../src/extension/diagnostics/lintMapping';
import { RuleDocs, ruleDocsUrl, rulesDocsAnchorLines, rulesDocsPage } from '../../src/extension/diagnostics/ruleDocs';
import { runLintJob } from '../../src/extension/diagnostics/lintJobs';

/** The fix-all action as the editor makes it: the worker's edit, then the action. */
const fixAllOf = (text: string) => {
  const result = runLintJob({ kind: 'fixAll', text, options: { metricsDatasets: [] } });
  assert.equal(result.kind, 'fixAll');
  return fixAllAction(result.kind === 'fixAll' ? result.edit : undefined);
};

const DOCS = 'https://example.com/obs/blob/main/docs/rules.md';

const trigger = (over: Record<string, unknown> = {}): string =>
  JSON.stringify(
    {
      created_at: '2024-01-01T00:00:00Z',
      name: 'Errors',
      frequency: 900,
      threshold: { op: '>', value: 1 },
      recipients: [{ type: 'email', target: 'oncall@example.com' }],
      query: { calculations: [{ op: 'COUNT' }], time_range: 30, orders: [] },
      ...over,
    },
    null,
    2,
  );

const byRule = (ds: Diagnostic[], rule: string): Diagnostic => {
  const d = ds.find((x) => x.rule === rule);
  assert.ok(d, `no ${rule} in ${ds.map((x) => x.rule).join(', ')}`);
  return d;
};

test('severity maps error/warning/info to VS Code Error/Warning/Information', () => {
  const ds = lint(trigger());
  assert.equal(toDiagnosticData(byRule(ds, 'query/time-range-min'), DOCS).severity, SEVERITY.error);
  assert.equal(toDiagnosticData(byRule(ds, 'trigger/recipient-deprecated'), DOCS).severity, SEVERITY.warning);
  assert.equal(toDiagnosticData(byRule(ds, 'trigger/read-only-member'), DOCS).severity, SEVERITY.info);
  assert.deepEqual(SEVERITY, { error: 0, warning: 1, info: 2 });
});

test('the code is the rule id with a link to its section of docs/rules.md; source is obs-lint', () => {
  const d = toDiagnosticData(byRule(lint(trigger()), 'query/time-range-min'), DOCS);
  assert.deepEqual(d.code, { value: 'query/time-range-min', target: `${DOCS}#query-time-range-min` });
  assert.equal(d.source, 'obs-lint');
});

test('deprecations are tagged Deprecated and read-only members Unnecessary; others untagged', () => {
  const ds = lint(trigger());
  assert.deepEqual(toDiagnosticData(byRule(ds, 'trigger/recipient-deprecated'), DOCS).tags, [TAG.deprecated]);
  assert.deepEqual(toDiagnosticData(byRule(ds, 'trigger/read-only-member'), DOCS).tags, [TAG.unnecessary]);
  assert.deepEqual(toDiagnosticData(byRule(ds, 'query/time-range-min'), DOCS).tags, []);
  assert.deepEqual(TAG, { unnecessary: 1, deprecated: 2 });
});

test('a rule spanning two places carries related information', () => {
  const ds = lint(trigger());
  const withRelated = ds.find((d) => (d.related ?? []).length > 0);
  assert.ok(withRelated, 'the linter reports a relation for time_range below frequency');
  const data = toDiagnosticData(withRelated, DOCS);
  assert.deepEqual(
    data.related,
    withRelated.related?.map((r) => ({ message: r.message, range: r.range })),
  );
});

test('the range is passed through unchanged (0-based lines and UTF-16 characters)', () => {
  const d = byRule(lint(trigger()), 'query/time-range-min');
  assert.deepEqual(toDiagnosticData(d, DOCS).range, d.range);
});

test('ruleDocsUrl replaces an anchor already in the configured address', () => {
  assert.equal(ruleDocsUrl(`${DOCS}#old`, 'trigger/frequency'), `${DOCS}#trigger-frequency`);
});

test('a packaged file: docs page links to the line of the rule section', () => {
  const lines = rulesDocsAnchorLines('# Rules\n\n<a id="trigger-frequency"></a>\n## trigger/frequency\n');
  assert.equal(ruleDocsUrl('file:///ext/docs/rules.md', 'trigger/frequency', lines), 'file:///ext/docs/rules.md#L3');
});

test('a packaged file: docs page without the rule section links to the page itself', () => {
  assert.equal(
    ruleDocsUrl('file:///ext/docs/rules.md#L9', 'trigger/frequency', new Map()),
    'file:///ext/docs/rules.md',
  );
});

test("RuleDocs reads the shipped rules.md once, and links to the setting's page when it is an http(s) address", () => {
  const dir = mkdtempSync(join(tmpdir(), 'obs-ruledocs-'));
  try {
    const file = join(dir, 'rules.md');
    writeFileSync(file, '# Rules\n<a id="trigger-frequency"></a>\n');
    let configured: string | undefined = '';
    const logged: string[] = [];
    const docs = new RuleDocs({
      file,
      fileUrl: 'file:///ext/docs/rules.md',
      configured: () => configured,
      log: (m) => logged.push(m),
    });
    assert.deepEqual([...docs.lines()], [['trigger-frequency', 2]]);
    rmSync(file);
    assert.deepEqual([...docs.lines()], [['trigger-frequency', 2]], 'not read again');
    assert.equal(docs.page(), 'file:///ext/docs/rules.md');
    configured = 'https://docs.example.com/rules';
    assert.equal(docs.page(), 'https://docs.example.com/rules');
    assert.deepEqual(logged, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('RuleDocs without its file links to the page itself and says so in the log once', () => {
  const logged: string[] = [];
  const docs = new RuleDocs({
    file: join(tmpdir(), 'obs-no-such-dir', 'rules.md'),
    fileUrl: 'file:///x/rules.md',
    configured: () => undefined,
    log: (m) => logged.push(m),
  });
  assert.equal(docs.lines().size, 0);
  assert.equal(docs.lines().size, 0);
  assert.equal(logged.length, 1);
  assert.match(logged[0] ?? '', /^rule documentation not found in the extension: ENOENT/);
});

test('every rule of the linter has a section line in docs/rules.md', () => {
  const lines = rulesDocsAnchorLines(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'rules.md'), 'utf8'));
  assert.deepEqual(
    RULES.map((r) => r.id).filter((id) => !lines.has(ruleDocsAnchor(id))),
    [],
  );
});

test('each fixable diagnostic asked about gets its quick fix, preferred as the only one', () => {
  const ds = lint(trigger());
  const target = byRule(ds, 'query/time-range-min');
  const fixes = quickFixes(ds, [{ code: target.rule, range: target.range }]);
  assert.equal(fixes.length, 1);
  assert.deepEqual(
    { title: fixes[0]?.title, kind: fixes[0]?.kind, isPreferred: fixes[0]?.isPreferred, edits: fixes[0]?.edits },
    { title: target.fix?.title, kind: 'quickfix', isPreferred: true, edits: target.fix?.edits },
  );
});

test('diagnostics without a fix, or asked about with another range, get no quick fix', () => {
  const ds = lint(trigger());
  const deprecated = byRule(ds, 'trigger/recipient-deprecated');
  assert.deepEqual(quickFixes(ds, [{ code: deprecated.rule, range: deprecated.range }]), []);
  const fixable = byRule(ds, 'trigger/read-only-member');
  const moved = { ...fixable.range, start: { line: fixable.range.start.line + 1, character: 0 } };
  assert.deepEqual(quickFixes(ds, [{ code: fixable.rule, range: moved }]), []);
});

test('quickFixesInRange finds the fixes touching the cursor', () => {
  const ds = lint(trigger());
  const d = byRule(ds, 'trigger/read-only-member');
  assert.deepEqual(
    quickFixesInRange(ds, { start: d.range.start, end: d.range.start }).map((f) => f.title),
    ['Remove read-only created_at'],
  );
});

test('fix all is one minimal edit that leaves nothing auto-fixable', () => {
  const text = trigger({ frequency: 100, triggered: true });
  const action = fixAllOf(text);
  assert.ok(action);
  assert.equal(action.kind, 'source.fixAll');
  assert.equal(action.edits.length, 1);
  const fixed = applyFixes(text, action.edits);
  assert.deepEqual(
    lint(fixed).filter((d) => d.fix !== undefined),
    [],
  );
  assert.deepEqual(
    lint(fixed).map((d) => d.rule),
    ['trigger/recipient-deprecated'],
  );
  assert.equal(JSON.parse(fixed).created_at, undefined);
});

test('fix all offers nothing when nothing is fixable', () => {
  assert.equal(
    fixAllOf(trigger({ created_at: undefined, query: { calculations: [{ op: 'COUNT' }], time_range: 900 } })),
    undefined,
  );
});

test('minimalEdit keeps the common prefix and suffix', () => {
  const edit = minimalEdit('{\n  "a": 100,\n  "b": 1\n}', '{\n  "a": 120,\n  "b": 1\n}');
  assert.deepEqual(edit, { range: { start: { line: 1, character: 8 }, end: { line: 1, character: 9 } }, newText: '2' });
  assert.equal(minimalEdit('same', 'same'), undefined);
});

test('counts and summary for the workspace lint', () => {
  const c = countBySeverity(lint(trigger()));
  assert.deepEqual(c, { errors: 2, warnings: 1, infos: 1 });
  assert.equal(lintSummary(3, 1, c), 'Linted 3 files: 2 errors, 1 warning, 1 info in 1 file.');
  assert.equal(lintSummary(1, 0, { errors: 0, warnings: 0, infos: 0 }), 'Linted 1 file: no problems.');
  assert.equal(
    lintSummary(0, 0, { errors: 0, warnings: 0, infos: 0 }),
    'No trigger, burn alert or definitions file found in the workspace.',
  );
});

test('the rules docs setting is used only when it is an http(s) address; otherwise the shipped docs/rules.md', () => {
  const packaged = 'file:///ext/docs/rules.md';
  assert.equal(rulesDocsPage('', packaged), packaged);
  assert.equal(rulesDocsPage(undefined, packaged), packaged);
  assert.equal(rulesDocsPage(' https://docs.example.com/rules ', packaged), 'https://docs.example.com/rules');
  assert.equal(
    rulesDocsPage('command:workbench.action.quit', packaged),
    packaged,
    'a workspace setting must not turn rule codes into commands',
  );
  assert.equal(rulesDocsPage('file:///etc/passwd', packaged), packaged);
  assert.equal(rulesDocsPage('not a url', packaged), packaged);
});
