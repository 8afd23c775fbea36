// Recipients by name: the active connection's list (one GET /1/recipients per connection, kept until
// Refresh, a refusal said once), the editor's completion and hover on `recipients[].id` in trigger files,
// and drift naming the recipients of a difference.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccountRecipient } from '../../src/api/schemas';
import { AccountRecipients, type RecipientLister } from '../../src/extension/core/accountRecipients';
import { RecipientDirectory } from '../../src/extension/core/recipients';
import { runLintJob } from '../../src/extension/diagnostics/lintJobs';
import { recipientFieldAt } from '../../src/extension/diagnostics/recipientField';
import { recipientCompletions, recipientHoverMarkdown } from '../../src/extension/diagnostics/recipientItems';
import { differenceItems, lensesOf, recipientNote } from '../../src/extension/sync/driftPresentation';
import { planDocumentText } from '../../src/extension/sync/applyPlanText';
import type { FileDrift, Plan } from '../../src/triggerFiles';

const LIST: AccountRecipient[] = [
  { id: 'rcp_pd', type: 'pagerduty', details: { pagerduty_integration_name: 'On-call' } },
  { id: 'rcp_mail', type: 'email', details: { email_address: 'ops@example.com' } },
  { id: 'rcp_slack', type: 'slack', details: { slack_channel: '#alerts' } },
];
const refused = (status: number) =>
  Object.assign(new Error(`list recipients failed: HTTP ${status}`), {
    name: 'ServiceError',
    kind: 'http',
    operation: 'list recipients',
    status,
  });

/** A client whose list answers `answer()` and counts its calls. */
function lister(answer: () => Promise<AccountRecipient[]>): RecipientLister & { calls: number } {
  const l = {
    calls: 0,
    listRecipients: async () => {
      l.calls++;
      return { data: await answer() };
    },
  };
  return l;
}

function setup(o: { clients?: Map<string, RecipientLister>; active?: string; now?: () => number } = {}) {
  const client = lister(async () => LIST);
  const clients = o.clients ?? new Map<string, RecipientLister>([['c1', client]]);
  let active: string | undefined = o.active ?? 'c1';
  const logs: string[] = [];
  let changes = 0;
  const recipients = new AccountRecipients({
    connection: () => active,
    client: async (id) => clients.get(id) ?? client,
    log: (m) => logs.push(m),
    ...(o.now ? { now: o.now, retryMs: 1000 } : {}),
  });
  recipients.onDidChange(() => changes++);
  return { recipients, client, logs, changes: () => changes, activate: (id: string | undefined) => (active = id) };
}

describe("the active connection's recipients", () => {
  test('are read with one call however often they are asked for, then known by id', async () => {
    const { recipients, client, changes } = setup();
    assert.equal(recipients.known(), undefined, 'nothing is named before the list is in');
    for (let i = 0; i < 5; i++) recipients.want();
    const [a, b] = await Promise.all([recipients.directory(), recipients.directory()]);
    assert.equal(client.calls, 1);
    assert.equal(a, b);
    assert.equal(recipients.known()?.nameOf('rcp_pd'), 'On-call (PagerDuty)');
    assert.equal(changes(), 1, 'their arrival is announced once');
  });

  test('Refresh reads them again', async () => {
    const { recipients, client } = setup();
    await recipients.directory();
    recipients.refresh();
    await recipients.directory();
    assert.equal(client.calls, 2);
  });

  for (const status of [401, 403, 404, 405]) {
    test(`a list refused with ${status} is said once in the log and not asked for again until Refresh; nothing is named`, async () => {
      const client = lister(() => Promise.reject(refused(status)));
      const { recipients, logs } = setup({ clients: new Map([['c1', client]]) });
      assert.equal(await recipients.directory(), undefined);
      recipients.want();
      assert.equal(await recipients.directory(), undefined);
      assert.equal(client.calls, 1);
      assert.equal(logs.length, 1);
      assert.match(
        logs[0] ?? '',
        new RegExp(`^recipients are not listed: .*\\(${status}\\); recipient ids are shown as they are$`),
      );
      assert.equal(recipients.known(), undefined);
      recipients.refresh();
      await recipients.directory();
      assert.equal(client.calls, 2);
    });
  }

  test('a list that failed (offline) is asked for again only after a while', async () => {
    let now = 0;
    let online = false;
    const client = lister(() => (online ? Promise.resolve(LIST) : Promise.reject(new Error('connect ECONNREFUSED'))));
    const { recipients } = setup({ clients: new Map([['c1', client]]), now: () => now });
    assert.equal(await recipients.directory(), undefined);
    online = true;
    assert.equal(await recipients.directory(), undefined, 'not asked again at once');
    now = 1000;
    assert.equal((await recipients.directory())?.list.length, 3);
    assert.equal(client.calls, 2);
  });

  test('each connection has its own list; a connection whose client changed (new keys) is read again', async () => {
    const c1 = lister(async () => LIST);
    const c2 = lister(async () => [LIST[0] as AccountRecipient]);
    const clients = new Map<string, RecipientLister>([
      ['c1', c1],
      ['c2', c2],
    ]);
    const { recipients, activate } = setup({ clients });
    await recipients.directory();
    activate('c2');
    assert.equal(recipients.known(), undefined, "the other connection's list is not this one's");
    assert.equal((await recipients.directory())?.list.length, 1);
    clients.set(
      'c2',
      lister(async () => LIST),
    );
    assert.equal((await recipients.directory())?.list.length, 3);
    activate(undefined);
    assert.equal(await recipients.directory(), undefined);
    assert.deepEqual([c1.calls, c2.calls], [1, 1]);
  });

  test("a removed connection's list is forgotten", async () => {
    const { recipients, client } = setup();
    await recipients.directory();
    recipients.keepOnly([]);
    assert.equal(recipients.known(), undefined);
    await recipients.directory();
    assert.equal(client.calls, 2);
  });
});

