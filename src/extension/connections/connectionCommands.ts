// Commands to add, edit, remove and switch connections. Adding and editing run the connection dialogue
// (connectionWizard.ts, shown by quickInputPrompter.ts), whose summary page runs the check before saving;
// keys are typed into password boxes and go straight to SecretStorage.
import * as vscode from 'vscode';
import {
  checkConnection,
  checkFailureDialog,
  describeFailure,
  type CheckApi,
  type CheckOutcome,
} from './connectionCheck';
import type { ConnectionManager } from './connectionManager';
import { describeSave, saveConnection, type ConnectionTarget, type WizardAnswer } from './connectionSave';
import { runConnectionWizard, type CheckDecision } from './connectionWizard';
import { isCancellation } from '../core/errors';
import { connectionLabel, type ConnectionProfile } from './profiles';
import type { Feedback } from '../core/feedback';
import type { Logger } from '../core/logger';
import { quickInputPrompter } from './quickInputPrompter';

function target(manager: ConnectionManager): ConnectionTarget {
  return {
    setSecrets: (id, secrets) => manager.setSecrets(id, secrets),
    deleteSecrets: (id) => manager.deleteSecrets(id),
    saveProfile: (profile) => manager.save(profile),
  };
}

/** One read with the answer's base URL and key (the stored key, for an edit that keeps it); undefined: cancelled. */
async function runCheck(
  manager: ConnectionManager,
  answer: WizardAnswer,
  existingId?: string,
): Promise<CheckOutcome | undefined> {
  const { baseUrl } = answer.profile;
  const host = new URL(baseUrl).host;
  const title = vscode.l10n.t('Checking the connection to {0}...', host);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (_progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        const connectionId = answer.originChanged ? undefined : existingId;
        const keys = { configKey: answer.secrets.configKey, connectionId };
        const check = (client: CheckApi) => checkConnection(client, host, controller.signal);
        return await manager.withProbeClient(baseUrl, keys, check);
      } catch (err) {
        return isCancellation(err) ? undefined : describeFailure(err, host);
      } finally {
        sub.dispose();
      }
    },
  );
}

/**
 * The check the dialogue's summary runs before saving. A check that fails (or is cancelled) says what is
 * wrong in a modal dialog that offers to change the connection (back to the summary, the field to change
 * picked) or to save it anyway; dismissing it keeps nothing.
 */
async function checkBeforeSaving(
  manager: ConnectionManager,
  answer: WizardAnswer,
  existingId?: string,
): Promise<CheckDecision> {
  const outcome = await runCheck(manager, answer, existingId);
  if (outcome?.ok === true) return { kind: 'save', checked: outcome.summary };
  const dialog = checkFailureDialog(answer.profile.name, outcome);
  const options = { modal: true, detail: dialog.detail };
  const choice = await vscode.window.showWarningMessage(dialog.message, options, dialog.edit, dialog.saveAnyway);
  if (choice === dialog.saveAnyway) return { kind: 'save' };
  if (choice === dialog.edit) return { kind: 'edit', note: outcome?.reason ?? dialog.message, field: dialog.field };
  return { kind: 'cancel' };
}

interface ProfilePick extends vscode.QuickPickItem {
  profile?: ConnectionProfile;
  action?: 'add';
}

