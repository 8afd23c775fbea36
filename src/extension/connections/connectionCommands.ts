// Commands to add, edit, remove and switch connections. Adding asks step by step with validation;
// keys are asked with password boxes and go straight to SecretStorage.
import * as vscode from 'vscode';
import type { ConnectionManager } from './connectionManager';
import {
  checkEnvironmentId,
  checkKey,
  checkName,
  checkServiceUrl,
  checkTeam,
  newConnectionId,
  normaliseUrl,
  type ConnectionProfile,
  type ConnectionSecrets,
} from './profiles';

interface Step {
  prompt: string;
  placeHolder?: string;
  value?: string;
  password?: boolean;
  validate: (v: string) => string | vscode.InputBoxValidationMessage | undefined;
}

const TOTAL_STEPS = 7;

function urlValidator(what: string): (v: string) => string | vscode.InputBoxValidationMessage | undefined {
  return (v) => {
    const r = checkServiceUrl(v, what);
    if (!r.ok) return r.message;
    if (r.warning) return { message: r.warning, severity: vscode.InputBoxValidationSeverity.Warning };
    return undefined;
  };
}

/** Checks a management key's form: KEY_ID:KEY_SECRET. Empty is allowed (the key is optional). */
function managementKeyProblem(v: string, optionalText: string): string | undefined {
  if (v === '') return undefined;
  const colon = v.indexOf(':');
  if (colon <= 0 || colon === v.length - 1 || /\s/.test(v)) return `The management key has the form KEY_ID:KEY_SECRET ${optionalText}`;
  return undefined;
}

async function ask(title: string, index: number, step: Step): Promise<string | undefined> {
  const value = await vscode.window.showInputBox({
    title: `${title} (${index}/${TOTAL_STEPS})`,
    prompt: step.prompt,
    placeHolder: step.placeHolder,
    value: step.value,
    password: step.password,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const r = step.validate(v);
      return typeof r === 'string' ? { message: r, severity: vscode.InputBoxValidationSeverity.Error } : r;
    },
  });
  return value;
}

/** Asks for every field of a connection; undefined when the user cancels (nothing is saved then). */
async function askConnection(
  manager: ConnectionManager,
  existing: ConnectionProfile | undefined,
): Promise<{ profile: ConnectionProfile; secrets: ConnectionSecrets } | undefined> {
  const title = existing ? `Edit Connection "${existing.name}"` : 'Add Connection';
  const others = manager.list();
  const isFirst = others.length === 0;
  const name = await ask(title, 1, {
    prompt: 'A name for this connection, e.g. production or staging',
    value: existing?.name ?? (isFirst ? 'production' : ''),
    validate: (v) => checkName(v, others, existing?.id),
  });
  if (name === undefined) return undefined;
  const baseUrl = await ask(title, 2, {
    prompt: 'Base URL of the service API',
    placeHolder: 'https://api.example.com',
    value: existing?.baseUrl,
    validate: urlValidator('Base URL'),
  });
  if (baseUrl === undefined) return undefined;
  const uiUrl = await ask(title, 3, {
    prompt: 'URL of the service UI (links from the service are opened only on this host)',
    placeHolder: 'https://ui.example.com',
    value: existing?.uiUrl,
    validate: urlValidator('UI URL'),
  });
  if (uiUrl === undefined) return undefined;
  const team = await ask(title, 4, { prompt: 'Team slug', value: existing?.team, validate: checkTeam });
  if (team === undefined) return undefined;
  const environmentId = await ask(title, 5, {
    prompt: 'Environment id (used when creating API keys)',
    value: existing?.environmentId,
    validate: checkEnvironmentId,
  });
  if (environmentId === undefined) return undefined;
  const keep = existing ? ' (leave empty to keep the stored key)' : '';
  const configKey = await ask(title, 6, {
    prompt: `Configuration key, sent as X-Service-Team${keep}. Stored only in VS Code's secret storage.`,
    password: true,
    validate: (v) => (existing && v === '' ? undefined : checkKey(v, 'The configuration key')),
  });
  if (configKey === undefined) return undefined;
  const managementKey = await ask(title, 7, {
    prompt: `Management key KEY_ID:KEY_SECRET, needed only for API keys${existing ? keep : ' (optional: leave empty to skip)'}. Stored only in VS Code's secret storage.`,
    password: true,
    validate: (v) => managementKeyProblem(v, existing ? '(or leave empty to keep the stored key)' : '(or leave empty to skip)'),
  });
  if (managementKey === undefined) return undefined;

  const base = checkServiceUrl(baseUrl, 'Base URL');
  const ui = checkServiceUrl(uiUrl, 'UI URL');
  if (!base.ok || !ui.ok) return undefined;
  const profile: ConnectionProfile = {
    id: existing?.id ?? newConnectionId(),
    name: name.trim(),
    baseUrl: normaliseUrl(base.url),
    uiUrl: normaliseUrl(ui.url),
    team: team.trim(),
    environmentId: environmentId.trim(),
  };
  // '' = keep (edit) or nothing to store (add); SecretStore.set treats undefined as "leave as is".
  const secrets: ConnectionSecrets = {
    configKey: configKey === '' ? undefined : configKey.trim(),
    managementKey: managementKey === '' ? undefined : managementKey.trim(),
  };
  return { profile, secrets };
}

