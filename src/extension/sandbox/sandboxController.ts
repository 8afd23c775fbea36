// Starts the local sandbox inside the extension host, from dist/sandbox-host.js (a separate bundle, so
// the sandbox adds nothing to dist/extension.js), and makes it the active "Sandbox" connection.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SandboxHandle, SandboxOptions } from '../../sandbox/types';
import type { ConnectionManager } from '../connections/connectionManager';
import type { ConnectionProfile } from '../connections/profiles';
import { setSessionMetricsDatasets } from '../model/metrics';
import type { RememberedItems } from '../model/remembered';

export const SANDBOX_CONNECTION_ID = 'sandbox';

interface SandboxModule {
  startSandbox(options: SandboxOptions): Promise<SandboxHandle>;
}

export class SandboxController implements vscode.Disposable {
  private handle: SandboxHandle | undefined;
  private starting: Promise<SandboxHandle> | undefined;

  constructor(
    private readonly extensionPath: string,
    private readonly connections: ConnectionManager,
    private readonly remembered: RememberedItems,
    private readonly log: vscode.LogOutputChannel,
    private readonly onMetricsChanged: () => void,
  ) {}

  get running(): SandboxHandle | undefined {
    return this.handle;
  }

  /** Starts the sandbox (once) and makes its connection active. */
  async start(): Promise<SandboxHandle> {
    if (!this.handle) {
      this.starting ??= this.launch().finally(() => (this.starting = undefined));
      this.handle = await this.starting;
    }
    await this.connections.setActive(SANDBOX_CONNECTION_ID);
    return this.handle;
  }

  private async launch(): Promise<SandboxHandle> {
    const modulePath = path.join(this.extensionPath, 'dist', 'sandbox-host.js');
    // A runtime require of the separate bundle: esbuild leaves a non-literal require alone.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose
    const mod = require(modulePath) as SandboxModule;
    const handle = await mod.startSandbox({ port: 0, host: '127.0.0.1' });
    const info = handle.info;
    const profile: ConnectionProfile = {
      id: SANDBOX_CONNECTION_ID,
      name: 'Sandbox',
      baseUrl: info.baseUrl,
      uiUrl: info.uiUrl,
      team: info.team,
      environmentId: info.environmentId,
    };
    await this.connections.secrets.set(SANDBOX_CONNECTION_ID, { configKey: info.configKey, managementKey: info.managementKey });
    await this.connections.save(profile);
    await this.remembered.addDatasets(SANDBOX_CONNECTION_ID, info.datasets);
    const slosByDataset = new Map<string, string[]>();
    for (const s of info.slos) slosByDataset.set(s.dataset, [...(slosByDataset.get(s.dataset) ?? []), s.id]);
    for (const [dataset, ids] of slosByDataset) await this.remembered.addSlos(SANDBOX_CONNECTION_ID, dataset, ids);
    setSessionMetricsDatasets(handle.state.datasets.filter((d) => d.kind === 'metrics').map((d) => d.slug));
    this.onMetricsChanged();
    this.log.info(`sandbox started at ${info.baseUrl} (datasets: ${info.datasets.join(', ')})`);
    return handle;
  }

  /** Stops the sandbox and removes its connection (it would point at a closed port). */
  async stop(): Promise<void> {
    const handle = this.handle ?? (await this.starting?.catch(() => undefined));
    this.handle = undefined;
    if (handle) {
      await handle.close();
      this.log.info('sandbox stopped');
    }
    setSessionMetricsDatasets([]);
    this.onMetricsChanged();
    await this.removeConnection();
  }

  /** A Sandbox connection left from an earlier session points at a port nobody listens on: drop it. */
  async removeStaleConnection(): Promise<void> {
    if (!this.handle && this.connections.list().some((p) => p.id === SANDBOX_CONNECTION_ID)) await this.removeConnection();
  }

  private async removeConnection(): Promise<void> {
    if (!this.connections.list().some((p) => p.id === SANDBOX_CONNECTION_ID)) return;
    await this.connections.remove(SANDBOX_CONNECTION_ID);
    await this.remembered.forgetConnection(SANDBOX_CONNECTION_ID);
  }

  /** For deactivate: closes the server without touching state. */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  dispose(): void {
    void this.close();
  }
}
