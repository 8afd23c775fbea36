// The editor's pulls naming recipients as obs.pullRecipients asks (src/extension/sync/pullRecipients.ts): by
// id unless the setting says target; by target, as the team's list names each recipient, one the list gives no
// target kept by id and logged once; without the list, every id kept and the log says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccountRecipient } from '../../src/api/schemas/account';
import { Settings, type ConfigurationSource } from '../../src/extension/core/settings';
import { namedAsSet } from '../../src/extension/sync/pullRecipients';
import { triggersByTarget, type PullItem, type RecipientLister } from '../../src/triggerFiles';

const TEAM: AccountRecipient[] = [
  { id: 'rcp_mail', type: 'email', details: { email_address: 'oncall@example.com' } },
  { id: 'rcp_hook', type: 'webhook', details: {} },
];

const item = (id: string, recipients: unknown[]): PullItem => ({
  dataset: 'api',
  trigger: { id, name: id, dataset_slug: 'api', recipients },
});
const ITEMS = [item('t1', [{ id: 'rcp_mail' }, { id: 'rcp_hook' }]), item('t2', [{ id: 'rcp_hook' }])];

function logged() {
  const lines: string[] = [];
  return { lines, log: { info: (m: string) => lines.push(`info ${m}`), warn: (m: string) => lines.push(`warn ${m}`) } };
}

const listing = (data: AccountRecipient[]): RecipientLister => ({ listRecipients: async () => ({ data }) });

test('obs.pullRecipients reads target only when set so, id otherwise', () => {
  const of = (value: unknown) => {
    const src: ConfigurationSource = {
      get: (key) => (key === 'obs.pullRecipients' ? value : undefined),
      inspect: () => undefined,
      update: async () => undefined,
      onDidChange: () => ({ dispose: () => undefined }),
    };
    return new Settings(src).pullRecipients();
  };
  assert.deepEqual([of('target'), of('id'), of(undefined), of('address')], ['target', 'id', 'id', 'id']);
});

test('by target, each recipient is named as the team names it; one without a target keeps its id', async () => {
  const { lines, log } = logged();
  const items = await namedAsSet('target', listing(TEAM), ITEMS, triggersByTarget, log);
  assert.deepEqual(
    items.map((i) => i.trigger.recipients),
    [[{ type: 'email', target: 'oncall@example.com' }, { id: 'rcp_hook' }], [{ id: 'rcp_hook' }]],
  );
  assert.deepEqual(lines, [
    'info pull: recipient rcp_hook is written by id, not by type and target: ' +
      "the team's list gives this webhook recipient no target",
  ]);
});

test("by target without the team's list, every recipient keeps its id and the log says why", async () => {
  const { lines, log } = logged();
  const refusing: RecipientLister = { listRecipients: () => Promise.reject(new Error('forbidden')) };
  const items = await namedAsSet('target', refusing, ITEMS, triggersByTarget, log);
  assert.deepEqual(items, ITEMS);
  assert.deepEqual(lines, [
    "warn pull: the team's recipients could not be listed (forbidden): the files name recipients by id",
  ]);
});
