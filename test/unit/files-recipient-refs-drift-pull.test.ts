// Drift and pull of recipients named by type and target, without a service: drift compares what a reference
// resolves to and, without the team's list, says the recipients could not be compared rather than that they
// differ; pull by target names each recipient as the team's list does, and keeps by id (said once) one the list
// gives no target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccountRecipient } from '../../src/api/schemas/account';
import {
  driftOfFile,
  keptByIdText,
  readTriggerFile,
  ServiceIndex,
  TeamRecipients,
  triggersByTarget,
  withReferencesResolved,
} from '../../src/triggerFiles';
import type { ServiceTrigger } from '../../src/triggerFiles/drift';

const TEAM: AccountRecipient[] = [
  { id: 'rcp_pd', type: 'pagerduty', details: { pagerduty_integration_name: 'Checkout on-call' } },
  { id: 'rcp_pd_unnamed', type: 'pagerduty', details: {} },
  { id: 'rcp_mail', type: 'email', details: { email_address: 'oncall@example.com' } },
];

const QUERY = { calculations: [{ op: 'COUNT' }], time_range: 900 };
const held = (recipients: unknown[], id = 'tr_1', name = 'Errors'): ServiceTrigger => ({
  id,
  dataset_slug: 'api',
  name,
  threshold: { op: '>', value: 5 },
  query: QUERY,
  recipients,
});

const indexOf = (triggers: ServiceTrigger[]) => {
  const index = new ServiceIndex();
  index.add('api', { state: 'listed', triggers });
  return index;
};

const fileNaming = (recipients: unknown[]) =>
  readTriggerFile(
    JSON.stringify({
      id: 'tr_1',
      dataset_slug: 'api',
      name: 'Errors',
      threshold: { op: '>', value: 5 },
      query: QUERY,
      recipients,
    }),
  );

test('a paging recipient named by its integration name is in sync with the trigger that holds its id', () => {
  // The service answers a paging recipient named by id with an empty target.
  const index = indexOf([held([{ id: 'rcp_pd', type: 'pagerduty', target: '' }])]);
  const read = withReferencesResolved(
    fileNaming([{ type: 'pagerduty', target: 'Checkout on-call' }]),
    new TeamRecipients(TEAM),
  );
  assert.deepEqual(
    driftOfFile('errors.json', read, index).triggers.map((t) => [t.status, t.differences]),
    [['in-sync', []]],
  );
});

test("without the team's list, a reference the service does not hold so is not compared, not said to differ", () => {
  const index = indexOf([held([{ id: 'rcp_pd', type: 'pagerduty', target: '' }])]);
  const read = withReferencesResolved(fileNaming([{ type: 'pagerduty', target: 'Checkout on-call' }]), undefined);
  assert.deepEqual(
    driftOfFile('errors.json', read, index).triggers.map((t) => [t.status, t.reason, t.differences]),
    [
      [
        'unknown',
        'its recipients could not be compared: pagerduty recipient "Checkout on-call" could not be resolved: ' +
          "the team's recipients could not be listed",
        [],
      ],
    ],
  );
});

test('pulled by target, a recipient the list gives no target keeps its id, said once for all triggers', () => {
  const items = [
    { dataset: 'api', trigger: held([{ id: 'rcp_pd', type: 'pagerduty', target: '' }, { id: 'rcp_pd_unnamed' }]) },
    {
      dataset: 'api',
      trigger: held([{ id: 'rcp_pd_unnamed', details: { pagerduty_severity: 'info' } }], 'tr_2', 'Slow'),
    },
  ];
  const pulled = triggersByTarget(items, new TeamRecipients(TEAM));
  assert.deepEqual(
    pulled.items.map((i) => i.trigger.recipients),
    [
      [{ type: 'pagerduty', target: 'Checkout on-call' }, { id: 'rcp_pd_unnamed' }],
      [{ id: 'rcp_pd_unnamed', details: { pagerduty_severity: 'info' } }],
    ],
  );
  assert.deepEqual(pulled.kept.map(keptByIdText), [
    'recipient rcp_pd_unnamed is written by id, not by type and target: ' +
      "the team's list gives this pagerduty recipient no target",
  ]);
});
