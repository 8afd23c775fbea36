// Entry point of dist/agents-host.js: the language model tools, loaded by registerAgents.ts the first time an
// agent invokes one. Each call runs the shared tool (src/agentTools) against the connection active when it was
// invoked; its answer is one text part of bounded JSON, and a failure is thrown with its message (VS Code
// hands that to the model as the tool's error). The apply tool writes only a plan the user confirmed.
import * as vscode from 'vscode';
import { APPLY_TOOL_NAME, runTool, type SourceFile, type ToolName } from '../../agentTools';
import type { CreationPacer } from '../../backtest/runner';
import type { ActiveConnection, ConnectionManager } from '../connections';
import { configureL10n } from '../core/l10nSetup';
import type { Feedback } from '../core/feedback';
import type { Settings } from '../core/settings';
import { applyPreparation, runApply } from './applyTool';
import { editorToolHost } from './editorToolHost';
import { PlanStore } from './planStore';
import type { Linter } from '../sync';
import { invocationText } from './toolText';
import { WorkspaceTriggerFiles } from './workspaceFiles';
import { planWorkspace } from './workspacePlan';

export interface AgentsDeps {
  connections: ConnectionManager;
  settings: Settings;
  feedback: Feedback;
  /** The editor's linter (the lint worker): the gate of a plan, with the live columns it reads. */
  lint: Linter;
  /** A connection's query pacer (10 results a minute), the one the editor's own queries wait on. */
  pacerFor(connection: ActiveConnection): CreationPacer;
  /** After an apply wrote to a connection: its lists are read again (drift, the Datasets tree). */
  onWritten(connectionId: string): void;
}

export interface LoadedAgents {
  prepare(name: ToolName, input: unknown, token: vscode.CancellationToken): Promise<vscode.PreparedToolInvocation>;
  invoke(name: ToolName, input: unknown, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult>;
}

function signalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const sub = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => sub.dispose() };
}

export function createAgents(deps: AgentsDeps): LoadedAgents {
  // This bundle has its own copy of @vscode/l10n (see core/l10nSetup.ts).
  configureL10n();
  const plans = new PlanStore<WorkspaceTriggerFiles>();
  const log = deps.feedback.log;
  const connectionName = () => deps.connections.activeProfile()?.name ?? vscode.l10n.t('(no connection)');
  const plan = (connection: ActiveConnection, files: readonly SourceFile[], prune: boolean, signal: AbortSignal) =>
    planWorkspace({ connection, files, prune, signal, lint: deps.lint, concurrency: deps.settings.concurrency() });
  return {
    async prepare(name, input) {
      if (name !== APPLY_TOOL_NAME) return { invocationMessage: invocationText(name, input, connectionName()) };
      const prepared = applyPreparation(input, plans, deps.connections.activeProfile()?.id);
      const q = prepared.confirmation;
      return { invocationMessage: prepared.invocationMessage, ...(q === undefined ? {} : { confirmationMessages: { title: q.title, message: new vscode.MarkdownString(q.message) } }) };
    },
    async invoke(name, input, token) {
      const { signal, dispose } = signalOf(token);
      try {
        const active = await deps.connections.getActive();
        if (name === APPLY_TOOL_NAME) {
          const text = await runApply(input, { plans, active, onWritten: deps.onWritten, log }, signal);
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
        }
        const files = new WorkspaceTriggerFiles();
        const host = editorToolHost({ active, lint: deps.lint, files, plan, plans, pacerFor: deps.pacerFor });
        const answer = await runTool(name, input, host, signal);
        log.info(`agent tool ${name}: ${answer.ok ? `answered ${answer.text.length} characters` : 'answered an error'}`);
        if (!answer.ok) throw new Error(answer.error);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(answer.text)]);
      } finally {
        dispose();
      }
    },
  };
}
