// Errors of what the user started stay until read: VS Code hides a notification by itself unless it is an
// error with an action. The queries feature says what failed that way (queries/queryCommands.ts), and so do
// the refusals of a pull (core/feedback.ts, reportRefusal).
import { fake, Uri } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('a call the service does not serve is an error with an action (it stays), offering Run Saved Query', async () => {
  const { offerWhatWorks } = await import('../../src/extension/queries/queryCommands');
  fake.reset();
  await offerWhatWorks('Saving a query is not available on this service: POST /1/queries/api-gateway answered 405 (method not allowed).');
  assert.deepEqual(fake.shown, [
    { severity: 'error', text: 'Saving a query is not available on this service: POST /1/queries/api-gateway answered 405 (method not allowed).', actions: ['Run Saved Query...'] },
  ]);
});

test("a pull into the setting's folder that leads outside the workspace is refused with an error that stays (Show Logs), and logged", async () => {
  const { pull } = await import('../../src/extension/sync/pullCommands');
  const { Feedback } = await import('../../src/extension/core/feedback');
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  const logged: string[] = [];
  const feedback = new Feedback({ debug: () => undefined, info: () => undefined, warn: () => undefined, error: (m) => void logged.push(m) }, () => undefined);
  const deps = {
    connections: { requireActive: async () => ({ profile: { id: 'c', name: 'Sandbox' }, client: {} }) },
    settings: { pullFolder: () => '../elsewhere' },
    feedback,
  } as unknown as Parameters<typeof pull>[0];
  assert.equal(await pull(deps, { kind: 'everything' }), undefined);
  const reason = 'The "obs.pullFolder" setting (../elsewhere) leads outside the workspace folder. Choose such a folder with "Choose Another Folder...".';
  assert.deepEqual(fake.shown, [{ severity: 'error', text: reason, actions: ['Show Logs'] }]);
  assert.deepEqual(logged, [reason]);
});
