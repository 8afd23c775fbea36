// The add/edit connection dialogue (connectionWizard.ts) driven by a scripted prompter and a scripted check:
// the seven questions with Back, the summary page where any field is changed and the check runs, what each
// answer is checked against, what is saved and in which order, and that a cancelled dialogue keeps nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  runConnectionWizard,
  type CheckDecision,
  type Prompter,
  type Reply,
  type SummaryChoice,
  type SummaryPage,
  type WizardOptions,
  type WizardResult,
} from '../../src/extension/connections/connectionWizard';
import {
  describeSave,
  saveConnection,
  type ConnectionTarget,
  type StoredKeys,
  type WizardAnswer,
} from '../../src/extension/connections/connectionSave';
import { REMOVE_KEY, type FieldId, type WizardStep } from '../../src/extension/connections/wizardFields';
import type { ConnectionProfile, ConnectionSecrets } from '../../src/extension/connections/profiles';

/** One move of the user: type into a box (Enter), press Back or Escape, or pick a line of the summary. */
type Move = { type: string } | { key: 'back' | 'escape' } | { choose: 'save' | FieldId };
const type = (value: string): Move => ({ type: value });
const BACK: Move = { key: 'back' };
const ESC: Move = { key: 'escape' };
const SAVE: Move = { choose: 'save' };
const choose = (field: FieldId): Move => ({ choose: field });

/** The seven answers of Add, typed in order. */
const ADD = [
  'staging',
  'https://api.example.com/',
  'https://ui.example.com',
  'acme',
  'env_1',
  'CONFIG-KEY',
  'kid:ksecret',
].map(type);

const staging: ConnectionProfile = {
  id: 'conn-1',
  name: 'staging',
  baseUrl: 'https://api.example.com',
  uiUrl: 'https://ui.example.com',
  team: 'acme',
  environmentId: 'env_1',
};

/** Plays the moves in order and records every box and page it was shown. */
class ScriptedPrompter implements Prompter {
  readonly shown: (WizardStep | SummaryPage)[] = [];
  readonly confirmations: string[] = [];
  constructor(
    private readonly moves: Move[],
    private readonly confirmAnswers: boolean[] = [],
  ) {}

  get steps(): WizardStep[] {
    return this.shown.filter((s): s is WizardStep => 'field' in s);
  }

  get pages(): SummaryPage[] {
    return this.shown.filter((s): s is SummaryPage => 'items' in s);
  }

  private next(what: string): Move {
    const move = this.moves.shift();
    if (move === undefined) throw new Error(`no move left for ${what}`);
    return move;
  }

  async input(step: WizardStep): Promise<Reply<string>> {
    this.shown.push(step);
    const move = this.next(`the ${step.field} box`);
    if ('choose' in move) throw new Error(`the ${step.field} box is shown, not the summary`);
    if ('key' in move) return this.key(move.key, step.back);
    // Like an InputBox: an answer with an error cannot be accepted.
    assert.notEqual(step.validate(move.type)?.severity, 'error', `the ${step.field} box refuses ${move.type}`);
    return { kind: 'value', value: move.type };
  }

  async pick(page: SummaryPage): Promise<Reply<SummaryChoice>> {
    this.shown.push(page);
    const move = this.next('the summary');
    if ('type' in move) throw new Error('the summary is shown, not a box');
    if ('key' in move) return this.key(move.key, page.back);
    return { kind: 'value', value: move.choose === 'save' ? { kind: 'save' } : { kind: 'field', field: move.choose } };
  }

  private key(key: 'back' | 'escape', back: boolean): Reply<never> {
    if (key === 'escape') return { kind: 'cancel' };
    assert.ok(back, 'Back is pressed only where it is offered');
    return { kind: 'back' };
  }

  async confirm(message: string): Promise<boolean> {
    this.confirmations.push(message);
    return this.confirmAnswers.shift() ?? false;
  }
}

/** The check before saving: records each answer it was given and decides as scripted (by default: it works). */
class ScriptedCheck {
  readonly answers: WizardAnswer[] = [];
  constructor(private readonly decisions: CheckDecision[] = []) {}
  readonly check = async (answer: WizardAnswer): Promise<CheckDecision> => {
    this.answers.push(answer);
    return this.decisions.shift() ?? { kind: 'save', checked: '5 datasets' };
  };
}

type RunOptions = Partial<WizardOptions> & { checks?: ScriptedCheck };

