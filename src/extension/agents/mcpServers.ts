// The MCP server definition VS Code gets from us: `obs mcp` for the active connection (none without one), listed
// again whenever the active connection changes; none either where the editor's language model tools are
// registered, which agent mode already has (the same tools, and apply): listed, they would be there twice. The listed definition names the service but holds no key; the
// key goes into the child's environment only when VS Code starts the server (resolveMcpServerDefinition).
import * as vscode from 'vscode';
import { connectionLabel, type ConnectionManager } from '../connections';
import type { Logger } from '../core/logger';
import type { Settings } from '../core/settings';
import { mcpLaunch, startEnvironment } from './mcpLaunch';

export interface McpServersDeps {
  /** The active connection, its changes, and its key for the child: all the server definitions need of it. */
  connections: Pick<ConnectionManager, 'activeProfile' | 'onDidChangeActive' | 'configKeyForChild'>;
  settings: Settings;
  extensionPath: string;
  log: Logger;
  /** Whether the language model tools of src/agentTools are registered in this editor: then no server is listed. */
  toolsRegistered: boolean;
}

export class McpServers
  implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable
{
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly deps: McpServersDeps) {
    this.subscriptions = [
      this.changed,
      deps.connections.onDidChangeActive(() => this.changed.fire()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed.fire()),
      deps.settings.onDidChange((names) => {
        if (names.has('metricsDatasets')) this.changed.fire();
      }),
    ];
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const profile = this.deps.connections.activeProfile();
    if (profile === undefined || this.deps.toolsRegistered) return [];
    // drift and plan read the trigger files of the first workspace folder.
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const launch = mcpLaunch(profile, this.deps.extensionPath, this.deps.settings.metricsDatasets(), folder?.fsPath);
    const server = new vscode.McpStdioServerDefinition(
      launch.label,
      process.execPath,
      launch.args,
      launch.env,
      launch.version,
    );
    if (folder !== undefined) server.cwd = folder;
    return [server];
  }

  async resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition> {
    const profile = this.deps.connections.activeProfile();
    if (profile === undefined || mcpLaunch(profile, this.deps.extensionPath, [], undefined).label !== server.label) {
      throw new Error(
        vscode.l10n.t(
          'This server was listed for a connection that is no longer the active one. Refresh the MCP servers.',
        ),
      );
    }
    const key = await this.deps.connections.configKeyForChild(profile.id);
    if (key === undefined || key === '')
      throw new Error(
        vscode.l10n.t(
          'The connection {0} has no configuration key. Edit the connection to add one.',
          connectionLabel(profile.name),
        ),
      );
    server.env = startEnvironment(server.env, profile, key, this.deps.settings.httpProxy());
    this.deps.log.info(`starting obs mcp for the connection ${profile.name}`);
    return server;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
