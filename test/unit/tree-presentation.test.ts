// How a trigger, a column and a key read in the Datasets view: descriptions in the display language,
// tooltip times relative to when the tooltip is shown with the exact UTC time beside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, present } from '../../src/extension/tree/presentation';
import type { TreeNode } from '../../src/extension/tree/nodes';
import { capText, tooltipMarkdown, TOOLTIP_MARKDOWN_MAX, type Tooltip } from '../../src/extension/core/text';
import type { Column, Trigger } from '../../src/api/schemas';
import type { TriggerFileState } from '../../src/extension/sync';

const trigger = (t: Partial<Trigger>): TreeNode => ({
  kind: 'trigger',
  connectionId: 'c',
  dataset: 'gateway',
  trigger: { name: 'High error rate', ...t } as Trigger,
});

const row = (tooltip: Tooltip | undefined, label: string) => tooltip?.rows.find((r) => r.label === label)?.value;

test("a trigger's frequency reads in the largest whole unit, the short way of the display language", () => {
  const errors = trigger({ triggered: true, alert_type: 'on_change', frequency: 300 });
  assert.equal(present(errors).description, 'triggered · notify on change · every 5m');
  assert.equal(present(errors, { language: 'de' }).description, 'triggered · notify on change · every 5 Min.');
  assert.equal(
    present(errors, { language: 'not a language tag' }).description,
    'triggered · notify on change · every 5m',
  );
  assert.deepEqual(
    [86_400, 7200, 90, 0].map((s) => formatDuration(s)),
    ['1d', '2h', '90s', '0s'],
  );
  assert.deepEqual(
    [86_400, 7200, 90].map((s) => formatDuration(s, 'fr')),
    ['1j', '2h', '90s'],
  );
});

test("a trigger's tooltip says how it notifies, when it runs and what it compares with", () => {
  const tooltip = present(
    trigger({
      alert_type: 'on_true',
      evaluation_schedule_type: 'window',
      evaluation_schedule: { window: { days_of_week: ['monday', 'friday'], start_time: '09:00', end_time: '17:00' } },
      baseline_details: { type: 'percentage', offset_minutes: 10080 },
    }),
  ).tooltip;
  assert.equal(row(tooltip, 'Notifies'), 'at every run while the threshold is met (on_true)');
  assert.equal(row(tooltip, 'Runs'), 'Mon, Fri 09:00-17:00 UTC');
  assert.equal(row(tooltip, 'Compared with'), 'change in percent from a week before');
});

test('a trigger with neither alert type nor schedule type is explained by the defaults it gets', () => {
  const tooltip = present(trigger({})).tooltip;
  assert.equal(row(tooltip, 'Notifies'), 'once each time the result crosses the threshold (on_change, the default)');
  assert.equal(row(tooltip, 'Runs'), 'all the time (frequency, the default)');
  assert.equal(row(tooltip, 'Compared with'), undefined);
});

test("a burn alert's tooltip says what it fires on, with the service's name for it", () => {
  const alert: TreeNode = {
    kind: 'burnAlert',
    connectionId: 'c',
    dataset: 'gateway',
    sloId: 'slo1',
    alert: {
      id: 'ba1',
      alert_type: 'budget_rate',
      budget_rate_window_minutes: 60,
      budget_rate_decrease_threshold_per_million: 10_000,
    },
  };
  assert.equal(row(present(alert).tooltip, 'Fires on'), 'how fast the budget drops (budget_rate)');
});

test('a tooltip time is relative to when it is shown, in the display language, with the exact UTC time', () => {
  const updated = trigger({ updated_at: '2026-11-24T09:00:07.250Z' });
  const shownAt = Date.parse('2026-11-24T12:10:00Z');
  assert.equal(row(present(updated, { now: shownAt }).tooltip, 'Updated'), '3 hours ago (2026-11-24 09:00:07 UTC)');
  assert.equal(
    row(present(updated, { now: shownAt, language: 'de' }).tooltip, 'Updated'),
    'vor 3 Stunden (2026-11-24 09:00:07 UTC)',
  );
});

test('without the moment it is shown, a tooltip gives only the exact UTC time', () => {
  assert.equal(
    row(present(trigger({ updated_at: '2026-11-24T09:00:07Z' })).tooltip, 'Updated'),
    '2026-11-24 09:00:07 UTC',
  );
});

test('a time the service sends in another form is shown as it is, never read as a date', () => {
  const lastWritten = (text: string) => {
    const column: TreeNode = {
      kind: 'column',
      connectionId: 'c',
      dataset: 'gateway',
      column: { key_name: 'duration_ms', type: 'float', hidden: false, last_written: text },
    };
    return row(present(column, { now: 0 }).tooltip, 'Last written');
  };
  // Date.parse reads "1" as 2001-01-01 and "Nov 24 2026" in the local zone.
  assert.deepEqual(['yesterday-ish', '1', 'Nov 24 2026', '2026-11-24'].map(lastWritten), [
    'yesterday-ish',
    '1',
    'Nov 24 2026',
    '2026-11-24',
  ]);
});

test('a time with a zone offset is shown in UTC', () => {
  const trigger2 = trigger({ updated_at: '2026-11-24T10:00:07+01:00' });
  assert.equal(row(present(trigger2).tooltip, 'Updated'), '2026-11-24 09:00:07 UTC');
});

