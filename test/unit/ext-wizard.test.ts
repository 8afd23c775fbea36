// The add/edit connection dialogue (connectionWizard.ts) driven by a scripted prompter: what is asked,
// what each answer is checked against, and what is saved, in which order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  REMOVE_KEY,
  describeSave,
  runConnectionWizard,
  saveConnection,
  type ConnectionTarget,
  type Prompter,
  type WizardAnswer,
  type WizardStep,
} from '../../src/extension/connections/connectionWizard';
import type { ConnectionProfile, ConnectionSecrets } from '../../src/extension/connections/profiles';

const ADD_ANSWERS = ['staging', 'https://api.example.com/', 'https://ui.example.com', 'acme', 'env_1', 'CONFIG-KEY', 'kid:ksecret'];

const staging: ConnectionProfile = {
  id: 'conn-1',
  name: 'staging',
  baseUrl: 'https://api.example.com',
  uiUrl: 'https://ui.example.com',
  team: 'acme',
  environmentId: 'env_1',
};

/** Answers the steps in order; `undefined` in the script is Escape. Records every step it was shown. */
class ScriptedPrompter implements Prompter {
  readonly steps: WizardStep[] = [];
  readonly confirmations: string[] = [];
  constructor(
    private readonly answers: (string | undefined)[],
    private readonly confirmAnswers: boolean[] = [],
  ) {}
  async input(step: WizardStep): Promise<string | undefined> {
    this.steps.push(step);
    if (this.answers.length === 0) throw new Error(`unexpected step ${step.step}: ${step.prompt}`);
    const answer = this.answers.shift();
    // Like an InputBox: an answer with an error cannot be accepted.
    if (answer !== undefined) assert.notEqual(step.validate(answer)?.severity, 'error', `step ${step.step} refuses ${answer}`);
    return answer;
  }
  async confirm(message: string): Promise<boolean> {
    this.confirmations.push(message);
    return this.confirmAnswers.shift() ?? false;
  }
}

class RecordingTarget implements ConnectionTarget {
  readonly calls: string[] = [];
  constructor(private readonly failOn?: 'setSecrets' | 'saveProfile') {}
  async setSecrets(id: string, secrets: ConnectionSecrets): Promise<void> {
    this.calls.push(`setSecrets ${id} ${JSON.stringify(secrets)}`);
    if (this.failOn === 'setSecrets') throw new Error('keychain locked');
  }
  async deleteSecrets(id: string): Promise<void> {
    this.calls.push(`deleteSecrets ${id}`);
  }
  async saveProfile(profile: ConnectionProfile): Promise<void> {
    this.calls.push(`saveProfile ${profile.id} ${profile.baseUrl}`);
    if (this.failOn === 'saveProfile') throw new Error('state unavailable');
  }
}

test('adding asks seven steps and returns the profile and keys, the URL normalised', async () => {
  const p = new ScriptedPrompter([...ADD_ANSWERS]);
  const answer = await runConnectionWizard(p, [], undefined, () => 'conn-new');
  assert.deepEqual(
    p.steps.map((s) => [s.step, s.totalSteps, s.password === true]),
    [[1, 7, false], [2, 7, false], [3, 7, false], [4, 7, false], [5, 7, false], [6, 7, true], [7, 7, true]],
  );
  assert.deepEqual(answer?.profile, { ...staging, id: 'conn-new' });
  assert.deepEqual(answer?.secrets, { configKey: 'CONFIG-KEY', managementKey: 'kid:ksecret' });
  assert.deepEqual(answer?.outcome, { configKey: 'set', managementKey: 'set' });
});

test('Escape at any of the seven steps returns nothing, so nothing is saved', async () => {
  for (let step = 0; step < ADD_ANSWERS.length; step++) {
    const script: (string | undefined)[] = ADD_ANSWERS.slice(0, step);
    script.push(undefined);
    const p = new ScriptedPrompter(script);
    assert.equal(await runConnectionWizard(p, []), undefined, `Escape at step ${step + 1}`);
    assert.equal(p.steps.length, step + 1, 'no question after Escape');
  }
});

test('the first connection gets no prefilled name (a default "production" would mislabel a staging server)', async () => {
  const p = new ScriptedPrompter([undefined]);
  await runConnectionWizard(p, []);
  assert.equal(p.steps[0]?.value, undefined);
});

