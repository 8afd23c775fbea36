import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkUiLink } from '../../src/extension/core/links';
import { exportRelativePath, sanitizeFileSegment } from '../../src/extension/triggers/triggerExport';
import { normalize, triggerFileText } from '../../src/triggerFiles';
import type { Trigger } from '../../src/api/schemas';
import { lint } from '../../src/lint';

const UI = 'https://ui.example.com';

test('a query_url on the connection UI host is opened', () => {
  const r = checkUiLink('https://ui.example.com/acme/datasets/orders/result/abc', UI);
  assert.ok(r.ok);
  assert.equal(r.url.href, 'https://ui.example.com/acme/datasets/orders/result/abc');
});

test('links elsewhere, with other schemes, with credentials or downgraded are refused with a reason', () => {
  const reason = (link: unknown, ui = UI): string | undefined => {
    const r = checkUiLink(link, ui);
    return r.ok ? undefined : r.reason;
  };
  assert.equal(
    reason('https://evil.example/acme'),
    "the link points at evil.example, not at the connection's UI host ui.example.com",
  );
  assert.equal(
    reason('https://ui.example.com.evil.example/x'),
    "the link points at ui.example.com.evil.example, not at the connection's UI host ui.example.com",
  );
  assert.equal(
    reason('https://ui.example.com:8443/x'),
    "the link points at ui.example.com:8443, not at the connection's UI host ui.example.com",
  );
  assert.equal(reason('command:workbench.action.quit'), 'the link uses command: instead of http(s)');
  assert.equal(reason('javascript:alert(1)'), 'the link uses javascript: instead of http(s)');
  assert.equal(reason('file:///etc/passwd'), 'the link uses file: instead of http(s)');
  assert.equal(reason('https://user:pw@ui.example.com/x'), 'the link carries credentials');
  assert.equal(reason('http://ui.example.com/x'), 'the link downgrades to plain http');
  assert.equal(reason('/relative/path'), 'the link is not an absolute URL');
  assert.equal(reason(undefined), 'the service gave no link');
});

test('a plain-http UI (the local sandbox) accepts links on its own host and port', () => {
  assert.ok(checkUiLink('http://127.0.0.1:4318/ui/acme/x', 'http://127.0.0.1:4318/ui').ok);
  assert.ok(!checkUiLink('http://127.0.0.1:9999/ui/acme/x', 'http://127.0.0.1:4318/ui').ok);
});

test('export file names are sanitized into one safe path segment', () => {
  assert.equal(sanitizeFileSegment('High error rate (5xx)!', 'id'), 'High-error-rate-5xx');
  assert.equal(sanitizeFileSegment('../../etc/passwd', 'id'), 'etc-passwd');
  assert.equal(sanitizeFileSegment('<img src=x onerror=alert(1)>', 'id'), 'img-src-x-onerror-alert-1');
  assert.equal(sanitizeFileSegment('user\u202Egnp.exe', 'id'), 'user-gnp.exe');
  assert.equal(sanitizeFileSegment('Café latency', 'id'), 'Cafe-latency');
  assert.equal(sanitizeFileSegment('...', 'trig_1'), 'trig_1');
  assert.equal(sanitizeFileSegment('CON', 'trig_1'), 'trig_1');
  assert.equal(sanitizeFileSegment('x'.repeat(200), 'id').length, 80);
});

test('the export path is <dataset>/<name>.trigger.json', () => {
  assert.equal(
    exportRelativePath('api-gateway', { id: 't1', name: 'Error rate' }),
    'api-gateway/Error-rate.trigger.json',
  );
  assert.equal(exportRelativePath('__all__', { id: 't1', name: '日本語' }), '__all__/t1.trigger.json');
});

const trigger: Trigger = {
  id: 'trig_1',
  dataset_slug: 'api-gateway',
  name: 'Errors',
  triggered: true,
  created_at: '2024-03-01T10:00:00Z',
  updated_at: '2024-03-02T10:00:00Z',
  frequency: 300,
  threshold: { op: '>', value: 10 },
  query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
  query_id: null,
  evaluation_schedule: null,
  disabled: false,
};

