// The burn alert form starts from the alert's real recipients (GET of one alert, service facts); where the
// service does not serve that call (404/405) it falls back to the list, and the recipients it cannot know
// are shown as unknown, never as an empty list.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api';
import type { BurnAlert } from '../../src/api/schemas';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox';
import { BurnAlertFormController, type ReviewSide } from '../../src/extension/forms/burnAlertController';
import { BURN_ALERT_TEXT } from '../../src/webview/protocol/text/burnAlertForm';

let sandbox: SandboxHandle;
let client: ServiceClient;
let clock = Date.parse('2025-01-01T00:00:00.000Z');

before(async () => {
  sandbox = await startSandbox({ rateLimit: 100_000, clock: () => (clock += 1000) });
  client = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey });
});
afterEach(() => sandbox.faults.clear());
after(async () => {
  await client.close();
  await sandbox.close();
});

const gw = DEMO.datasets.gateway;
const slo = DEMO.slos.gwAvailability;
const alertId = DEMO.burnAlerts.gwBudgetRate;
const onePath = `/1/burn_alerts/${gw}/${alertId}`;

function requests(method: string, path: string) {
  return sandbox.requests.filter((r) => r.method === method && r.path === path);
}

async function listed(): Promise<BurnAlert> {
  const alert = (await client.listBurnAlerts(gw, slo)).data.find((a) => a.id === alertId);
  assert.ok(alert);
  assert.equal(alert.recipients, undefined, 'the list carries no recipients (spec 4.3)');
  return alert;
}

function open(loaded?: BurnAlert, id: string = alertId) {
  const posted: Record<string, unknown>[] = [];
  const logs: string[] = [];
  const diffs: { left: ReviewSide; right: ReviewSide }[] = [];
  const form = new BurnAlertFormController({
    client: async () => client,
    context: { connectionId: 'conn-1', dataset: gw, sloId: slo, alertId: id },
    connectionName: 'Sandbox',
    loaded,
    post: (m) => posted.push(structuredClone(m) as Record<string, unknown>),
    log: {
      info: (m) => logs.push(`info ${m}`),
      warn: (m) => logs.push(`warn ${m}`),
      error: (m) => logs.push(`error ${m}`),
    },
    openDiff: async (left, right) => {
      diffs.push({ left, right });
    },
  });
  return { form, posted, logs, diffs, ofType: (type: string) => posted.filter((m) => m.type === type) };
}

const realRecipients = () => sandbox.state.burnAlerts.find((a) => a.id === alertId)?.recipients;

describe('burn alert form: recipients', () => {
  test("opened from the tree's list, the form starts from the alert's real recipients (GET of the one alert)", async () => {
    const f = open(await listed());
    await f.form.receive({ type: 'ready' });
    const init = f.ofType('init')[0];
    assert.deepEqual((init?.loaded as BurnAlert).recipients, realRecipients());
    assert.equal(requests('GET', onePath).length > 0, true);
  });

  test('saving an edit that leaves the recipients alone sends the real ones, not a guess', async () => {
    const f = open(await listed());
    await f.form.receive({ type: 'ready' });
    const before = requests('PUT', onePath).length;
    await f.form.receive({ type: 'submit', edits: { description: 'text only' } });
    const [sent] = requests('PUT', onePath).slice(before);
    assert.deepEqual((sent?.body as { recipients: unknown }).recipients, realRecipients());
  });

  test('the review diff shows the current recipients', async () => {
    const f = open(await listed());
    await f.form.receive({ type: 'ready' });
    await f.form.receive({ type: 'review', edits: { budget_rate_window_minutes: 90 } });
    assert.deepEqual((f.diffs[0]?.left.value as { recipients: unknown }).recipients, realRecipients());
  });

  for (const status of [405, 404]) {
    test(`where the one-alert GET answers ${status}, the form falls back to the list and shows the recipients as unknown, never []`, async () => {
      sandbox.faults.nextStatus(status, 10, 'auto', { match: { method: 'GET', path: onePath } });
      const f = open();
      await f.form.receive({ type: 'ready' });
      const init = f.ofType('init')[0];
      assert.equal((init?.loaded as BurnAlert).id, alertId);
      assert.equal((init?.loaded as BurnAlert).recipients, undefined);
      await f.form.receive({ type: 'review', edits: { budget_rate_window_minutes: 90 } });
      assert.equal((f.diffs[0]?.left.value as { recipients: unknown }).recipients, BURN_ALERT_TEXT.unknownRecipients);
      assert.equal((f.diffs[0]?.right.value as { recipients: unknown }).recipients, BURN_ALERT_TEXT.unknownRecipients);
      // Today's behaviour then: the user names the recipients, and saving sends exactly those.
      const before = requests('PUT', onePath).length;
      const chosen = [{ id: DEMO.recipients.emailTeam }];
      await f.form.receive({ type: 'submit', edits: { recipients: chosen } });
      const [sent] = requests('PUT', onePath).slice(before);
      assert.deepEqual((sent?.body as { recipients: unknown }).recipients, chosen);
    });
  }

  test('an alert that is gone (404, and not in the list) is said to be not found', async () => {
    const f = open(undefined, 'ba_gone');
    await f.form.receive({ type: 'ready' });
    assert.deepEqual(f.posted, [
      { type: 'status', message: `Burn alert ba_gone was not found in SLO ${slo}.`, failed: true },
    ]);
  });
});
