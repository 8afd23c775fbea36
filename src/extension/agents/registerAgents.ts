// Registers the language model tools and the MCP server definition provider at activation, and loads what runs
// the tools (dist/agents-host.js: the shared tools, the linter, plans and applies) only when an agent first
// invokes one. A host without the language model API (an older or other editor) gets neither. The provider lists
// `obs mcp` only where the tools are not registered: agent mode would otherwise have every tool twice.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MCP_PROVIDER_ID, TOOL_NAMES } from '../../agentTools/names';
import type { AgentsDeps, LoadedAgents } from './agentsHost';
import { SHOW_AGENT_PLAN_COMMAND } from './agentIds';
import { McpServers } from './mcpServers';

export interface RegisterAgentsDeps extends AgentsDeps {
  extensionUri: vscode.Uri;
}

export interface RegisteredAgents {
  disposables: vscode.Disposable[];
  /** The tools as VS Code calls them, loaded on first use (also by the in-host tests, through the seam). */
  loaded(): LoadedAgents;
  /** The MCP server definition provider; undefined where the editor has no MCP API. */
  mcpServers: McpServers | undefined;
}

export function registerAgents(deps: RegisterAgentsDeps): RegisteredAgents {
  let loaded: LoadedAgents | undefined;
  const load = (): LoadedAgents => {
    // A runtime require of the separate bundle: esbuild leaves a non-literal require alone.
    /* eslint-disable @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose */
    loaded ??= (
      require(path.join(deps.extensionUri.fsPath, 'dist', 'agents-host.js')) as {
        createAgents: (d: AgentsDeps) => LoadedAgents;
      }
    ).createAgents(deps);
    /* eslint-enable @typescript-eslint/no-require-imports */
    return loaded;
  };
  const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
  const disposables: vscode.Disposable[] = [];
  let toolsRegistered = false;
  if (typeof lm?.registerTool === 'function') {
    toolsRegistered = true;
    for (const name of TOOL_NAMES) {
      disposables.push(
        lm.registerTool<unknown>(name, {
          prepareInvocation: (options, token) => load().prepare(name, options.input, token),
          invoke: (options, token) => load().invoke(name, options.input, token),
        }),
      );
    }
  }
  let mcpServers: McpServers | undefined;
  if (typeof lm?.registerMcpServerDefinitionProvider === 'function') {
    mcpServers = new McpServers({
      connections: deps.connections,
      settings: deps.settings,
      extensionPath: deps.extensionUri.fsPath,
      log: deps.feedback.log,
      toolsRegistered,
    });
    disposables.push(mcpServers, lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcpServers));
  }
  // The chat question's link to an agent's whole plan (not in the palette: it takes a plan_id).
  disposables.push(
    vscode.commands.registerCommand(SHOW_AGENT_PLAN_COMMAND, (planId: unknown) => load().showPlan(planId)),
  );
  // What the loaded tools registered (their plan documents) goes with the extension.
  disposables.push({ dispose: () => loaded?.dispose() });
  return { disposables, loaded: load, mcpServers };
}
