// What the connection dialogue's answer does to the stored keys, saving it in a safe order, and the closing
// message. No vscode import.
import * as l10n from '@vscode/l10n';
import { connectionLabel, type ConnectionProfile, type ConnectionSecrets } from './profiles';

/** Which keys a connection has in SecretStorage (presence only: the dialogue never sees a stored key). */
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

/** The keys as the dialogue ends: typed in it (undefined: none typed), the management key '' when asked to be none. */
export interface KeyAnswers {
  configKey?: string | undefined;
  managementKey?: string | undefined;
}

/** What saving the key answers does to each stored key. */
export function keyChanges(
  keys: KeyAnswers,
  stored: StoredKeys | undefined,
  originChanged: boolean,
): Pick<WizardAnswer, 'secrets' | 'outcome'> {
  const config = keys.configKey;
  const configOutcome: KeyOutcome = config === undefined ? 'kept' : stored?.configKey === true ? 'replaced' : 'set';
  const management = managementKeyChange(keys.managementKey, stored?.managementKey === true, originChanged);
  return {
    secrets: { configKey: config, managementKey: management.value },
    outcome: { configKey: configOutcome, managementKey: management.outcome },
  };
}

/** The management key to save (undefined = leave as it is, '' = delete) and what that does. */
function managementKeyChange(
  management: string | undefined,
  hadManagement: boolean,
  originChanged: boolean,
): { value: string | undefined; outcome: KeyOutcome } {
  // A moved base URL deletes the old server's key even when none was given.
  if (management === '' || (management === undefined && originChanged)) {
    return { value: hadManagement ? '' : undefined, outcome: hadManagement ? 'removed' : 'none' };
  }
  if (management === undefined) return { value: undefined, outcome: hadManagement ? 'kept' : 'none' };
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
  const parts = [
    outcomePhrase('configuration', answer.outcome.configKey),
    outcomePhrase('management', answer.outcome.managementKey),
  ].filter((p): p is string => typeof p === 'string');
  const name = connectionLabel(answer.profile.name);
  if (parts.length === 0) {
    return isNew ? l10n.t('Connection "{0}" added.', name) : l10n.t('Connection "{0}" saved.', name);
  }
  const list = parts.join(', ');
  return isNew
    ? l10n.t('Connection "{0}" added: {1}.', name, list)
    : l10n.t('Connection "{0}" saved: {1}.', name, list);
}