function run(p: ScriptedPrompter, o: RunOptions = {}): Promise<WizardResult | undefined> {
  const checks = o.checks ?? new ScriptedCheck();
  const options = { others: o.others ?? [], existing: o.existing, check: checks.check, newId: () => 'conn-new' };
  return runConnectionWizard({ prompter: p, ...options });
}

const editing = (stored: StoredKeys) => ({ profile: staging, stored });
const summaryLines = (page: SummaryPage | undefined): string[] =>
  (page?.items ?? []).map((i) => `${i.label}: ${i.description ?? ''}`);

test('adding asks the seven fields in order, each after the first with Back, then shows the summary; Check and Save checks and returns the answer', async () => {
  const p = new ScriptedPrompter([...ADD, SAVE]);
  const checks = new ScriptedCheck();
  const result = await run(p, { checks });
  assert.deepEqual(
    p.steps.map((s) => [s.field, s.step, s.totalSteps, s.back, s.password === true]),
    [
      ['name', 1, 7, false, false],
      ['baseUrl', 2, 7, true, false],
      ['uiUrl', 3, 7, true, false],
      ['team', 4, 7, true, false],
      ['environmentId', 5, 7, true, false],
      ['configKey', 6, 7, true, true],
      ['managementKey', 7, 7, true, true],
    ],
  );
  assert.equal(p.pages.length, 1);
  assert.equal(checks.answers.length, 1, 'checked once, from the summary');
  assert.deepEqual(result?.answer.profile, { ...staging, id: 'conn-new' });
  assert.deepEqual(result?.answer.secrets, { configKey: 'CONFIG-KEY', managementKey: 'kid:ksecret' });
  assert.deepEqual(result?.answer.outcome, { configKey: 'set', managementKey: 'set' });
  assert.equal(result?.checked, '5 datasets');
});

test('the summary lists every field with its value and says only whether a key is there, never the key', async () => {
  const p = new ScriptedPrompter([...ADD, ESC]);
  await run(p);
  const page = p.pages[0];
  assert.equal(page?.title, 'Add Connection: review and save');
  assert.equal(page?.back, true, 'Add can go back from the summary');
  assert.deepEqual(page?.active, { kind: 'save' });
  assert.deepEqual(summaryLines(page), [
    '$(check) Check and Save: one read with the configuration key, then saved',
    'Name: staging',
    'Base URL: https://api.example.com/',
    'UI URL: https://ui.example.com',
    'Team slug: acme',
    'Environment id: env_1',
    'Configuration key: typed now (not shown)',
    'Management key: typed now (not shown)',
  ]);
});

test('Back goes to the box before with its answer in it; a key box starts empty, and left empty keeps the key typed before', async () => {
  const p = new ScriptedPrompter([...ADD.slice(0, 6), BACK, BACK, type('env_2'), type(''), type(''), SAVE]);
  const result = await run(p);
  const fields = p.steps.map((s) => s.field);
  const expected = ['configKey', 'managementKey', 'configKey', 'environmentId', 'configKey', 'managementKey'];
  assert.deepEqual(fields.slice(5), expected);
  const keyAgain = p.steps[7];
  assert.equal(keyAgain?.value, undefined, 'a key is never put into a box');
  assert.match(keyAgain?.prompt ?? '', /leave empty to keep the key you typed/);
  assert.equal(keyAgain?.validate(''), undefined);
  assert.equal(p.steps[8]?.value, 'env_1', 'the box Back returns to holds its answer');
  assert.equal(result?.answer.profile.environmentId, 'env_2');
  assert.deepEqual(result?.answer.secrets, { configKey: 'CONFIG-KEY', managementKey: undefined });
});

test('Back from the summary returns to the management key, then to the summary again', async () => {
  const p = new ScriptedPrompter([...ADD, BACK, type(REMOVE_KEY), SAVE]);
  const result = await run(p);
  const shown = p.shown.slice(7).map((s) => ('field' in s ? s.field : 'summary'));
  assert.deepEqual(shown, ['summary', 'managementKey', 'summary']);
  assert.match(p.steps[7]?.prompt ?? '', /leave empty to keep the key you typed, or type - for none/);
  assert.equal(summaryLines(p.pages[1]).at(-1), 'Management key: none (needed only for API keys)');
  assert.deepEqual(result?.answer.outcome, { configKey: 'set', managementKey: 'none' });
});

