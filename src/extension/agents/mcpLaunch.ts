// How the editor starts `obs mcp` for the active connection: the editor's own Node runs the bundled
// dist/cli.js. The definition VS Code is given first holds no key (VS Code keeps the definitions it was given
// in its storage, to list the server before the extension wakes); the key is added to the child's
// environment only when the server starts (resolveMcpServerDefinition), never to an argument or a file.
// No vscode import.
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { connectionLabel, type ConnectionProfile } from '../connections';

export interface McpLaunch {
  label: string;
  args: string[];
  /** Without the key: what VS Code may store. */
  env: Record<string, string>;
  /** Changes with the connection: VS Code then offers to refresh the server's tools. */
  version: string;
}

/** The server of the connection as listed: the label tells the connection; the environment names the service, not the key. */
export function mcpLaunch(
  profile: Pick<ConnectionProfile, 'id' | 'name' | 'baseUrl'>,
  extensionPath: string,
  metricsDatasets: readonly string[],
  folder: string | undefined,
): McpLaunch {
  return {
    label: l10n.t('Observability ({0})', connectionLabel(profile.name)),
    args: [path.join(extensionPath, 'dist', 'cli.js'), 'mcp'],
    // Desktop VS Code's Node is Electron's: this makes it run the script as Node does.
    env: {
      OBS_BASE_URL: profile.baseUrl,
      ELECTRON_RUN_AS_NODE: '1',
      // The workspace's trigger files; with no folder open, none (never wherever the server happened to start).
      OBS_TRIGGER_FOLDER: folder ?? '',
      ...(metricsDatasets.length > 0 ? { OBS_METRICS_DATASETS: metricsDatasets.join(',') } : {}),
    },
    version: profile.id,
  };
}

/**
 * The environment of the starting server: the listed one, with the key, the proxy the editor uses, and the
 * address of the connection the key belongs to. The address is set again here, not taken from the listed
 * definition: VS Code may start a definition it kept from before (same label, the connection's address since
 * changed), and the key must go only to its own service.
 */
export function startEnvironment<V>(
  listed: Readonly<Record<string, V>>,
  profile: Pick<ConnectionProfile, 'baseUrl'>,
  configKey: string,
  proxy: string | undefined,
): Record<string, V | string> {
  return {
    ...listed,
    OBS_BASE_URL: profile.baseUrl,
    OBS_CONFIG_KEY: configKey,
    ...(proxy === undefined || proxy === '' ? {} : { HTTPS_PROXY: proxy, HTTP_PROXY: proxy }),
  };
}