async function pickConnection(
  manager: ConnectionManager,
  placeHolder: string,
  arg: unknown,
): Promise<ConnectionProfile | undefined> {
  if (typeof arg === 'string') return manager.list().find((p) => p.id === arg || p.name === arg);
  const activeId = manager.activeProfile()?.id;
  const items: ProfilePick[] = manager.list().map((p) => ({
    label: connectionLabel(p.name),
    description: p.id === activeId ? vscode.l10n.t('{0} (active)', p.baseUrl) : p.baseUrl,
    detail: vscode.l10n.t('team {0}, environment {1}', p.team, p.environmentId),
    profile: p,
  }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No connections are configured yet.'));
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
  return pick?.profile;
}

export interface ConnectionCommandHooks {
  /** Called after a connection and everything remembered for it is removed. */
  onRemoved(id: string): Promise<void>;
}

export function registerConnectionCommands(
  manager: ConnectionManager,
  feedback: Feedback,
  hooks: ConnectionCommandHooks,
): vscode.Disposable[] {
  const log = feedback.log;
  const command = (id: string, operation: string, run: (arg?: unknown) => Promise<unknown>): vscode.Disposable =>
    feedback.registerCommand(id, operation, (arg?: unknown) => run(arg));
  return [
    command('obs.connection.add', vscode.l10n.t('add the connection'), () => addConnection(manager, log)),
    command('obs.connection.edit', vscode.l10n.t('edit the connection'), (arg) => editConnection(manager, log, arg)),
    command('obs.connection.remove', vscode.l10n.t('remove the connection'), (arg) =>
      removeConnection(manager, log, hooks, arg),
    ),
    command('obs.connection.switch', vscode.l10n.t('switch the connection'), (arg) => switchConnection(manager, arg)),
  ];
}

/** Asks for a new connection, checks it, saves it and makes it the active one. */
async function addConnection(manager: ConnectionManager, log: Logger): Promise<void> {
  const result = await runConnectionWizard({
    prompter: quickInputPrompter,
    others: manager.list(),
    check: (answer) => checkBeforeSaving(manager, answer),
  });
  if (!result) return;
  const { answer, checked } = result;
  await saveConnection(target(manager), answer, true);
  await manager.setActive(answer.profile.id);
  const how = checked === undefined ? ' without a working check' : `, checked: ${checked}`;
  log.info(`connection ${answer.profile.name} (${answer.profile.baseUrl}) added${how}`);
  const saved = vscode.l10n.t('{0} It is the active connection.', describeSave(answer, true));
  const said = checked === undefined ? saved : vscode.l10n.t('{0} Checked: the service lists {1}.', saved, checked);
  void vscode.window.showInformationMessage(said);
}

/** Opens a picked connection (not the sandbox's) at the dialogue's summary, checks the answer and saves it. */
async function editConnection(manager: ConnectionManager, log: Logger, arg: unknown): Promise<void> {
  const existing = await pickConnection(manager, vscode.l10n.t('Connection to edit'), arg);
  if (!existing) return;
  if (manager.isTransient(existing.id)) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The local sandbox connection is made by "Start Local Sandbox" and cannot be edited.'),
    );
    return;
  }
  const stored = await manager.storedKeys(existing.id);
  const result = await runConnectionWizard({
    prompter: quickInputPrompter,
    others: manager.list(),
    existing: { profile: existing, stored },
    check: (answer) => checkBeforeSaving(manager, answer, existing.id),
  });
  if (!result) return;
  await saveConnection(target(manager), result.answer, false);
  log.info(`connection ${result.answer.profile.name} (${result.answer.profile.baseUrl}) saved`);
  void vscode.window.showInformationMessage(describeSave(result.answer, false));
}

/** Removes a picked connection with its keys after a confirmation; the sandbox's is removed by stopping the sandbox. */
async function removeConnection(
  manager: ConnectionManager,
  log: Logger,
  hooks: ConnectionCommandHooks,
  arg: unknown,
): Promise<void> {
  const profile = await pickConnection(manager, vscode.l10n.t('Connection to remove'), arg);
  if (!profile) return;
  if (manager.isTransient(profile.id)) {
    await vscode.commands.executeCommand('obs.sandbox.stop');
    return;
  }
  const remove = vscode.l10n.t('Remove');
  const confirm = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      'Remove the connection "{0}"? Its keys are deleted from the secret storage.',
      connectionLabel(profile.name),
    ),
    { modal: true },
    remove,
  );
  if (confirm !== remove) return;
  const wasActive = manager.activeProfile()?.id === profile.id;
  await manager.remove(profile.id);
  await hooks.onRemoved(profile.id);
  log.info(`connection ${profile.name} removed with its keys`);
  if (wasActive && manager.list().length > 0) await offerSwitch(profile.name);
}

/** After the active connection is removed: says that none is active and offers to pick one. */
async function offerSwitch(removedName: string): Promise<void> {
  // Never switch for the user: the next connection may be production.
  const switchConnection = vscode.l10n.t('Switch Connection...');
  const removed = vscode.l10n.t('Connection "{0}" removed. No connection is active now.', connectionLabel(removedName));
  const choice = await vscode.window.showInformationMessage(removed, switchConnection);
  if (choice === switchConnection) await vscode.commands.executeCommand('obs.connection.switch');
}

/** Makes the connection named by id or name active, or the one picked (the pick also offers to add one). */
async function switchConnection(manager: ConnectionManager, arg: unknown): Promise<unknown> {
  if (typeof arg === 'string') {
    const named = manager.list().find((p) => p.id === arg || p.name === arg);
    if (named) await manager.setActive(named.id);
    return;
  }
  const pick = await vscode.window.showQuickPick(switchPicks(manager), {
    placeHolder: vscode.l10n.t('Switch to connection'),
  });
  if (!pick) return;
  if (pick.action === 'add') return vscode.commands.executeCommand('obs.connection.add');
  if (pick.profile) await manager.setActive(pick.profile.id);
  return undefined;
}

/** Every connection, the active one checked, then "Add Connection...". */
function switchPicks(manager: ConnectionManager): ProfilePick[] {
  const activeId = manager.activeProfile()?.id;
  const items: ProfilePick[] = manager.list().map((p) => ({
    label: `${p.id === activeId ? '$(check) ' : ''}${connectionLabel(p.name)}`,
    description: p.baseUrl,
    detail: vscode.l10n.t('team {0}, environment {1}', p.team, p.environmentId),
    profile: p,
  }));
  items.push({ label: `$(add) ${vscode.l10n.t('Add Connection...')}`, action: 'add' });
  return items;
}
