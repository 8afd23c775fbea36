// Commands to add, edit, remove and switch connections. Adding asks step by step with validation
// (connectionWizard.ts); keys are asked with password boxes and go straight to SecretStorage.
import * as vscode from 'vscode';
import { checkConnection, describeFailure } from './connectionCheck';
import type { ConnectionManager } from './connectionManager';
import { describeSave, runConnectionWizard, saveConnection, type ConnectionTarget, type Prompter, type WizardAnswer } from './connectionWizard';
import { isCancellation } from '../core/errors';
import type { ConnectionProfile } from './profiles';
import type { Feedback } from '../core/feedback';
import type { Logger } from '../core/logger';
import { safeLabel } from '../core/text';

/** The wizard's questions as InputBoxes, its confirmations as modal dialogs. */
const inputBoxPrompter: Prompter = {
  input: (step) =>
    Promise.resolve(
      vscode.window.showInputBox({
        title: `${step.title} (${step.step}/${step.totalSteps})`,
        prompt: step.prompt,
        placeHolder: step.placeHolder,
        value: step.value,
        password: step.password,
        ignoreFocusOut: true,
        validateInput: (v) => {
          const problem = step.validate(v);
          if (!problem) return undefined;
          const severity = problem.severity === 'warning' ? vscode.InputBoxValidationSeverity.Warning : vscode.InputBoxValidationSeverity.Error;
          return { message: problem.message, severity };
        },
      }),
    ),
  confirm: async (message, action) => (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action,
};

function target(manager: ConnectionManager): ConnectionTarget {
  return {
    setSecrets: (id, secrets) => manager.setSecrets(id, secrets),
    deleteSecrets: (id) => manager.deleteSecrets(id),
    saveProfile: (profile) => manager.save(profile),
  };
}

/**
 * Checks an answer with one read before it is saved. Undefined: save nothing. A check that fails (or is
 * cancelled) says what is wrong in a modal dialog that offers to save it anyway.
 */
async function checkBeforeSaving(manager: ConnectionManager, answer: WizardAnswer, existingId?: string): Promise<{ checked?: string } | undefined> {
  const host = new URL(answer.profile.baseUrl).host;
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the connection to {0}...', host), cancellable: true },
    async (_progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        const keys = { configKey: answer.secrets.configKey, connectionId: answer.originChanged ? undefined : existingId };
        return await manager.withProbeClient(answer.profile.baseUrl, keys, (client) => checkConnection(client, host, controller.signal));
      } catch (err) {
        return isCancellation(err) ? undefined : describeFailure(err, host);
      } finally {
        sub.dispose();
      }
    },
  );
  if (outcome?.ok === true) return { checked: outcome.summary };
  const saveAnyway = vscode.l10n.t('Save Anyway');
  const choice = await vscode.window.showWarningMessage(
    outcome === undefined ? vscode.l10n.t('The check of "{0}" was cancelled.', answer.profile.name) : vscode.l10n.t('"{0}" does not work yet: {1}', answer.profile.name, outcome.message),
    { modal: true, detail: vscode.l10n.t('Nothing is saved unless you save it anyway (for a service you cannot reach from here yet). Cancel, and add it again with what was wrong put right.') },
    saveAnyway,
  );
  return choice === saveAnyway ? {} : undefined;
}