test('a column that never received data was never written', () => {
  const column: TreeNode = {
    kind: 'column',
    connectionId: 'c',
    dataset: 'gateway',
    column: { key_name: 'duration_ms', type: 'float', hidden: false },
  };
  assert.equal(row(present(column, { now: 0 }).tooltip, 'Last written'), 'never');
});

test("an API key's creation time reads the same way", () => {
  const key: TreeNode = {
    kind: 'apiKey',
    connectionId: 'c',
    key: { id: 'hcxik_01', name: 'ingest', keyType: 'ingest', disabled: false, createdAt: '2026-11-20T12:10:00Z' },
  };
  assert.equal(
    row(present(key, { now: Date.parse('2026-11-24T12:10:00Z') }).tooltip, 'Created'),
    '4 days ago (2026-11-20 12:10:00 UTC)',
  );
});

test("a tooltip stays short however long the service's texts are: each cut at 1,000 characters, the whole under 10,000", () => {
  const huge = 'd'.repeat(1_000_000);
  const column: TreeNode = {
    kind: 'column',
    connectionId: 'c',
    dataset: 'gateway',
    column: { id: 'col1', key_name: 'k'.repeat(1_000_000), type: 'string', description: huge, hidden: false } as Column,
  };
  const md = tooltipMarkdown(present(column).tooltip ?? { title: '', rows: [] });
  assert.ok(md.length <= TOOLTIP_MARKDOWN_MAX, `${md.length} characters`);
  assert.ok(
    md.includes(`${'d'.repeat(1000)}\u2026 \\(shortened\\; 1000000 characters in all\\)`),
    'the description is cut and says so',
  );
  assert.ok(!md.includes('d'.repeat(1001)));
  assert.match(md, /Id: col1/, 'the rows after the description are still shown');

  // Lines of spaces escape to six times their length (&nbsp;); thousands of long recipients and tags.
  const longTrigger = trigger({
    name: ` \n`.repeat(500_000),
    description: ` \n`.repeat(500_000),
    recipients: Array.from({ length: 10_000 }, (_, i) => ({
      id: `rcp_${i}`,
      type: 'email' as const,
      target: `${'t'.repeat(1000)}@example.com`,
    })),
    tags: Array.from({ length: 10_000 }, (_, i) => ({ key: `k${i}`, value: 'v'.repeat(1000) })),
    id: 'trig_long',
  });
  const triggerMd = tooltipMarkdown(present(longTrigger).tooltip ?? { title: '', rows: [] });
  assert.ok(triggerMd.length <= TOOLTIP_MARKDOWN_MAX, `${triggerMd.length} characters`);
  assert.ok(triggerMd.endsWith('\\(more not shown\\: the tooltip would be too long\\)'), triggerMd.slice(-200));
});

test('capText cuts after the limit, never inside a surrogate pair, and leaves short text alone', () => {
  assert.equal(capText('short', 10), 'short');
  assert.equal(capText(`${'a'.repeat(9)}\u{1F600}b`, 10), `${'a'.repeat(9)}\u2026 (shortened; 12 characters in all)`);
  assert.equal(capText('abcdefghijkl', 10), 'abcdefghij\u2026 (shortened; 12 characters in all)');
});

test("a click opens a row's natural view: a trigger as read-only JSON, a burn alert in its edit form; a column has no click action", () => {
  const t = trigger({});
  assert.deepEqual(present(t).command, { id: 'obs.trigger.open', title: 'Open Trigger as JSON', args: [t] });
  const alert: TreeNode = {
    kind: 'burnAlert',
    connectionId: 'c',
    dataset: 'gateway',
    sloId: 's1',
    alert: { id: 'ba1', alert_type: 'exhaustion_time', exhaustion_minutes: 60 },
  } as TreeNode;
  assert.deepEqual(present(alert).command, { id: 'obs.burnAlert.edit', title: 'Edit Burn Alert', args: [alert] });
  const column: TreeNode = {
    kind: 'column',
    connectionId: 'c',
    dataset: 'gateway',
    column: { id: 'c1', key_name: 'duration_ms', type: 'float' } as Column,
  };
  assert.equal(present(column).command, undefined);
});

test("a trigger's row and tooltip say whether the workspace's trigger file matches the service, in the Drift view's words", () => {
  const errors = trigger({ triggered: true, alert_type: 'on_change', frequency: 300 });
  const file = 'triggers/gateway/High-error-rate.trigger.json';
  const shown = (drift: TriggerFileState | undefined) => {
    const p = present(errors, { drift });
    return [p.description, row(p.tooltip, 'Trigger file')];
  };
  assert.deepEqual(shown({ kind: 'in-sync', file }), [
    'triggered · notify on change · every 5m · in sync',
    `${file}, in sync with the service`,
  ]);
  assert.deepEqual(shown({ kind: 'differs', file, members: ['threshold', 'frequency'] }), [
    'triggered · notify on change · every 5m · differs: threshold, frequency',
    `${file}, differs from the service in threshold, frequency`,
  ]);
  assert.deepEqual(shown({ kind: 'service-only' }), [
    'triggered · notify on change · every 5m · only on the service',
    'none: only on the service (pull the dataset to write it)',
  ]);
  assert.deepEqual(
    shown(undefined),
    ['triggered · notify on change · every 5m', undefined],
    'no file compared: nothing said',
  );
});
