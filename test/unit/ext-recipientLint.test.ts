// The linter in a fake editor (vscode-fake.ts, with the real lint worker from dist/) checking the recipient
// ids of trigger files against the active connection's recipients: a warning with the nearest name once they
// are known, nothing at all while they cannot be read.
import { fake, TextDocument, Uri, whenProblems } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Settings } from '../../src/extension/core/settings';
import { AccountRecipients } from '../../src/extension/core/accountRecipients';
import { TriggerDiagnostics } from '../../src/extension/diagnostics/triggerDiagnostics';
import { trigger } from './lint-helpers';

const root = join(import.meta.dirname, '..', '..');
const quietLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const URI = 'file:///w/triggers/api/errors.trigger.json';

function editorLint(text: string) {
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  fake.files.set(URI, text);
  fake.documents = [new TextDocument(Uri.parse(URI), text)];
  const settings = new Settings({
    get: () => undefined,
    inspect: () => undefined,
    update: () => Promise.resolve(),
    onDidChange: () => ({ dispose: () => undefined }),
  });
  const diagnostics = new TriggerDiagnostics(quietLog, Uri.file(root), settings, 'obs-trigger');
  const problems = fake.collections[0];
  assert.ok(problems);
  const shown = () =>
    problems.entries.get(URI)?.diagnostics.map((d) => [(d.code as { value: string }).value, d.severity, d.message]) ??
    [];
  return { diagnostics, shown };
}

const FILE = trigger('"dataset_slug": "api"', '"recipients": [{ "id": "rcp_pd_primray" }, { "id": "rcp_mail" }]');

test(
  'once the recipients are read, an id the account does not list is a warning naming the nearest recipient; listed ids are not',
  { timeout: 20_000 },
  async () => {
    const { diagnostics, shown } = editorLint(FILE);
    let calls = 0;
    // The connection's client: the same object until its keys change.
    const client = {
      listRecipients: async () => {
        calls++;
        return {
          data: [
            { id: 'rcp_pd_primary', type: 'pagerduty', details: { pagerduty_integration_name: 'On-call' } },
            { id: 'rcp_mail', type: 'email' },
          ],
        };
      },
    };
    const recipients = new AccountRecipients({ connection: () => 'c1', client: async () => client });
    const sub = diagnostics.useRecipients(recipients);
    try {
      await whenProblems(() => shown().some(([rule]) => rule === 'trigger/unknown-recipient'));
      assert.deepEqual(
        shown().filter(([rule]) => rule === 'trigger/unknown-recipient'),
        // Severity 1 is vscode.DiagnosticSeverity.Warning.
        [
          [
            'trigger/unknown-recipient',
            1,
            '"rcp_pd_primray" is not the id of a recipient the service lists; did you mean "rcp_pd_primary" (On-call (PagerDuty))?',
          ],
        ],
      );
      assert.equal(calls, 1);
    } finally {
      sub.dispose();
      recipients.dispose();
      diagnostics.dispose();
    }
  },
);

test(
  'while the recipients cannot be read (offline) no recipient id is reported, and nothing is an error',
  { timeout: 20_000 },
  async () => {
    const { diagnostics, shown } = editorLint(FILE);
    let asked = false;
    const client = {
      listRecipients: () => {
        asked = true;
        return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1'));
      },
    };
    const recipients = new AccountRecipients({ connection: () => 'c1', client: async () => client });
    const sub = diagnostics.useRecipients(recipients);
    try {
      await whenProblems(() => fake.collections[0]?.entries.has(URI) === true);
      // The failed read taken in (directory() waits for the read under way, or makes it), then a lint with what is known now.
      assert.equal(await recipients.directory(), undefined);
      assert.equal(asked, true);
      await diagnostics.lintWorkspace();
      assert.deepEqual(
        shown().filter(([rule, severity]) => rule === 'trigger/unknown-recipient' || severity === 0),
        [],
      );
    } finally {
      sub.dispose();
      recipients.dispose();
      diagnostics.dispose();
    }
  },
);

test('the recipients handed to the linter carry their type and, for email and Slack, the address or channel a type and target would name', async () => {
  const { diagnostics } = editorLint(FILE);
  const client = {
    listRecipients: async () => ({
      data: [
        { id: 'rcp_pd', type: 'pagerduty', details: { pagerduty_integration_name: 'On-call' } },
        { id: 'rcp_ops', type: 'email', details: { email_address: 'ops@example.com' } },
        { id: 'rcp_alerts', type: 'slack', details: { slack_channel: '#alerts' } },
      ],
    }),
  };
  const recipients = new AccountRecipients({ connection: () => 'c1', client: async () => client });
  const sub = diagnostics.useRecipients(recipients);
  try {
    await recipients.directory();
    assert.deepEqual(diagnostics.options().recipients, [
      { id: 'rcp_pd', name: 'On-call (PagerDuty)', shortName: 'On-call', type: 'pagerduty' },
      {
        id: 'rcp_ops',
        name: 'ops@example.com (email)',
        shortName: 'ops@example.com',
        type: 'email',
        target: 'ops@example.com',
      },
      { id: 'rcp_alerts', name: '#alerts (Slack)', shortName: '#alerts', type: 'slack', target: '#alerts' },
    ]);
  } finally {
    sub.dispose();
    recipients.dispose();
    diagnostics.dispose();
  }
});