test('a field picked on the summary is asked alone, its value in the box and Back offered; the summary shows the change', async () => {
  const p = new ScriptedPrompter([...ADD, choose('team'), type('acme-2'), SAVE]);
  const result = await run(p);
  const team = p.steps[7];
  assert.deepEqual([team?.field, team?.value, team?.back, team?.step], ['team', 'acme', true, undefined]);
  assert.deepEqual(
    p.pages[1]?.active,
    { kind: 'field', field: 'team' },
    'the summary comes back on the line just changed',
  );
  assert.ok(summaryLines(p.pages[1]).includes('Team slug: acme-2'));
  assert.equal(result?.answer.profile.team, 'acme-2');
});

test('Back in a field opened from the summary changes nothing', async () => {
  const p = new ScriptedPrompter([...ADD, choose('name'), BACK, SAVE]);
  const result = await run(p);
  assert.equal(result?.answer.profile.name, 'staging');
  assert.deepEqual(summaryLines(p.pages[1]), summaryLines(p.pages[0]));
});

test('a check that fails goes back to the summary on the field to change, saying why; a new key is typed once and checked again', async () => {
  const note =
    'api.example.com does not know the configuration key: it is mistyped, revoked, or a key of another account.';
  const checks = new ScriptedCheck([{ kind: 'edit', note, field: 'configKey' }]);
  const p = new ScriptedPrompter([...ADD, SAVE, choose('configKey'), type('RIGHT-KEY'), SAVE], []);
  const result = await run(p, { checks });
  const again = p.pages[1];
  assert.deepEqual(again?.active, { kind: 'field', field: 'configKey' });
  assert.equal(again?.items[0]?.detail, `Last check: ${note}`);
  assert.deepEqual(
    checks.answers.map((a) => a.secrets.configKey),
    ['CONFIG-KEY', 'RIGHT-KEY'],
  );
  assert.equal(p.steps.length, 8, 'seven boxes, then the one key');
  assert.deepEqual(result?.answer.secrets, { configKey: 'RIGHT-KEY', managementKey: 'kid:ksecret' });
});

test('Escape at any of the seven boxes ends the dialogue: nothing is checked or returned', async () => {
  for (let at = 0; at < ADD.length; at++) {
    const p: ScriptedPrompter = new ScriptedPrompter([...ADD.slice(0, at), ESC]);
    const checks = new ScriptedCheck();
    assert.equal(await run(p, { checks }), undefined, `Escape at box ${at + 1}`);
    assert.equal(p.shown.length, at + 1, 'nothing is asked after Escape');
    assert.equal(checks.answers.length, 0);
  }
});

test("Escape on the summary, in a field opened from it, or at the failed check's question returns nothing", async () => {
  const cases: { moves: Move[]; decisions?: CheckDecision[]; checked: number }[] = [
    { moves: [...ADD, ESC], checked: 0 },
    { moves: [...ADD, choose('baseUrl'), ESC], checked: 0 },
    { moves: [...ADD, SAVE], decisions: [{ kind: 'cancel' }], checked: 1 },
  ];
  for (const c of cases) {
    const checks = new ScriptedCheck(c.decisions);
    assert.equal(await run(new ScriptedPrompter(c.moves), { checks }), undefined);
    assert.equal(checks.answers.length, c.checked);
  }
});

test('a cancelled dialogue keeps nothing: the next one starts with empty boxes', async () => {
  await run(new ScriptedPrompter([...ADD.slice(0, 6), ESC]));
  const p = new ScriptedPrompter([ESC]);
  await run(p);
  assert.equal(p.steps[0]?.value, undefined, 'no name from the dialogue before (nor a default "production")');
});

test('the name and URL boxes refuse a name clash and bad URLs, and warn about plain http to another host', async () => {
  const p = new ScriptedPrompter([type('qa'), ...ADD.slice(1), ESC]);
  await run(p, { others: [staging] });
  const [name, base, ui] = p.steps;
  assert.deepEqual(name?.validate('Staging'), {
    message: 'A connection named "staging" already exists',
    severity: 'error',
  });
  assert.deepEqual(base?.validate('api.example.com'), {
    message: 'Base URL is not a valid URL (expected e.g. https://api.example.com)',
    severity: 'error',
  });
  assert.deepEqual(base?.validate('ftp://api.example.com'), {
    message: 'Base URL must start with https:// or http://',
    severity: 'error',
  });
  assert.deepEqual(base?.validate('https://u:p@api.example.com'), {
    message: 'Base URL must not contain a user name or password',
    severity: 'error',
  });
  assert.equal(base?.validate('http://127.0.0.1:4318'), undefined, 'loopback http is fine');
  assert.deepEqual(base?.validate('http://api.example.com'), {
    message: 'Base URL uses plain http: keys would be sent unencrypted to api.example.com',
    severity: 'warning',
  });
  assert.deepEqual(ui?.validate('http://ui.example.com')?.severity, 'warning');
});

