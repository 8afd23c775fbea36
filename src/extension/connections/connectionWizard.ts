// The add/edit connection dialogue as plain logic (no vscode import, so every path through it is
// unit-tested): which questions in which order, how each answer is checked, and in which order the
// answer is saved. connectionCommands.ts shows the questions as InputBoxes.
import {
  checkEnvironmentId,
  checkKey,
  checkName,
  checkServiceUrl,
  checkTeam,
  newConnectionId,
  normaliseUrl,
  sameOrigin,
  type ConnectionProfile,
  type ConnectionSecrets,
} from './profiles';
import * as l10n from '@vscode/l10n';

interface StepProblem {
  message: string;
  severity: 'error' | 'warning';
}

export interface WizardStep {
  title: string;
  step: number;
  totalSteps: number;
  prompt: string;
  placeHolder?: string | undefined;
  value?: string | undefined;
  password?: boolean | undefined;
  /** An 'error' blocks the answer; a 'warning' is shown but lets it through. */
  validate(value: string): StepProblem | undefined;
}

export interface Prompter {
  /** Asks one question; undefined when the user pressed Escape. */
  input(step: WizardStep): Promise<string | undefined>;
  /** A modal question with one action; false when dismissed. */
  confirm(message: string, action: string): Promise<boolean>;
}

/** Which keys a connection has in SecretStorage (presence only: the wizard never sees a stored key). */
export interface StoredKeys {
  configKey: boolean;
  managementKey: boolean;
}

type KeyOutcome = 'set' | 'replaced' | 'kept' | 'removed' | 'none';

export interface WizardAnswer {
  profile: ConnectionProfile;
  /** Per key: undefined = leave the stored key as it is, '' = delete it, anything else = store it. */
  secrets: ConnectionSecrets;
  /** The base URL now points at another server: the old server's keys are deleted before anything else. */
  originChanged: boolean;
  outcome: { configKey: KeyOutcome; managementKey: KeyOutcome };
}

const TOTAL_STEPS = 7;
/** Typed in the management key box when editing: delete the stored management key. */
export const REMOVE_KEY = '-';

const error = (message: string | undefined): StepProblem | undefined => (message === undefined ? undefined : { message, severity: 'error' });

function urlProblem(what: string): (v: string) => StepProblem | undefined {
  return (v) => {
    const r = checkServiceUrl(v, what);
    if (!r.ok) return { message: r.message, severity: 'error' };
    return r.warning === undefined ? undefined : { message: r.warning, severity: 'warning' };
  };
}

/** KEY_ID:KEY_SECRET, both parts non-empty, no spaces. */
function managementKeyProblem(v: string): string | undefined {
  const colon = v.indexOf(':');
  if (colon <= 0 || colon === v.length - 1 || /\s/.test(v)) return l10n.t('The management key has the form KEY_ID:KEY_SECRET');
  return undefined;
}

type StepFields = Omit<WizardStep, 'title' | 'step' | 'totalSteps'>;

/** The prompter, and the numbering and title every question of one run of the wizard shares. */
interface Dialogue {
  prompter: Prompter;
  step(n: number, fields: StepFields): WizardStep;
}

/** The answers of steps 1 to 5, the URLs checked. */
interface ProfileFields {
  name: string;
  baseUrl: URL;
  uiUrl: URL;
  team: string;
  environmentId: string;
}

/**
 * Asks for every field of a connection. Returns undefined when the user presses Escape at any step
 * (nothing is saved then). When editing, an empty key box keeps the stored key, except when the base
 * URL moved to another server: then the keys must be given again, so a key is never sent to a host it
 * was not entered for.
 */
export async function runConnectionWizard(
  prompter: Prompter,
  others: readonly ConnectionProfile[],
  existing?: { profile: ConnectionProfile; stored: StoredKeys },
  newId: () => string = newConnectionId,
): Promise<WizardAnswer | undefined> {
  const old = existing?.profile;
  const title = old ? l10n.t('Edit Connection "{0}"', old.name) : l10n.t('Add Connection');
  const dialogue: Dialogue = { prompter, step: (n, s) => ({ title, step: n, totalSteps: TOTAL_STEPS, ...s }) };
  const fields = await askProfileFields(dialogue, others, old);
  if (fields === undefined) return undefined;

  const normalisedBase = normaliseUrl(fields.baseUrl);
  const originChanged = old !== undefined && !sameOrigin(old.baseUrl, normalisedBase);
  const storedConfig = existing !== undefined && existing.stored.configKey && !originChanged;
  const storedManagement = existing !== undefined && existing.stored.managementKey && !originChanged;
  const moved = originChanged ? ` ${l10n.t('The base URL now points at {0}: give its keys (the stored ones are deleted, never sent to a new server).', fields.baseUrl.host)}` : '';
  const configKey = await askConfigKey(dialogue, storedConfig, moved);
  if (configKey === undefined) return undefined;
  const managementKey = await askManagementKey(dialogue, storedManagement);
  if (managementKey === undefined) return undefined;

  const profile: ConnectionProfile = {
    id: old?.id ?? newId(),
    name: fields.name.trim(),
    baseUrl: normalisedBase,
    uiUrl: normaliseUrl(fields.uiUrl),
    team: fields.team.trim(),
    environmentId: fields.environmentId.trim(),
  };
  const { secrets, outcome } = keyChanges(configKey, managementKey, existing?.stored, originChanged);
  return { profile, secrets, originChanged, outcome };
}