test('the name and URL steps refuse a name clash and bad URLs, and warn about plain http to another host', async () => {
  const p = new ScriptedPrompter(['qa', ...ADD_ANSWERS.slice(1)]);
  await runConnectionWizard(p, [staging]);
  const [name, base, ui] = p.steps;
  assert.deepEqual(name?.validate('Staging'), { message: 'A connection named "staging" already exists', severity: 'error' });
  assert.deepEqual(base?.validate('api.example.com'), { message: 'Base URL is not a valid URL (expected e.g. https://api.example.com)', severity: 'error' });
  assert.deepEqual(base?.validate('ftp://api.example.com'), { message: 'Base URL must start with https:// or http://', severity: 'error' });
  assert.deepEqual(base?.validate('https://u:p@api.example.com'), { message: 'Base URL must not contain a user name or password', severity: 'error' });
  assert.equal(base?.validate('http://127.0.0.1:4318'), undefined, 'loopback http is fine');
  assert.deepEqual(base?.validate('http://api.example.com'), {
    message: 'Base URL uses plain http: keys would be sent unencrypted to api.example.com',
    severity: 'warning',
  });
  assert.deepEqual(ui?.validate('http://ui.example.com')?.severity, 'warning');
});

test('team slug, environment id, configuration key and management key are validated', async () => {
  const p = new ScriptedPrompter([...ADD_ANSWERS]);
  await runConnectionWizard(p, []);
  const [, , , team, env, config, management] = p.steps;
  assert.deepEqual(team?.validate('acme corp'), { message: 'Team slug must not contain spaces, "/", "?" or "#"', severity: 'error' });
  assert.deepEqual(team?.validate('acme/x'), { message: 'Team slug must not contain spaces, "/", "?" or "#"', severity: 'error' });
  assert.deepEqual(env?.validate(''), { message: 'Environment id must not be empty', severity: 'error' });
  assert.deepEqual(config?.validate(''), { message: 'The configuration key must not be empty', severity: 'error' });
  assert.equal(management?.validate(''), undefined, 'the management key is optional');
  assert.deepEqual(management?.validate('no-colon'), {
    message: 'The management key has the form KEY_ID:KEY_SECRET (optional: leave empty for none)',
    severity: 'error',
  });
  assert.deepEqual(management?.validate(REMOVE_KEY)?.severity, 'error', '"-" means nothing when no key is stored');
});

test('a plain-http base URL to another host needs a confirmation; declining asks for the URL again', async () => {
  const p = new ScriptedPrompter(['dev', 'http://api.example.com', 'https://api.example.com', 'https://ui.example.com', 'acme', 'env_1', 'CK', ''], [false]);
  const answer = await runConnectionWizard(p, []);
  assert.equal(p.confirmations.length, 1);
  assert.match(p.confirmations[0] ?? '', /api\.example\.com uses plain http: the configuration and management keys would cross the network unencrypted/);
  assert.equal(p.steps[2]?.step, 2, 'the base URL is asked again');
  assert.equal(p.steps[2]?.value, 'http://api.example.com', 'prefilled with what was typed');
  assert.equal(answer?.profile.baseUrl, 'https://api.example.com');
});

test('a plain-http base URL is kept when confirmed', async () => {
  const p = new ScriptedPrompter(['dev', 'http://api.example.com', 'http://ui.example.com', 'acme', 'env_1', 'CK', ''], [true]);
  const answer = await runConnectionWizard(p, []);
  assert.equal(answer?.profile.baseUrl, 'http://api.example.com');
});

test('editing with empty key boxes keeps both stored keys, and the prompts say so', async () => {
  const p = new ScriptedPrompter(['staging', staging.baseUrl, staging.uiUrl, 'acme', 'env_2', '', '']);
  const answer = await runConnectionWizard(p, [staging], { profile: staging, stored: { configKey: true, managementKey: true } });
  assert.match(p.steps[5]?.prompt ?? '', /leave empty to keep the stored key/);
  assert.match(p.steps[6]?.prompt ?? '', /leave empty to keep the stored key, or type - to delete it/);
  assert.equal(p.steps[5]?.value, undefined, 'a stored key is never shown');
  assert.deepEqual(answer?.secrets, { configKey: undefined, managementKey: undefined });
  assert.deepEqual(answer?.outcome, { configKey: 'kept', managementKey: 'kept' });
  assert.equal(answer?.profile.environmentId, 'env_2');
  assert.equal(answer && describeSave(answer, false), 'Connection "staging" saved: configuration key kept, management key kept.');
});