// Export writes the canonical trigger file (docs/TRIGGER-FILES.md). Changed on purpose from the earlier
// export form: the id is kept as the link to the service and defaults the service fills in are left out.
const exported = (t: Trigger) => normalize(t) as Record<string, unknown>;

test('export keeps the id as the link, drops the other read-only members, nulls and defaults, in the canonical order', () => {
  assert.deepEqual(Object.keys(exported(trigger)), ['id', 'dataset_slug', 'name', 'threshold', 'frequency', 'query']);
  assert.equal(triggerFileText(trigger).endsWith('}\n'), true);
  assert.deepEqual(JSON.parse(triggerFileText(trigger)).threshold, { op: '>', value: 10 });
});

test('a trigger listed with both query and query_id (made with an inline query) is exported with the inline query only', () => {
  const listed: Trigger = { ...trigger, query_id: 'q_made_by_the_service' };
  assert.deepEqual(Object.keys(exported(listed)), ['id', 'dataset_slug', 'name', 'threshold', 'frequency', 'query']);
  assert.deepEqual(
    lint(triggerFileText(listed)).filter((d) => d.severity === 'error'),
    [],
  );
});

test('a trigger on a saved query keeps its query_id when there is no inline query', () => {
  const onSaved: Trigger = { ...trigger, query: null, query_id: 'q_saved' };
  assert.deepEqual(Object.keys(exported(onSaved)), [
    'id',
    'dataset_slug',
    'name',
    'threshold',
    'frequency',
    'query_id',
  ]);
  const withoutQuery: Trigger = { ...trigger, query_id: 'q_saved' };
  delete withoutQuery.query;
  assert.equal(exported(withoutQuery).query_id, 'q_saved');
});

test('UI-host check: look-alike hosts, credentials, other schemes in any case and other ports are refused', () => {
  const ui = 'https://ui.example';
  const refused = (link: string): boolean => !checkUiLink(link, ui).ok;
  assert.ok(refused('https://ui.example@evil.example/x'), 'user info naming the UI host');
  assert.ok(refused('https://ui.example.evil.example/x'), 'UI host as a subdomain of another');
  assert.ok(refused('https://evil.example/ui.example'), 'UI host in the path');
  assert.ok(refused('javascript:alert(1)'));
  assert.ok(refused('JAVASCRIPT:alert(1)'));
  assert.ok(refused('JavaScript://ui.example/%0aalert(1)'));
  assert.ok(refused('data:text/html,<script>alert(1)</script>'));
  assert.ok(refused('vscode://ms-vscode.remote/x'));
  assert.ok(refused('https://ui.example:444/x'), 'another port');
  assert.ok(refused('//ui.example/x'), 'scheme-relative');
  assert.ok(refused('https://ui.example./x'), 'trailing-dot host is another host name');
  // Spelling variations of the same origin are fine.
  assert.ok(checkUiLink('HTTPS://UI.EXAMPLE/acme/result/1', ui).ok, 'upper-case scheme and host');
  assert.ok(checkUiLink('https://ui.example:443/acme/result/1', ui).ok, 'the default port written out');
});

test('export names that are Windows device names before the first dot fall back to the trigger id', () => {
  assert.equal(sanitizeFileSegment('con.backup', 'trig_1'), 'trig_1');
  assert.equal(sanitizeFileSegment('LPT1.alerts', 'trig_1'), 'trig_1');
  assert.equal(sanitizeFileSegment('aux', 'trig_1'), 'trig_1');
  assert.equal(sanitizeFileSegment('COM\u00B9', 'trig_1'), 'trig_1', 'superscript digit, normalised to COM1');
  assert.equal(sanitizeFileSegment('console', 'trig_1'), 'console', 'only the exact device names');
  assert.equal(sanitizeFileSegment('nul', 'con'), 'trigger', 'a reserved fallback falls back again');
  assert.equal(exportRelativePath('con', { id: 't1', name: '../../x' }), 'dataset/x.trigger.json');
  assert.equal(exportRelativePath('..', { id: 't1', name: 'a/b\\c' }), 'dataset/a-b-c.trigger.json');
});
