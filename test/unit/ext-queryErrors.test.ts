// Errors of what the user started stay until read: VS Code hides a notification by itself unless it is an
// error with an action. The queries feature says what failed that way (queries/queryCommands.ts), and so do
// the refusals of a pull (core/feedback.ts, reportRefusal).
import { fake, Uri } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PullDeps } from '../../src/extension/sync/pullCommands';
import { ServiceClient } from '../../src/api/client';
import { Settings } from '../../src/extension/core/settings';

test('a call the service does not serve is an error with an action (it stays), offering Run Saved Query', async () => {
  const { offerWhatWorks } = await import('../../src/extension/queries/queryCommands');
  fake.reset();
  await offerWhatWorks(
    'Saving a query is not available on this service: POST /1/queries/api-gateway answered 405 (method not allowed).',
  );
  assert.deepEqual(fake.shown, [
    {
      severity: 'error',
      text: 'Saving a query is not available on this service: POST /1/queries/api-gateway answered 405 (method not allowed).',
      actions: ['Run Saved Query...'],
    },
  ]);
});

test("a pull into the setting's folder that leads outside the workspace is refused with an error that stays (Show Logs), and logged", async () => {
  const { pull } = await import('../../src/extension/sync/pullCommands');
  const { Feedback } = await import('../../src/extension/core/feedback');
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  const logged: string[] = [];
  const feedback = new Feedback(
    { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (m) => void logged.push(m) },
    () => undefined,
  );
  const profile = {
    id: 'c',
    name: 'Sandbox',
    baseUrl: 'https://api.example.invalid',
    uiUrl: '',
    team: 't',
    environmentId: 'e',
  };
  // The pull is refused before it reaches the service: its client is never called.
  const active = { profile, client: new ServiceClient({ baseUrl: profile.baseUrl }) };
  const settings = new Settings({
    get: (key) => (key === 'obs.pullFolder' ? '../elsewhere' : undefined),
    inspect: () => undefined,
    update: () => Promise.resolve(),
    onDidChange: () => ({ dispose: () => undefined }),
  });
  const deps: PullDeps = {
    connections: { requireActive: async () => active, connectionFor: async () => active },
    settings,
    feedback,
    datasets: () => assert.fail('no dataset is listed for a refused pull'),
    onListed: () => assert.fail('nothing is listed for a refused pull'),
    onPulled: () => assert.fail('a refused pull pulls nothing'),
  };
  assert.equal(await pull(deps, { kind: 'everything' }), undefined);
  const reason =
    'The "obs.pullFolder" setting (../elsewhere) leads outside the workspace folder. Choose such a folder with "Choose Another Folder...".';
  assert.deepEqual(fake.shown, [{ severity: 'error', text: reason, actions: ['Show Logs'] }]);
  assert.deepEqual(logged, [reason]);
});