/** Steps 1 to 5: name, base URL, UI URL, team and environment; undefined on Escape. */
async function askProfileFields(d: Dialogue, others: readonly ConnectionProfile[], old: ConnectionProfile | undefined): Promise<ProfileFields | undefined> {
  // No default name: a prefilled "production" would label whatever server is entered next.
  const name = await d.prompter.input(
    d.step(1, {
      prompt: l10n.t('A name for this connection. The status bar shows it; names containing "prod" are highlighted.'),
      placeHolder: l10n.t('e.g. production, staging'),
      value: old?.name,
      validate: (v) => error(checkName(v, others, old?.id)),
    }),
  );
  if (name === undefined) return undefined;
  const baseUrl = await askBaseUrl(d, old?.baseUrl);
  if (baseUrl === undefined) return undefined;
  const uiUrl = await askUiUrl(d, old?.uiUrl);
  if (uiUrl === undefined) return undefined;
  const team = await d.prompter.input(d.step(4, { prompt: l10n.t('Team slug'), value: old?.team, validate: (v) => error(checkTeam(v)) }));
  if (team === undefined) return undefined;
  const environmentId = await d.prompter.input(
    d.step(5, { prompt: l10n.t('Environment id (used when creating API keys)'), value: old?.environmentId, validate: (v) => error(checkEnvironmentId(v)) }),
  );
  if (environmentId === undefined) return undefined;
  return { name, baseUrl, uiUrl, team, environmentId };
}

/** Step 2, asked again until the URL is valid and, when it is plain http, the user confirmed it. */
async function askBaseUrl(d: Dialogue, previous: string | undefined): Promise<URL | undefined> {
  let value = previous;
  for (;;) {
    const answer = await d.prompter.input(
      d.step(2, { prompt: l10n.t('Base URL of the service API'), placeHolder: 'https://api.example.com', value, validate: urlProblem(l10n.t('Base URL')) }),
    );
    if (answer === undefined) return undefined;
    value = answer;
    const check = checkServiceUrl(answer, l10n.t('Base URL'));
    if (!check.ok) continue; // the InputBox does not accept an error; a scripted prompter might
    if (check.warning === undefined) return check.url;
    const ok = await d.prompter.confirm(
      l10n.t('The base URL {0} uses plain http: the configuration and management keys would cross the network unencrypted. Use it anyway?', check.url.host),
      l10n.t('Use Plain HTTP'),
    );
    if (ok) return check.url;
  }
}

/** Step 3; undefined on Escape or an invalid URL. */
async function askUiUrl(d: Dialogue, previous: string | undefined): Promise<URL | undefined> {
  const uiUrl = await d.prompter.input(
    d.step(3, {
      prompt: l10n.t('URL of the service UI (links from the service are opened only on this host)'),
      placeHolder: 'https://ui.example.com',
      value: previous,
      validate: urlProblem(l10n.t('UI URL')),
    }),
  );
  if (uiUrl === undefined) return undefined;
  const ui = checkServiceUrl(uiUrl, l10n.t('UI URL'));
  return ui.ok ? ui.url : undefined;
}

/** Step 6. `stored`: an empty answer keeps the stored key. `moved`: the prompt's note on a base URL that moved. */
async function askConfigKey(d: Dialogue, stored: boolean, moved: string): Promise<string | undefined> {
  return d.prompter.input(
    d.step(6, {
      prompt: `${stored ? l10n.t("Configuration key, sent as X-Service-Team (leave empty to keep the stored key). Stored only in VS Code's secret storage.") : l10n.t("Configuration key, sent as X-Service-Team. Stored only in VS Code's secret storage.")}${moved}`,
      password: true,
      validate: (v) => (stored && v === '' ? undefined : error(checkKey(v, l10n.t('The configuration key')))),
    }),
  );
}