test('the name box refuses a right-to-left override and other invisible characters, saying which and where', async () => {
  const p = new ScriptedPrompter([ESC]);
  await run(p);
  const name = p.steps[0];
  assert.deepEqual(name?.validate('prod\u202Egnitset'), {
    message:
      'Connection name must not contain control or invisible formatting characters, which change how the text around it reads: U+202E at position 5',
    severity: 'error',
  });
  assert.equal(
    name?.validate('pr\u200Bod')?.severity,
    'error',
    'a zero-width space would hide "prod" from the warning colour',
  );
  assert.equal(name?.validate('Produktion (Zürich) 🇨🇭')?.severity, undefined);
});

test('team slug, environment id, configuration key and management key are validated', async () => {
  const p = new ScriptedPrompter([...ADD, ESC]);
  await run(p);
  const [, , , team, env, config, management] = p.steps;
  assert.deepEqual(team?.validate('acme corp'), {
    message: 'Team slug must not contain spaces, "/", "?" or "#"',
    severity: 'error',
  });
  assert.deepEqual(team?.validate('acme/x'), {
    message: 'Team slug must not contain spaces, "/", "?" or "#"',
    severity: 'error',
  });
  assert.deepEqual(env?.validate(''), { message: 'Environment id must not be empty', severity: 'error' });
  assert.deepEqual(config?.validate(''), { message: 'The configuration key must not be empty', severity: 'error' });
  assert.equal(management?.validate(''), undefined, 'the management key is optional');
  assert.deepEqual(management?.validate('no-colon'), {
    message: 'The management key has the form KEY_ID:KEY_SECRET (optional: leave empty for none)',
    severity: 'error',
  });
  assert.deepEqual(management?.validate(REMOVE_KEY)?.severity, 'error', '"-" means nothing when there is no key');
});

test('a plain-http base URL to another host needs a confirmation; declining asks for the URL again', async () => {
  const moves = [type('dev'), type('http://api.example.com'), type('https://api.example.com'), ...ADD.slice(2, 6)];
  moves.push(type(''), SAVE);
  const p = new ScriptedPrompter(moves, [false]);
  const result = await run(p);
  assert.equal(p.confirmations.length, 1);
  assert.match(
    p.confirmations[0] ?? '',
    /api\.example\.com uses plain http: the configuration and management keys would cross the network unencrypted/,
  );
  assert.deepEqual(
    [p.steps[2]?.field, p.steps[2]?.value],
    ['baseUrl', 'http://api.example.com'],
    'asked again, with what was typed',
  );
  assert.equal(result?.answer.profile.baseUrl, 'https://api.example.com');
});

test('a plain-http base URL is kept when confirmed', async () => {
  const moves = [type('dev'), type('http://api.example.com'), type('http://ui.example.com'), ...ADD.slice(3, 6)];
  const p = new ScriptedPrompter([...moves, type(''), SAVE], [true]);
  const result = await run(p);
  assert.equal(result?.answer.profile.baseUrl, 'http://api.example.com');
});

test('editing opens at the summary (no Back), the stored keys shown as kept; saving at once keeps everything', async () => {
  const p = new ScriptedPrompter([SAVE]);
  const result = await run(p, { others: [staging], existing: editing({ configKey: true, managementKey: true }) });
  const page = p.pages[0];
  assert.equal(p.steps.length, 0);
  assert.deepEqual([page?.title, page?.back], ['Edit Connection "staging": review and save', false]);
  assert.deepEqual(summaryLines(page).slice(-2), [
    'Configuration key: the stored key, kept',
    'Management key: the stored key, kept',
  ]);
  assert.deepEqual(result?.answer.secrets, { configKey: undefined, managementKey: undefined });
  assert.deepEqual(result?.answer.outcome, { configKey: 'kept', managementKey: 'kept' });
  assert.equal(
    result && describeSave(result.answer, false),
    'Connection "staging" saved: configuration key kept, management key kept.',
  );
});

