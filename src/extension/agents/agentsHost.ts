// Entry point of dist/agents-host.js: the language model tools, loaded by registerAgents.ts the first time an
// agent invokes one. Each call runs the shared tool (src/agentTools) against the connection active when it was
// invoked; its answer is one text part of bounded JSON, and a failure is thrown with its message (VS Code
// hands that to the model as the tool's error). The apply tool writes only a plan the user confirmed.
import * as vscode from 'vscode';
import type { PlanEnvironment } from '../../triggerFiles';
import { APPLY_TOOL_NAME, runTool, type SourceFile, type ToolName } from '../../agentTools';
import type { QuerySession } from '../queries';
import { connectionLabel, type ActiveConnection, type ConnectionManager } from '../connections';
import { configureL10n } from '../core/l10nSetup';
import type { Feedback } from '../core/feedback';
import type { RecipientDirectory } from '../core/recipients';
import type { Settings } from '../core/settings';
import type { ApplyLocks } from '../core/applyLocks';
import { ReadOnlyDocuments } from '../core/readOnlyDocuments';
import { SHOW_AGENT_PLAN_COMMAND } from './agentIds';
import { applyPreparation, planDocumentOf, runApply, type AgentQuestion, type ApplyDeps } from './applyTool';
import { editorToolHost } from './editorToolHost';
import { PlanStore } from './planStore';
import type { FolderEnvironments, Linter } from '../sync';
import { awayEnvironmentOf } from '../core/workspaceEnvironments';
import { invocationText } from './toolText';
import { WorkspaceTriggerFiles } from './workspaceFiles';
import { planWorkspace } from './workspacePlan';

export interface AgentsDeps {
  connections: ConnectionManager;
  settings: Settings;
  feedback: Feedback;
  /** The editor's linter (the lint worker): the gate of a plan, with the live columns it reads. */
  lint: Linter;
  /** A connection's query session: the pacer (10 results a minute) and the results the editor's own queries share. */
  sessionFor(connection: ActiveConnection): Pick<QuerySession, 'pacer' | 'cache'>;
  /** After an apply wrote to a connection: its lists are read again (drift, the Datasets tree). */
  onWritten(connectionId: string): void;
  /** The active connection's recipients when listed: the question before an apply names them. */
  recipients(): RecipientDirectory | undefined;
  /** One apply at a time per service, shared with the editor's Apply. */
  applyLocks: ApplyLocks;
  /** A workspace folder's environments file, when it reads without a mistake (docs/ENVIRONMENTS.md). */
  environments(folder: vscode.WorkspaceFolder): FolderEnvironments | undefined;
}

function planEnvironmentOf(deps: AgentsDeps, connection: ActiveConnection): { environment?: PlanEnvironment } {
  // As Apply from a file plans: the environment other than the home one the connection is for the workspace's
  // one folder (several folders: the files as they are, each trigger found by its id, blocked where there is none).
  const folders = vscode.workspace.workspaceFolders ?? [];
  const envs = folders.length === 1 && folders[0] !== undefined ? deps.environments(folders[0]) : undefined;
  const away = envs === undefined ? undefined : awayEnvironmentOf(envs.read, connection.profile.name);
  return envs === undefined || away === undefined
    ? {}
    : { environment: { name: away.name, file: envs.file, overlay: away.overlay } };
}

export interface LoadedAgents {
  prepare(name: ToolName, input: unknown, token: vscode.CancellationToken): Promise<vscode.PreparedToolInvocation>;
  invoke(name: ToolName, input: unknown, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult>;
  /** Opens the whole plan of a plan_id beside the editor (the chat question's link). */
  showPlan(planId: unknown): Promise<void>;
  dispose(): void;
}

/** The scheme of the plan documents an agent's apply shows. */
const AGENT_PLAN_SCHEME = 'obs-agent-plan';

function signalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const sub = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => sub.dispose() };
}

/**
 * The extension's own question before an agent's apply: the whole plan opens beside (`shown` is told where),
 * then a modal dialog; for a connection that looks like production, its name typed after the dialog's yes, so
 * Enter alone never writes there.
 */