/** Step 7, optional. `stored`: an empty answer keeps the stored key and REMOVE_KEY deletes it. */
async function askManagementKey(d: Dialogue, stored: boolean): Promise<string | undefined> {
  const hint = stored ? l10n.t('leave empty to keep the stored key, or type {0} to delete it', REMOVE_KEY) : l10n.t('optional: leave empty for none');
  return d.prompter.input(
    d.step(7, {
      prompt: l10n.t("Management key KEY_ID:KEY_SECRET, needed only for API keys ({0}). Stored only in VS Code's secret storage.", hint),
      password: true,
      validate: (v) => {
        if (v === '' || (stored && v === REMOVE_KEY)) return undefined;
        const problem = managementKeyProblem(v.trim());
        return problem === undefined ? undefined : error(`${problem} (${hint})`);
      },
    }),
  );
}

/** What saving the two key answers does to each stored key. */
function keyChanges(configAnswer: string, managementAnswer: string, stored: StoredKeys | undefined, originChanged: boolean): Pick<WizardAnswer, 'secrets' | 'outcome'> {
  const hadConfig = stored?.configKey === true;
  const config = configAnswer.trim();
  const management = managementKeyChange(managementAnswer.trim(), stored?.managementKey === true, originChanged);
  return {
    secrets: { configKey: config === '' ? undefined : config, managementKey: management.value },
    outcome: { configKey: config === '' ? 'kept' : hadConfig ? 'replaced' : 'set', managementKey: management.outcome },
  };
}

/** The management key to save (undefined = leave as it is, '' = delete) and what that does. */
function managementKeyChange(management: string, hadManagement: boolean, originChanged: boolean): { value: string | undefined; outcome: KeyOutcome } {
  // A moved base URL deletes the old server's key even when the box is left empty.
  if (management === REMOVE_KEY || (management === '' && originChanged)) {
    return { value: hadManagement ? '' : undefined, outcome: hadManagement ? 'removed' : 'none' };
  }
  if (management === '') return { value: undefined, outcome: hadManagement ? 'kept' : 'none' };
  return { value: management, outcome: hadManagement ? 'replaced' : 'set' };
}

/** Where an answer is saved (the connection manager in the extension, fakes in tests). */
export interface ConnectionTarget {
  setSecrets(connectionId: string, secrets: ConnectionSecrets): Promise<void>;
  deleteSecrets(connectionId: string): Promise<void>;
  saveProfile(profile: ConnectionProfile): Promise<void>;
}

/**
 * Saves an answer in an order that never pairs a server with keys that were not entered for it, even
 * when a step fails halfway: a new connection's keys are deleted again if its profile cannot be saved;
 * a connection moved to another server loses its old keys before the new URL is saved.
 */
export async function saveConnection(target: ConnectionTarget, answer: WizardAnswer, isNew: boolean): Promise<void> {
  const id = answer.profile.id;
  if (isNew) {
    try {
      await target.setSecrets(id, answer.secrets);
      await target.saveProfile(answer.profile);
    } catch (err) {
      await target.deleteSecrets(id).catch(() => undefined);
      throw err;
    }
    return;
  }
  if (answer.originChanged) {
    await target.deleteSecrets(id);
    await target.saveProfile(answer.profile);
    await target.setSecrets(id, answer.secrets);
    return;
  }
  await target.setSecrets(id, answer.secrets);
  await target.saveProfile(answer.profile);
}

/** What happened to a key, as a whole phrase per key (word order differs between languages). */
function outcomePhrase(key: 'configuration' | 'management', outcome: KeyOutcome): string | undefined {
  const config = key === 'configuration';
  switch (outcome) {
    case 'set':
      return config ? l10n.t('configuration key stored') : l10n.t('management key stored');
    case 'replaced':
      return config ? l10n.t('configuration key replaced') : l10n.t('management key replaced');
    case 'kept':
      return config ? l10n.t('configuration key kept') : l10n.t('management key kept');
    case 'removed':
      return config ? l10n.t('configuration key deleted') : l10n.t('management key deleted');
    case 'none':
      return undefined;
  }
}

/** 'Connection "staging" saved: configuration key kept, management key deleted.' */
export function describeSave(answer: WizardAnswer, isNew: boolean): string {
  const parts = [outcomePhrase('configuration', answer.outcome.configKey), outcomePhrase('management', answer.outcome.managementKey)].filter(
    (p): p is string => typeof p === 'string',
  );
  const name = answer.profile.name;
  if (parts.length === 0) return isNew ? l10n.t('Connection "{0}" added.', name) : l10n.t('Connection "{0}" saved.', name);
  const list = parts.join(', ');
  return isNew ? l10n.t('Connection "{0}" added: {1}.', name, list) : l10n.t('Connection "{0}" saved: {1}.', name, list);
}