describe('recipients[].id in a trigger file', () => {
  const one = '{\n  "name": "x",\n  "id": "trig_1",\n  "recipients": [{ "id": "rcp_ma" }, { "id": }]\n}';
  const at = (text: string, marker: string, delta = 0) => text.indexOf(marker) + delta;

  test('the field is found inside the id string of a recipient, with the offsets of its content', () => {
    const offset = at(one, 'rcp_ma', 3);
    assert.deepEqual(recipientFieldAt(one, offset), {
      kind: 'string',
      value: 'rcp_ma',
      start: at(one, 'rcp_ma'),
      end: at(one, 'rcp_ma', 6),
    });
  });

  test('an id with no value yet is a place to insert a quoted id', () => {
    assert.deepEqual(recipientFieldAt(one, at(one, '"id": }', 6)), { kind: 'empty' });
  });

  test("the trigger's own id, a member name and a string being typed without its closing quote", () => {
    assert.equal(recipientFieldAt(one, at(one, 'trig_1', 2)), undefined, "the trigger's id is no recipient");
    assert.equal(recipientFieldAt(one, at(one, '"id": "rcp', 2)), undefined, 'on the member name');
    const typing = '[{ "recipients": [{ "id": "rc\n';
    assert.deepEqual(recipientFieldAt(typing, typing.length - 1), {
      kind: 'string',
      value: 'rc',
      start: typing.length - 3,
      end: typing.length - 1,
    });
  });

  test('the lint worker answers where the field is (the job the editor posts)', () => {
    assert.deepEqual(runLintJob({ kind: 'recipientAt', text: one, offset: at(one, 'rcp_ma', 1) }), {
      kind: 'recipientAt',
      field: { kind: 'string', value: 'rcp_ma', start: at(one, 'rcp_ma'), end: at(one, 'rcp_ma', 6) },
    });
  });

  test('completion offers every recipient: label its name, detail its type, inserting its id over the typed text', () => {
    const items = recipientCompletions(new RecipientDirectory(LIST), {
      kind: 'string',
      value: 'rc',
      start: 10,
      end: 12,
    });
    assert.deepEqual(
      items.map((i) => [i.label, i.detail, i.insertText, i.filterText, i.replace]),
      [
        ['#alerts', 'Slack', 'rcp_slack', '#alerts rcp_slack', { start: 10, end: 12 }],
        ['On-call', 'PagerDuty', 'rcp_pd', 'On-call rcp_pd', { start: 10, end: 12 }],
        ['ops@example.com', 'email', 'rcp_mail', 'ops@example.com rcp_mail', { start: 10, end: 12 }],
      ],
    );
  });

  test('completion where the id has no value yet inserts the id quoted', () => {
    assert.deepEqual(
      recipientCompletions(new RecipientDirectory(LIST), { kind: 'empty' }).map((i) => [i.insertText, i.replace]),
      [
        ['"rcp_slack"', undefined],
        ['"rcp_pd"', undefined],
        ['"rcp_mail"', undefined],
      ],
    );
  });

  test('hovering an id names its recipient (service text escaped)', () => {
    assert.equal(
      recipientHoverMarkdown(LIST[0] as AccountRecipient),
      '**On\\-call \\(PagerDuty\\)**\n\nRecipient id: rcp\\_pd  \nType: pagerduty',
    );
  });
});