interface ProfilePick extends vscode.QuickPickItem {
  profile?: ConnectionProfile;
  action?: 'add';
}

async function pickConnection(manager: ConnectionManager, placeHolder: string, arg: unknown): Promise<ConnectionProfile | undefined> {
  if (typeof arg === 'string') return manager.list().find((p) => p.id === arg || p.name === arg);
  const activeId = manager.activeProfile()?.id;
  const items: ProfilePick[] = manager.list().map((p) => ({
    label: p.name,
    description: p.id === activeId ? `${p.baseUrl} (active)` : p.baseUrl,
    detail: `team ${p.team}, environment ${p.environmentId}`,
    profile: p,
  }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No connections are configured yet.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
  return pick?.profile;
}

export interface ConnectionCommandHooks {
  /** Called after a connection and everything remembered for it is removed. */
  onRemoved(id: string): Promise<void>;
}

export function registerConnectionCommands(manager: ConnectionManager, hooks: ConnectionCommandHooks): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('obs.connection.add', async () => {
      const answer = await askConnection(manager, undefined);
      if (!answer) return;
      await manager.secrets.set(answer.profile.id, answer.secrets);
      await manager.save(answer.profile);
      await manager.setActive(answer.profile.id);
      void vscode.window.showInformationMessage(`Connection "${answer.profile.name}" added and active.`);
    }),
    vscode.commands.registerCommand('obs.connection.edit', async (arg?: unknown) => {
      const existing = await pickConnection(manager, 'Connection to edit', arg);
      if (!existing) return;
      const answer = await askConnection(manager, existing);
      if (!answer) return;
      await manager.secrets.set(answer.profile.id, answer.secrets);
      await manager.save(answer.profile);
    }),
    vscode.commands.registerCommand('obs.connection.remove', async (arg?: unknown) => {
      const profile = await pickConnection(manager, 'Connection to remove', arg);
      if (!profile) return;
      const confirm = await vscode.window.showWarningMessage(
        `Remove the connection "${profile.name}"? Its keys are deleted from the secret storage.`,
        { modal: true },
        'Remove',
      );
      if (confirm !== 'Remove') return;
      await manager.remove(profile.id);
      await hooks.onRemoved(profile.id);
    }),
    vscode.commands.registerCommand('obs.connection.switch', async (arg?: unknown) => {
      if (typeof arg === 'string') {
        const target = manager.list().find((p) => p.id === arg || p.name === arg);
        if (target) await manager.setActive(target.id);
        return;
      }
      const activeId = manager.activeProfile()?.id;
      const items: ProfilePick[] = manager.list().map((p) => ({
        label: `${p.id === activeId ? '$(check) ' : ''}${p.name}`,
        description: p.baseUrl,
        detail: `team ${p.team}, environment ${p.environmentId}`,
        profile: p,
      }));
      items.push({ label: '$(add) Add Connection...', action: 'add' });
      const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Switch to connection' });
      if (!pick) return;
      if (pick.action === 'add') return vscode.commands.executeCommand('obs.connection.add');
      if (pick.profile) await manager.setActive(pick.profile.id);
    }),
  ];
}
