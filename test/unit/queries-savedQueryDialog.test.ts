// "Run Saved Query..." as a user goes through it, against the sandbox, with a fake `vscode` whose quick pick
// and input box the test speaks for: text typed is never lost (into the pick, then the input box; a box
// dismissed; a run the service refused), a typed id's form is checked before the service is asked, and an
// id the service does not know is said in words, with the id kept to change it.
import { boxes, picks, user, type FakeQuickPick } from './queries-dialog-fake';
import { fake, vscode } from './vscode-fake';
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox';
import { Feedback } from '../../src/extension/core/feedback';
import { askQuery } from '../../src/extension/queries/savedQueryPicker';
import { queryIdProblem, TypedText } from '../../src/extension/queries/savedQueryPicks';
import { QueryRuns } from '../../src/extension/queries/queryCommands';

let sandbox: SandboxHandle;
let client: ServiceClient;
before(async () => {
  sandbox = await startSandbox({ rateLimit: 100_000 });
  client = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey });
});
after(async () => {
  await client.close();
  await sandbox.close();
});
afterEach(() => {
  fake.reset();
  user.picks = [];
  user.inputs = [];
  picks.splice(0);
  boxes.splice(0);
});

const gw = DEMO.datasets.gateway;
const queryResults = () =>
  sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/1/query_results/'));

describe('the query id typed in "Run Saved Query"', () => {
  test('an id typed into the pick of named queries goes on into the input box of "Enter a query id..."', async () => {
    user.picks.push((qp) => {
      qp.value = 'q_typed_in_the_pick';
      qp.choose('Enter a query id...');
    });
    user.inputs.push(() => undefined);
    await askQuery(client, gw, 'Run Saved Query on Sandbox', new TypedText().of('sandbox'));
    assert.equal(boxes[0]?.value, 'q_typed_in_the_pick');
  });

  test('an input box dismissed keeps its text: the same question starts from it next time', async () => {
    const typed = new TypedText().of('sandbox');
    const enterId = (qp: FakeQuickPick): void => qp.choose('Enter a query id...');
    user.picks.push(enterId, enterId);
    user.inputs.push((box) => {
      box.validateInput?.('q_half_typ');
      return undefined;
    });
    user.inputs.push(() => undefined);
    assert.equal(await askQuery(client, gw, 'Run Saved Query on Sandbox', typed), undefined);
    await askQuery(client, gw, 'Run Saved Query on Sandbox', typed);
    assert.equal(boxes[1]?.value, 'q_half_typ');
  });

  test('its form is checked before the service is asked, saying what is wrong', () => {
    assert.equal(queryIdProblem('  '), 'Enter the id of a saved query');
    assert.equal(queryIdProblem('q_gw_5xx'), undefined);
    assert.equal(queryIdProblem(' q_gw_5xx '), undefined, 'spaces around it are trimmed');
    assert.equal(queryIdProblem('"q_gw_5xx"'), 'Leave out the quotes: enter the id alone');
    assert.equal(
      queryIdProblem('https://ui.example/team/datasets/gw/result/abc'),
      'That is a link, not a saved query id: enter the id alone (a trigger lists it as query_id)',
    );
    assert.equal(queryIdProblem('q gw'), 'A saved query id has no spaces, "/", "?", "#" or control characters');
    assert.equal(queryIdProblem('q_gw/5xx'), 'A saved query id has no spaces, "/", "?", "#" or control characters');
    assert.equal(queryIdProblem('q_\u202Egw'), 'A saved query id has no spaces, "/", "?", "#" or control characters');
  });

  test('the input box refuses an id of the wrong form as it is typed', async () => {
    user.picks.push((qp) => qp.choose('Enter a query id...'));
    let said: unknown;
    user.inputs.push((box) => {
      said = box.validateInput?.('q gw');
      return undefined;
    });
    await askQuery(client, gw, 'Run Saved Query on Sandbox', new TypedText().of('sandbox'));
    assert.equal(said, 'A saved query id has no spaces, "/", "?", "#" or control characters');
  });

  test('an id the service does not know is said in words, and "Change the Query ID..." asks again from it', async () => {
    const profile = {
      id: 'sandbox',
      name: 'Sandbox',
      baseUrl: sandbox.info.baseUrl,
      uiUrl: '',
      team: '',
      environmentId: '',
    };
    const connection = { profile, client };
    const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const runs = new QueryRuns({
      connections: {
        requireActive: async () => connection,
        connectionFor: async () => connection,
        list: () => [profile],
      },
      feedback: new Feedback(quiet, () => undefined),
      extensionUri: vscode.Uri.file('/ext'),
      seenText: (_uri, _connection, text) => ({ text }),
    });
    user.picks.push((qp) => qp.choose(gw));
    user.picks.push((qp) => {
      qp.value = 'q_no_such';
      qp.choose('Enter a query id...');
    });
    user.inputs.push((box) => box.value);
    let again: unknown;
    user.inputs.push((box) => {
      again = box.validateInput?.(box.value ?? '');
      return undefined;
    });
    fake.answer = 'Change the Query ID...';
    const before = queryResults().length;
    await runs.runById();
    const said = `The service has no saved query "q_no_such" in ${gw}: check the id (a trigger lists its saved query as query_id).`;
    assert.deepEqual(fake.shown, [{ severity: 'error', text: said, actions: ['Change the Query ID...'] }]);
    assert.equal(boxes[1]?.value, 'q_no_such', 'the id as typed');
    assert.deepEqual(again, { message: said, severity: 2 });
    assert.equal(queryResults().length, before + 1, 'asked once');
  });
});
