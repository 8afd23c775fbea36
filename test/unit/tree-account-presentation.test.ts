// How what the account holds reads in the Datasets view: a listed dataset (its description, last write
// relative and in UTC, column count), an SLO by name with its target and period in the display language,
// recipients by name in trigger and burn alert tooltips, and an inline query listed with a query id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccountRecipient, BurnAlert, Trigger } from '../../src/api/schemas';
import { RecipientDirectory, recipientName } from '../../src/extension/core/recipients';
import { tooltipMarkdown } from '../../src/extension/core/text';
import { formatPeriod, formatTarget } from '../../src/extension/tree/accountPresentation';
import type { DatasetNode, SloNode, TreeNode } from '../../src/extension/tree/nodes';
import { present } from '../../src/extension/tree/presentation';

const NOW = Date.parse('2026-11-24T12:10:00Z');
const md = (node: TreeNode, o: Parameters<typeof present>[1] = {}): string =>
  tooltipMarkdown(present(node, { now: NOW, ...o }).tooltip ?? { title: '', rows: [] });

const RECIPIENTS: AccountRecipient[] = [
  { id: 'rcp_pd', type: 'pagerduty', details: { pagerduty_integration_name: 'On-call' } },
  { id: 'rcp_mail', type: 'email', details: { email_address: 'ops@example.com' } },
  { id: 'rcp_slack', type: 'slack', details: { slack_channel: '#alerts' } },
  { id: 'rcp_hook', type: 'webhook', details: { webhook_name: 'Deploys' } },
  { id: 'rcp_new', type: 'opsgenie' },
  { id: 'rcp_teams', type: 'msteams_workflow', details: { webhook_name: 'Ops workflow' } },
];
const directory = new RecipientDirectory(RECIPIENTS);

test('a recipient reads as its name and its type; a type the service adds later as the service names it', () => {
  assert.deepEqual(RECIPIENTS.map(recipientName), [
    'On-call (PagerDuty)',
    'ops@example.com (email)',
    '#alerts (Slack)',
    'Deploys (webhook)',
    'rcp_new (opsgenie)',
    'Ops workflow (Microsoft Teams workflow)',
  ]);
});

const trigger = (t: Partial<Trigger>): TreeNode => ({
  kind: 'trigger',
  connectionId: 'c',
  dataset: 'gateway',
  trigger: { id: 't1', name: 'High error rate', ...t } as Trigger,
});

test("a trigger's tooltip names its recipients; an id the account does not list says so; one by type and target stays as written", () => {
  const node = trigger({
    recipients: [
      { id: 'rcp_mail', type: 'email', target: 'ops@example.com' },
      { id: 'rcp_pd' },
      { id: 'rcp_gone', type: 'email', target: 'x@example.com' },
      { type: 'slack', target: '#legacy' },
    ],
  });
  const row = present(node, { recipients: directory }).tooltip?.rows.find((r) => r.label === 'Recipients')?.value;
  assert.equal(
    row,
    'ops@example.com (email); On-call (PagerDuty); rcp_gone (not among the recipients the service lists) email: x@example.com; slack: #legacy (deprecated: named by type and target)',
  );
});

test("without the account's recipients a trigger's tooltip shows the ids as before", () => {
  const row = present(
    trigger({ recipients: [{ id: 'rcp_pd' }, { id: 'rcp_mail', type: 'email', target: 'ops@example.com' }] }),
  ).tooltip?.rows.find((r) => r.label === 'Recipients')?.value;
  assert.equal(row, 'rcp_pd; rcp_mail email: ops@example.com');
});

