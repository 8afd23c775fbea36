// Errors of what the user started stay until read: VS Code hides a notification by itself unless it is an
// error with an action. The queries feature says what failed that way (queries/queryCommands.ts).
import { fake } from './vscode-fake';
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
