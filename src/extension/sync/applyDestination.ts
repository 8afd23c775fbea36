// Where "Apply Trigger Files to Connection..." plans the files: a saved connection, or an environment of the
// workspace's environments file (docs/ENVIRONMENTS.md), which is its connection with its overlay. An environment
// is offered when the files lie in one workspace folder whose environments file reads without a mistake; picked,
// the plan is made of the triggers as that environment sees them, as `obs plan --env` makes it.
import * as vscode from 'vscode';
import type { PlanEnvironment } from '../../triggerFiles';
import type { Environment, Environments } from '../../triggerFiles/environments';
import { looksLikeProduction, type ConnectionProfile } from '../connections';
import { awayEnvironmentOf } from '../core/workspaceEnvironments';

type Profile = Pick<ConnectionProfile, 'id' | 'name' | 'baseUrl'>;

/** A folder's environments file, read without a mistake, and its name as the plan names files. */
export interface FolderEnvironments {
  file: string;
  read: Environments;
}

/** An environment planned for, and the folder whose environments file names it (read again at apply). */
export interface EnvironmentTarget {
  plan: PlanEnvironment;
  folder: vscode.WorkspaceFolder;
}

/** What was picked: the connection, and the environment when one was. */
interface Destination {
  connectionId: string;
  environment?: EnvironmentTarget;
}

type FolderEnvironmentsOf = (folder: vscode.WorkspaceFolder) => FolderEnvironments | undefined;

/** The environment as its file holds it now: undefined when it is gone or the file has mistakes. */
export function environmentNow(
  of: FolderEnvironmentsOf | undefined,
  target: EnvironmentTarget,
): EnvironmentTarget | undefined {
  const envs = of?.(target.folder);
  const env = envs?.read.environments.get(target.plan.name);
  return envs === undefined || env === undefined
    ? undefined
    : { plan: asPlanEnvironment(envs, target.plan.name, env), folder: target.folder };
}

/** Why nothing is planned or written for an environment no longer in its file (or the file now has mistakes). */
export function environmentGone(env: EnvironmentTarget): string {
  return vscode.l10n.t(
    'Nothing was written: the environment {0} is no longer in {1}, or the file has mistakes (see the Problems view). Pick it again when the file is right.',
    env.plan.name,
    env.plan.file,
  );
}

/** The connection as the plan view and messages name it when planned for an environment: "Prod (production)". */
export function namedForEnvironment<P extends { name: string }, C>(
  connection: { profile: P; client: C },
  environment: string,
): { profile: P; client: C } {
  const name = vscode.l10n.t('{0} ({1})', connection.profile.name, environment);
  return { profile: { ...connection.profile, name }, client: connection.client };
}

const asPlanEnvironment = (envs: FolderEnvironments, name: string, env: Environment): PlanEnvironment => ({
  name,
  file: envs.file,
  ...(name === envs.read.home ? {} : { overlay: env }),
});

interface Item extends vscode.QuickPickItem {
  id: string;
  environment?: PlanEnvironment;
  /** Why the environment cannot be planned (its connection is not among the saved ones). */
  refused?: string;
}

/** The saved connections: the active one marked, those that look like production last with a warning. */
function connectionItems(profiles: readonly Profile[], active: string | undefined): Item[] {
  const ordered = [...profiles].sort(
    (a, b) => Number(looksLikeProduction(a.name)) - Number(looksLikeProduction(b.name)),
  );
  return ordered.map((p) => ({
    label: p.name,
    description: p.id === active ? vscode.l10n.t('{0} (active)', p.baseUrl) : p.baseUrl,
    ...(looksLikeProduction(p.name) ? { detail: `$(warning) ${vscode.l10n.t('Looks like production')}` } : {}),
    id: p.id,
  }));
}