test("a burn alert's tooltip names its recipients", () => {
  const alert: TreeNode = {
    kind: 'burnAlert',
    connectionId: 'c',
    dataset: 'gateway',
    sloId: 's1',
    alert: {
      id: 'ba1',
      alert_type: 'exhaustion_time',
      exhaustion_minutes: 60,
      recipients: [{ id: 'rcp_slack' }, { id: 'rcp_hook' }],
    } as BurnAlert,
  };
  assert.match(md(alert, { recipients: directory }), /Recipients: \\#alerts \\\(Slack\\\)\\; Deploys \\\(webhook\\\)/);
});

test('a trigger listed with both query and query_id has an inline query (the id is the saved copy the service made of it)', () => {
  const query = (t: Partial<Trigger>) => present(trigger(t)).tooltip?.rows.find((r) => r.label === 'Query')?.value;
  assert.equal(
    query({ query: { calculations: [{ op: 'COUNT' }], time_range: 900 }, query_id: 'q_t1' } as Partial<Trigger>),
    'inline query',
  );
  assert.equal(query({ query_id: 'q_saved' }), 'saved query q_saved');
});

const dataset = (listed: DatasetNode['listed'], more: Partial<DatasetNode> = {}): DatasetNode => ({
  kind: 'dataset',
  connectionId: 'c',
  slug: 'api-gateway',
  added: false,
  discovered: false,
  metrics: false,
  ...(listed ? { listed } : {}),
  ...more,
});

test("a listed dataset's tooltip: its description, last written relative and in UTC, its column count", () => {
  const node = dataset({
    name: 'API gateway',
    description: 'Requests through the edge.',
    lastWrittenAt: '2026-11-24T09:00:07Z',
    columns: 21,
    createdAt: '2026-11-20T12:10:00Z',
    deleteProtected: true,
  });
  assert.equal(
    md(node),
    [
      '**api\\-gateway**',
      '',
      'Requests through the edge\\.',
      '',
      [
        'Name: API gateway',
        'Last written: 3 hours ago \\(2026\\-11\\-24 09\\:00\\:07 UTC\\)',
        'Columns: 21',
        'Created: 4 days ago \\(2026\\-11\\-20 12\\:10\\:00 UTC\\)',
        'Delete protected: yes',
        'Source: listed by the service',
      ].join('  \n'),
    ].join('\n'),
  );
  assert.deepEqual([present(node).description, present(node).icon], ['', { id: 'database' }]);
});

test('a listed dataset that never received data is dimmed, says "no data yet", and its tooltip says never and no columns yet', () => {
  const node = dataset({ name: 'Empty dataset' }, { added: true, metrics: true });
  const p = present(node);
  assert.deepEqual([p.description, p.icon], ['metrics · no data yet', { id: 'database', color: 'disabledForeground' }]);
  assert.equal(
    md(node),
    '**api\\-gateway**\n\nName: Empty dataset  \nLast written: never \\(no data yet\\)  \nColumns: none yet  \nSource: listed by the service\\, added by you  \nMetrics dataset: yes',
  );
});

test('a dataset the service did not list reads as before: added by you, or discovered', () => {
  assert.deepEqual(
    [
      present(dataset(undefined, { discovered: true })).description,
      present(dataset(undefined, { added: true })).description,
    ],
    ['discovered', ''],
  );
  assert.equal(
    md(dataset(undefined, { discovered: true })),
    '**api\\-gateway**\n\nSource: discovered from environment\\-wide triggers',
  );
});

const slo = (listed: SloNode['slo'], more: Partial<SloNode> = {}): SloNode => ({
  kind: 'slo',
  connectionId: 'c',
  dataset: 'api-gateway',
  sloId: 'slo_gw',
  ...(listed ? { slo: listed } : {}),
  ...more,
});

test('an SLO reads by name with its target and period, in the display language, and its alert count once known', () => {
  const node = slo({ name: 'Gateway availability', targetPerMillion: 999_000, periodDays: 30 });
  assert.deepEqual([present(node).label, present(node).description], ['Gateway availability', '99.9% · 30 days']);
  // German puts a no-break space before the percent sign.
  assert.equal(present(node, { language: 'de' }).description, '99,9\u00A0% · 30 Tage');
  assert.equal(present(node, { counts: { visible: 2, total: 2 } }).description, '99.9% · 30 days · 2 alerts');
  assert.deepEqual(
    [formatTarget(999_950), formatTarget(990_000), formatTarget(0), formatPeriod(1), formatPeriod(7)],
    ['99.995%', '99%', '0%', '1 day', '7 days'],
  );
});

test("an SLO's tooltip: description, target, period, SLI, id and dataset", () => {
  const node = slo(
    {
      name: 'Gateway availability',
      description: '99.9% succeed.',
      targetPerMillion: 999_000,
      periodDays: 30,
      sli: 'dc.ok',
    },
    { added: true },
  );
  assert.equal(
    md(node),
    '**Gateway availability**\n\n99\\.9\\% succeed\\.\n\nTarget: 99\\.9\\%  \nPeriod: 30 days  \nSLI: dc\\.ok  \nId: slo\\_gw  \nDataset: api\\-gateway  \nSource: listed by the service\\, added by you',
  );
});

test('an SLO known only by the id the user added reads as before', () => {
  const node = slo(undefined, { added: true });
  assert.deepEqual(
    [present(node).label, present(node).description, present(node).contextValue],
    ['slo_gw', 'SLO', 'obs:slo'],
  );
  assert.equal(md(node), '**SLO slo\\_gw**\n\nId: slo\\_gw  \nDataset: api\\-gateway  \nSource: added by you');
});

test('an environment-wide SLO names the datasets it spans', () => {
  const node = slo({ name: 'Uptime', datasets: ['api-gateway', 'checkout'] }, { dataset: '__all__' });
  assert.match(md(node), /Datasets: api\\-gateway\\, checkout/);
});

test('a Burn alerts group whose alerts are not all counted says how many SLOs it holds', () => {
  const group: TreeNode = { kind: 'group', connectionId: 'c', dataset: 'api-gateway', group: 'burnAlerts' };
  assert.deepEqual(
    [
      present(group, { slos: 3 }).description,
      present(group, { slos: 1 }).description,
      present(group, { slos: 0 }).description,
    ],
    ['3 SLOs', '1 SLO', 'no SLOs'],
  );
  assert.equal(present(group).description, undefined, 'nothing before its SLOs are listed');
});

test('a Burn alerts group whose alerts are counted names both units: its SLOs and their alerts', () => {
  const group: TreeNode = { kind: 'group', connectionId: 'c', dataset: 'api-gateway', group: 'burnAlerts' };
  const counted = (slos: number, alerts: number) =>
    present(group, { slos, counts: { visible: alerts, total: alerts } }).description;
  assert.deepEqual(
    [counted(3, 5), counted(1, 1), counted(1, 0), counted(0, 0)],
    ['3 SLOs · 5 alerts', '1 SLO · 1 alert', '1 SLO · 0 alerts', 'no SLOs'],
  );
});