/** A connection name as QuickPick text: `$(…)` would render as an icon, so it is made inert. */
function inertName(name: string): string {
  return safeLabel(name, 64).replace(/\$\(/g, '$\u200B(');
}

interface ProfilePick extends vscode.QuickPickItem {
  profile?: ConnectionProfile;
  action?: 'add';
}

async function pickConnection(manager: ConnectionManager, placeHolder: string, arg: unknown): Promise<ConnectionProfile | undefined> {
  if (typeof arg === 'string') return manager.list().find((p) => p.id === arg || p.name === arg);
  const activeId = manager.activeProfile()?.id;
  const items: ProfilePick[] = manager.list().map((p) => ({
    label: inertName(p.name),
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

export function registerConnectionCommands(manager: ConnectionManager, feedback: Feedback, hooks: ConnectionCommandHooks): vscode.Disposable[] {
  const log = feedback.log;
  const command = (id: string, operation: string, run: (arg?: unknown) => Promise<unknown>): vscode.Disposable =>
    feedback.registerCommand(id, operation, (arg?: unknown) => run(arg));
  return [
    command('obs.connection.add', vscode.l10n.t('add the connection'), () => addConnection(manager, log)),
    command('obs.connection.edit', vscode.l10n.t('edit the connection'), (arg) => editConnection(manager, log, arg)),
    command('obs.connection.remove', vscode.l10n.t('remove the connection'), (arg) => removeConnection(manager, log, hooks, arg)),
    command('obs.connection.switch', vscode.l10n.t('switch the connection'), (arg) => switchConnection(manager, arg)),
  ];
}

/** Asks for a new connection, checks it, saves it and makes it the active one. */
async function addConnection(manager: ConnectionManager, log: Logger): Promise<void> {
  const answer = await runConnectionWizard(inputBoxPrompter, manager.list());
  if (!answer) return;
  const check = await checkBeforeSaving(manager, answer);
  if (!check) return;
  await saveConnection(target(manager), answer, true);
  await manager.setActive(answer.profile.id);
  log.info(`connection ${answer.profile.name} (${answer.profile.baseUrl}) added${check.checked === undefined ? ' without a working check' : `, checked: ${check.checked}`}`);
  const saved = vscode.l10n.t('{0} It is the active connection.', describeSave(answer, true));
  void vscode.window.showInformationMessage(check.checked === undefined ? saved : vscode.l10n.t('{0} Checked: the service lists {1}.', saved, check.checked));
}

/** Asks again for every field of a picked connection (not the sandbox's), checks the answer and saves it. */
async function editConnection(manager: ConnectionManager, log: Logger, arg: unknown): Promise<void> {
  const existing = await pickConnection(manager, vscode.l10n.t('Connection to edit'), arg);
  if (!existing) return;
  if (manager.isTransient(existing.id)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The local sandbox connection is made by "Start Local Sandbox" and cannot be edited.'));
    return;
  }
  const stored = await manager.storedKeys(existing.id);
  const answer = await runConnectionWizard(inputBoxPrompter, manager.list(), { profile: existing, stored });
  if (!answer) return;
  if (!(await checkBeforeSaving(manager, answer, existing.id))) return;
  await saveConnection(target(manager), answer, false);
  log.info(`connection ${answer.profile.name} (${answer.profile.baseUrl}) saved`);
  void vscode.window.showInformationMessage(describeSave(answer, false));
}

/** Removes a picked connection with its keys after a confirmation; the sandbox's is removed by stopping the sandbox. */
async function removeConnection(manager: ConnectionManager, log: Logger, hooks: ConnectionCommandHooks, arg: unknown): Promise<void> {
  const profile = await pickConnection(manager, vscode.l10n.t('Connection to remove'), arg);
  if (!profile) return;
  if (manager.isTransient(profile.id)) {
    await vscode.commands.executeCommand('obs.sandbox.stop');
    return;
  }
  const remove = vscode.l10n.t('Remove');
  const confirm = await vscode.window.showWarningMessage(
    vscode.l10n.t('Remove the connection "{0}"? Its keys are deleted from the secret storage.', profile.name),
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
  const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Connection "{0}" removed. No connection is active now.', removedName), switchConnection);
  if (choice === switchConnection) await vscode.commands.executeCommand('obs.connection.switch');
}

/** Makes the connection named by id or name active, or the one picked (the pick also offers to add one). */
async function switchConnection(manager: ConnectionManager, arg: unknown): Promise<unknown> {
  if (typeof arg === 'string') {
    const named = manager.list().find((p) => p.id === arg || p.name === arg);
    if (named) await manager.setActive(named.id);
    return;
  }
  const pick = await vscode.window.showQuickPick(switchPicks(manager), { placeHolder: vscode.l10n.t('Switch to connection') });
  if (!pick) return;
  if (pick.action === 'add') return vscode.commands.executeCommand('obs.connection.add');
  if (pick.profile) await manager.setActive(pick.profile.id);
  return undefined;
}

/** Every connection, the active one checked, then "Add Connection...". */
function switchPicks(manager: ConnectionManager): ProfilePick[] {
  const activeId = manager.activeProfile()?.id;
  const items: ProfilePick[] = manager.list().map((p) => ({
    label: `${p.id === activeId ? '$(check) ' : ''}${inertName(p.name)}`,
    description: p.baseUrl,
    detail: vscode.l10n.t('team {0}, environment {1}', p.team, p.environmentId),
    profile: p,
  }));
  items.push({ label: `$(add) ${vscode.l10n.t('Add Connection...')}`, action: 'add' });
  return items;
}