/** Each environment of the file, on the connection it names, before the connections. */
function environmentItems(envs: FolderEnvironments, profiles: readonly Profile[]): Item[] {
  return [...envs.read.environments].map(([name, env]) => {
    const home = name === envs.read.home;
    const environment = asPlanEnvironment(envs, name, env);
    const profile = profiles.find((p) => p.name === env.connection);
    const label = `$(layers) ${name}`;
    if (profile === undefined) {
      const refused =
        env.connection === undefined
          ? vscode.l10n.t('The environment {0} names no connection in {1} ("connection").', name, envs.file)
          : vscode.l10n.t(
              'The environment {0} names the connection "{1}", which is not among your connections: add it, or correct {2}.',
              name,
              env.connection,
              envs.file,
            );
      return { label, description: vscode.l10n.t('no connection'), detail: `$(error) ${refused}`, id: '', refused };
    }
    const description = home
      ? vscode.l10n.t('home environment, on {0}', profile.name)
      : vscode.l10n.t('environment, on {0}: its overrides applied', profile.name);
    const production = looksLikeProduction(name) || looksLikeProduction(profile.name);
    return {
      label,
      description,
      ...(production ? { detail: `$(warning) ${vscode.l10n.t('Looks like production')}` } : {}),
      id: profile.id,
      environment,
    };
  });
}

/** The saved connections and the active one, as the connection manager answers. */
interface Connections<C> {
  list(): readonly Profile[];
  activeProfile(): Pick<ConnectionProfile, 'id'> | undefined;
  requireActive(): Promise<C>;
  connectionFor(id: string): Promise<C>;
}

/**
 * A saved connection, not only the active one, or an environment of the files' folder, for the files of
 * `selection` (none: the workspace); without saved connections, the active one (which asks for one).
 */
export async function chooseDestination<C>(
  connections: Connections<C>,
  selection: readonly vscode.Uri[],
  environmentsOf: FolderEnvironmentsOf | undefined,
): Promise<{ connection: C; environment?: EnvironmentTarget } | undefined> {
  const profiles = connections.list();
  if (profiles.length === 0) return { connection: await connections.requireActive() };
  const picked = await pickDestination(profiles, connections.activeProfile()?.id, selection, environmentsOf);
  if (picked === undefined) return undefined;
  const connection = await connections.connectionFor(picked.connectionId);
  return picked.environment === undefined ? { connection } : { connection, environment: picked.environment };
}

/**
 * Asks where to plan the files of `selection` (none: the workspace); undefined when the pick was dismissed or
 * named an environment that cannot be planned.
 */
async function pickDestination(
  profiles: readonly Profile[],
  active: string | undefined,
  selection: readonly vscode.Uri[],
  environmentsOf: FolderEnvironmentsOf | undefined,
): Promise<Destination | undefined> {
  const folder = folderOf(selection);
  const envs = folder === undefined ? undefined : environmentsOf?.(folder);
  const items = [...(envs === undefined ? [] : environmentItems(envs, profiles)), ...connectionItems(profiles, active)];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Apply Trigger Files to Connection'),
    placeHolder:
      envs === undefined
        ? vscode.l10n.t('Plan the trigger files against which connection?')
        : vscode.l10n.t('Plan the trigger files for which environment or connection?'),
  });
  if (picked === undefined) return undefined;
  if (picked.refused !== undefined) {
    void vscode.window.showErrorMessage(picked.refused);
    return undefined;
  }
  return picked.environment === undefined || folder === undefined
    ? { connectionId: picked.id }
    : { connectionId: picked.id, environment: { plan: picked.environment, folder } };
}

/**
 * The environment other than the home one that the active connection is for the files of `selection` (their one
 * folder's file names exactly one environment on it), as drift compares them: Apply from a lens, a file or the
 * Drift view plans for it too. The home, or none: undefined (the files as they are).
 */
export function activeEnvironment(
  connectionName: string,
  selection: readonly vscode.Uri[],
  environmentsOf: FolderEnvironmentsOf | undefined,
): EnvironmentTarget | undefined {
  const folder = folderOf(selection);
  const envs = folder === undefined ? undefined : environmentsOf?.(folder);
  const away = envs === undefined ? undefined : awayEnvironmentOf(envs.read, connectionName);
  return folder === undefined || envs === undefined || away === undefined
    ? undefined
    : { plan: asPlanEnvironment(envs, away.name, away.overlay), folder };
}

/** The folder the files lie in when they lie in one (no selection: the workspace's only folder). */
function folderOf(selection: readonly vscode.Uri[]): vscode.WorkspaceFolder | undefined {
  const folders =
    selection.length === 0
      ? (vscode.workspace.workspaceFolders ?? [])
      : selection.flatMap((u) => vscode.workspace.getWorkspaceFolder(u) ?? []);
  const distinct = new Set(folders.map((f) => f.uri.toString()));
  return distinct.size === 1 ? folders[0] : undefined;
}