describe('drift names the recipients of a difference', () => {
  const directory = new RecipientDirectory(LIST);
  const drift: FileDrift = {
    file: 'file:///w/triggers/api/errors.trigger.json',
    status: 'differs',
    triggers: [
      {
        status: 'differs',
        index: -1,
        name: 'Errors',
        dataset: 'api',
        service: { id: 't1', name: 'Errors', dataset_slug: 'api' },
        differences: [
          { path: 'recipients[0].id', member: 'recipients', service: 'rcp_pd', local: 'rcp_gone' },
          { path: 'threshold.value', member: 'threshold', service: 5, local: 10 },
        ],
      },
    ],
  };

  test('a changed id: both sides by name, an id the account does not list said so', () => {
    const d = drift.triggers[0]?.differences[0];
    assert.ok(d);
    assert.equal(
      recipientNote(d, directory),
      'rcp_pd is On-call (PagerDuty); rcp_gone is rcp_gone (not among the recipients the service lists)',
    );
    assert.equal(recipientNote(d, undefined), undefined, 'without the list nothing is named');
  });

  test('a changed list of recipients names every id in it, each once', () => {
    const note = recipientNote(
      {
        path: 'recipients',
        member: 'recipients',
        service: [{ id: 'rcp_mail' }],
        local: [{ id: 'rcp_mail' }, { id: 'rcp_slack', details: { id: 'x' } }],
      },
      directory,
    );
    assert.equal(note, 'rcp_mail is ops@example.com (email); rcp_slack is #alerts (Slack)');
  });

  test('the lens tooltip and the Drift view rows name them; other differences are as they were', () => {
    assert.equal(
      lensesOf(drift, 'prod', 'ready', directory)[0]?.tooltip,
      'recipients[0].id: "rcp_pd" -> "rcp_gone" (rcp_pd is On-call (PagerDuty); rcp_gone is rcp_gone (not among the recipients the service lists))\nthreshold.value: 5 -> 10',
    );
    assert.deepEqual(
      differenceItems(drift, directory).map((i) => (i.kind === 'difference' ? [i.label, i.description] : [])),
      [
        [
          'recipients[0].id: "rcp_pd" -> "rcp_gone"',
          'rcp_pd is On-call (PagerDuty); rcp_gone is rcp_gone (not among the recipients the service lists)',
        ],
        ['threshold.value: 5 -> 10', undefined],
      ],
    );
  });
});

test("the apply plan names the recipients of an update's differences when the connection's recipients are known", () => {
  const plan: Plan = {
    format: 'obs-trigger-plan',
    version: 3,
    createdAt: '2026-11-26T12:00:00.000Z',
    target: { baseUrl: 'http://127.0.0.1:4321', connection: 'Sandbox', key: { salt: '', sha256: '' } },
    inputs: { scope: { kind: 'files' }, allowUnknownColumns: false, matchByName: false },
    prune: false,
    files: [{ file: 'triggers/api/Errors.trigger.json', sha256: 'y' }],
    changes: [
      {
        kind: 'trigger',
        action: 'update',
        file: 'triggers/api/Errors.trigger.json',
        index: -1,
        dataset: 'api',
        name: 'Errors',
        id: 't1',
        matchedBy: 'id',
        differences: [{ path: 'recipients[0].id', member: 'recipients', service: 'rcp_pd', local: 'rcp_slack' }],
        body: {},
        service: { updatedAt: '2026-11-20T00:00:00Z', sha256: 'abc' },
      },
    ],
    blocked: [],
    unchanged: 0,
  };
  const line = (text: string) => text.split('\n').find((l) => l.includes('recipients[0].id'));
  assert.equal(
    line(planDocumentText(plan, [], new RecipientDirectory(LIST))),
    '      recipients[0].id: "rcp_pd" -> "rcp_slack" (rcp_pd is On-call (PagerDuty); rcp_slack is #alerts (Slack))',
  );
  assert.equal(
    line(planDocumentText(plan)),
    '      recipients[0].id: "rcp_pd" -> "rcp_slack"',
    'without the list the ids are shown as they are',
  );
});

describe("a connection's recipients as a lister (drift resolving references)", () => {
  test('reads the one listing the tree reads: the team is listed once for both', async () => {
    const { recipients, client } = setup();
    const [fromDrift] = await Promise.all([recipients.listerOf('c1').listRecipients(), recipients.directory()]);
    assert.deepEqual(
      { ids: fromDrift.data.map((r) => r.id), calls: client.calls },
      { ids: ['rcp_pd', 'rcp_mail', 'rcp_slack'], calls: 1 },
    );
  });

  test('fails, naming why, when the list cannot be read', async () => {
    const client = lister(() => Promise.reject(refused(403)));
    const { recipients } = setup({ clients: new Map([['c1', client]]) });
    await assert.rejects(recipients.listerOf('c1').listRecipients(), {
      message: 'the recipients are not listed (the log says why)',
    });
  });
});