async function askInDialog(
  documents: ReadOnlyDocuments,
  q: AgentQuestion,
  title: string,
  shown: (uri: vscode.Uri) => void,
): Promise<boolean> {
  shown(await documents.show(title, q.document));
  const choice = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, q.button);
  if (choice !== q.button) return false;
  const name = q.typeName;
  if (name === undefined) return true;
  const typed = await vscode.window.showInputBox({
    title: q.message,
    prompt: vscode.l10n.t(
      '{0} looks like a production connection. Type its name to apply the plan; Escape writes nothing.',
      name,
    ),
    ignoreFocusOut: true,
    validateInput: (value) => (value === name ? undefined : vscode.l10n.t('Type {0} exactly to apply.', name)),
  });
  return typed === name;
}

export function createAgents(deps: AgentsDeps): LoadedAgents {
  // This bundle has its own copy of @vscode/l10n (see core/l10nSetup.ts).
  configureL10n();
  const plans = new PlanStore<WorkspaceTriggerFiles>();
  const documents = new ReadOnlyDocuments(AGENT_PLAN_SCHEME);
  const log = deps.feedback.log;
  const connectionName = (profile = deps.connections.activeProfile()) =>
    profile ? connectionLabel(profile.name) : vscode.l10n.t('(no connection)');
  const plan = (connection: ActiveConnection, files: readonly SourceFile[], prune: boolean, signal: AbortSignal) =>
    planWorkspace({
      connection,
      files,
      prune,
      signal,
      lint: deps.lint,
      concurrency: deps.settings.concurrency(),
      // Read at each plan: the plan again at apply reads the environments file as it is then.
      ...planEnvironmentOf(deps, connection),
    });
  // A trusted link in the chat's question opens the whole plan: our command, given the plan's id (and no other).
  const documentLink = (planId: string) =>
    `command:${SHOW_AGENT_PLAN_COMMAND}?${encodeURIComponent(JSON.stringify([planId]))}`;
  const applyDeps = (active: ActiveConnection | undefined): ApplyDeps => {
    // The plan document shown beside the question: once applied, its last line says so.
    let planShown: vscode.Uri | undefined;
    return {
      plans,
      active,
      locks: deps.applyLocks,
      confirm: (q) =>
        askInDialog(
          documents,
          q,
          vscode.l10n.t('Plan for {0}', connectionLabel(active?.profile.name ?? '')),
          (uri) => (planShown = uri),
        ),
      onApplied: (text) => {
        if (planShown !== undefined) documents.replace(planShown, text);
      },
      replan: (connection, files, prune, signal) => plan(connection, files, prune, signal),
      recipients: deps.recipients,
      onWritten: deps.onWritten,
      log,
    };
  };
  return {
    async prepare(name, input) {
      if (name !== APPLY_TOOL_NAME) return { invocationMessage: invocationText(name, input, connectionName()) };
      const prepared = applyPreparation(input, plans, deps.recipients(), documentLink);
      const q = prepared.confirmation;
      if (q === undefined) return { invocationMessage: prepared.invocationMessage };
      const message = new vscode.MarkdownString(q.message);
      message.isTrusted = { enabledCommands: [SHOW_AGENT_PLAN_COMMAND] };
      return { invocationMessage: prepared.invocationMessage, confirmationMessages: { title: q.title, message } };
    },
    async invoke(name, input, token) {
      const { signal, dispose } = signalOf(token);
      try {
        const active = await deps.connections.getActive();
        if (name === APPLY_TOOL_NAME) {
          const text = await runApply(input, applyDeps(active), signal);
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
        }
        const files = new WorkspaceTriggerFiles();
        const seenBy = active === undefined ? undefined : planEnvironmentOf(deps, active).environment;
        const environment = seenBy?.overlay && { name: seenBy.name, overlay: seenBy.overlay };
        const host = editorToolHost({
          active,
          lint: deps.lint,
          files,
          plan,
          plans,
          sessionFor: deps.sessionFor,
          ...(environment === undefined ? {} : { environment }),
        });
        const answer = await runTool(name, input, host, signal);
        log.info(
          `agent tool ${name}: ${answer.ok ? `answered ${answer.text.length} characters` : 'answered an error'}`,
        );
        if (!answer.ok) throw new Error(answer.reason);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(answer.text)]);
      } finally {
        dispose();
      }
    },
    async showPlan(planId) {
      const stored = typeof planId === 'string' ? plans.peek(planId) : undefined;
      if (stored === undefined) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('This plan is no longer kept: it was applied, or is older than 30 minutes.'),
        );
        return;
      }
      await documents.show(
        vscode.l10n.t('Plan for {0}', connectionLabel(stored.connection.name)),
        planDocumentOf(stored, deps.recipients()),
      );
    },
    dispose: () => documents.dispose(),
  };
}