test('editing: an empty key box keeps the stored key and says so; "-" deletes the stored management key', async () => {
  const p = new ScriptedPrompter([choose('configKey'), type(''), choose('managementKey'), type(REMOVE_KEY), SAVE]);
  const result = await run(p, { others: [staging], existing: editing({ configKey: true, managementKey: true }) });
  assert.match(p.steps[0]?.prompt ?? '', /leave empty to keep the stored key/);
  assert.match(p.steps[1]?.prompt ?? '', /leave empty to keep the stored key, or type - to delete it/);
  assert.equal(summaryLines(p.pages[2]).at(-1), 'Management key: the stored key is deleted when saved');
  assert.deepEqual(result?.answer.secrets, { configKey: undefined, managementKey: '' });
  assert.equal(
    result && describeSave(result.answer, false),
    'Connection "staging" saved: configuration key kept, management key deleted.',
  );
});

test('editing a connection whose configuration key is missing: Check and Save asks for it first', async () => {
  const p = new ScriptedPrompter([SAVE, type('NEW'), SAVE]);
  const result = await run(p, { others: [staging], existing: editing({ configKey: false, managementKey: false }) });
  assert.equal(summaryLines(p.pages[0]).at(-2), 'Configuration key: missing');
  assert.equal(p.steps[0]?.field, 'configKey');
  assert.doesNotMatch(p.steps[0]?.prompt ?? '', /keep/);
  assert.equal(p.steps[0]?.validate('')?.severity, 'error');
  assert.deepEqual(result?.answer.outcome, { configKey: 'set', managementKey: 'none' });
});

test('moving the base URL to another server requires the keys again: a stored key is never sent to a new host', async () => {
  const p = new ScriptedPrompter([choose('baseUrl'), type('https://api.evil.example'), SAVE, type('NEW-KEY'), SAVE]);
  const checks = new ScriptedCheck();
  const existing = editing({ configKey: true, managementKey: true });
  const result = await run(p, { others: [staging], existing, checks });
  assert.deepEqual(summaryLines(p.pages[1]).slice(-2), [
    'Configuration key: missing',
    'Management key: the stored key is deleted when saved',
  ]);
  const config = p.steps[1];
  assert.equal(config?.field, 'configKey');
  assert.match(
    config?.prompt ?? '',
    /now points at api\.evil\.example: give its keys \(the stored ones are deleted, never sent to a new server\)/,
  );
  assert.equal(config?.validate('')?.severity, 'error', 'empty no longer means "keep"');
  assert.equal(checks.answers.length, 1, 'checked only once a key for the new server was typed');
  assert.equal(result?.answer.originChanged, true);
  assert.deepEqual(result?.answer.secrets, { configKey: 'NEW-KEY', managementKey: '' });
  assert.deepEqual(result?.answer.outcome, { configKey: 'replaced', managementKey: 'removed' });
});

test('a new path on the same server keeps the stored keys', async () => {
  const p = new ScriptedPrompter([choose('baseUrl'), type('https://api.example.com/v1/'), SAVE]);
  const result = await run(p, { others: [staging], existing: editing({ configKey: true, managementKey: false }) });
  assert.equal(result?.answer.originChanged, false);
  assert.equal(result?.answer.profile.baseUrl, 'https://api.example.com/v1');
  assert.deepEqual(result?.answer.outcome, { configKey: 'kept', managementKey: 'none' });
});

test('a stored name holding U+202E is shown neutralised in the title, and must be put right before saving', async () => {
  const hostile = { ...staging, name: 'prod\u202Egnitset' };
  const p = new ScriptedPrompter([SAVE, type('staging'), SAVE]);
  const existing = { profile: hostile, stored: { configKey: true, managementKey: false } };
  const result = await run(p, { others: [hostile], existing });
  assert.equal(p.pages[0]?.title, 'Edit Connection "prod\uFFFDgnitset": review and save');
  assert.equal(summaryLines(p.pages[0])[1], 'Name: prod\uFFFDgnitset');
  assert.equal(p.steps[0]?.field, 'name', 'Check and Save asks for a name it can save first');
  assert.equal(result?.answer.profile.name, 'staging');
});

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
  assert.deepEqual(t.calls, [
    'deleteSecrets conn-1',
    'saveProfile conn-1 https://other.example',
    'setSecrets conn-1 {"configKey":"CK"}',
  ]);
});