test('editing: "-" in the management key box deletes the stored management key', async () => {
  const p = new ScriptedPrompter(['staging', staging.baseUrl, staging.uiUrl, 'acme', 'env_1', '', REMOVE_KEY]);
  const answer = await runConnectionWizard(p, [staging], { profile: staging, stored: { configKey: true, managementKey: true } });
  assert.deepEqual(answer?.secrets, { configKey: undefined, managementKey: '' });
  assert.equal(answer && describeSave(answer, false), 'Connection "staging" saved: configuration key kept, management key deleted.');
});

test('editing a connection whose configuration key is missing requires one', async () => {
  const p = new ScriptedPrompter(['staging', staging.baseUrl, staging.uiUrl, 'acme', 'env_1', 'NEW', '']);
  const answer = await runConnectionWizard(p, [staging], { profile: staging, stored: { configKey: false, managementKey: false } });
  assert.doesNotMatch(p.steps[5]?.prompt ?? '', /keep/);
  assert.deepEqual(p.steps[5]?.validate('')?.severity, 'error');
  assert.deepEqual(answer?.outcome, { configKey: 'set', managementKey: 'none' });
});

test('moving the base URL to another server requires the keys again: a stored key is never sent to a new host', async () => {
  const p = new ScriptedPrompter(['staging', 'https://api.evil.example', staging.uiUrl, 'acme', 'env_1', 'NEW-KEY', '']);
  const answer = await runConnectionWizard(p, [staging], { profile: staging, stored: { configKey: true, managementKey: true } });
  const config = p.steps[5];
  assert.match(config?.prompt ?? '', /now points at api\.evil\.example: give its keys \(the stored ones are deleted, never sent to a new server\)/);
  assert.deepEqual(config?.validate('')?.severity, 'error', 'empty no longer means "keep"');
  assert.equal(answer?.originChanged, true);
  assert.deepEqual(answer?.secrets, { configKey: 'NEW-KEY', managementKey: '' });
  assert.deepEqual(answer?.outcome, { configKey: 'replaced', managementKey: 'removed' });
});

test('a new path on the same server keeps the stored keys', async () => {
  const p = new ScriptedPrompter(['staging', 'https://api.example.com/v1/', staging.uiUrl, 'acme', 'env_1', '', '']);
  const answer = await runConnectionWizard(p, [staging], { profile: staging, stored: { configKey: true, managementKey: false } });
  assert.equal(answer?.originChanged, false);
  assert.equal(answer?.profile.baseUrl, 'https://api.example.com/v1');
  assert.deepEqual(answer?.outcome, { configKey: 'kept', managementKey: 'none' });
});

const answerFor = (over: Partial<WizardAnswer>): WizardAnswer => ({
  profile: staging,
  secrets: { configKey: 'CK', managementKey: undefined },
  originChanged: false,
  outcome: { configKey: 'set', managementKey: 'none' },
  ...over,
});

test('saving a new connection stores the keys, then the profile', async () => {
  const t = new RecordingTarget();
  await saveConnection(t, answerFor({}), true);
  assert.deepEqual(t.calls, ['setSecrets conn-1 {"configKey":"CK"}', 'saveProfile conn-1 https://api.example.com']);
});

test('a new connection whose profile cannot be saved leaves no keys behind', async () => {
  const t = new RecordingTarget('saveProfile');
  await assert.rejects(saveConnection(t, answerFor({}), true), /state unavailable/);
  assert.deepEqual(t.calls.at(-1), 'deleteSecrets conn-1');
});

test('a connection moved to another server loses its old keys before the new URL is saved', async () => {
  const t = new RecordingTarget('setSecrets');
  const moved = answerFor({ profile: { ...staging, baseUrl: 'https://other.example' }, originChanged: true });
  await assert.rejects(saveConnection(t, moved, false), /keychain locked/);
  // Failing at the last step leaves the new URL without keys: nothing is sent anywhere with an old key.
  assert.deepEqual(t.calls, ['deleteSecrets conn-1', 'saveProfile conn-1 https://other.example', 'setSecrets conn-1 {"configKey":"CK"}']);
});
