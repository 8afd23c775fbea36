// Starts the local sandbox inside the extension host, from dist/sandbox-host.js (a separate bundle, so
// the sandbox adds nothing to dist/extension.js), and makes it the active "Sandbox" connection.
// The connection is transient: its profile and keys live in this window's memory only (the server dies
// with the window), so nothing of it is left in globalState or SecretStorage, and another window's
// sandbox is never mistaken for stale and removed.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SandboxHandle, SandboxOptions } from '../../sandbox/types';
import type { ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import type { Logger } from '../core/logger';
import type { MementoLike } from '../core/memento';
import type { Settings } from '../core/settings';
import { SANDBOX_CONNECTION_ID, sandboxProfile } from './sandboxSession';

const STALE_CLEANUP_KEY = 'obs.sandbox.staleCleanupDone';

interface SandboxModule {
  startSandbox(options: SandboxOptions): Promise<SandboxHandle>;
}

export interface SandboxDeps {
  extensionPath: string;
  connections: ConnectionManager;
  settings: Pick<Settings, 'setSessionMetricsDatasets'>;
  log: Logger;
}

export type SandboxState = 'stopped' | 'starting' | 'running';

export class SandboxController implements vscode.Disposable {
  private handle: SandboxHandle | undefined;
  private starting: Promise<SandboxHandle> | undefined;
  private readonly stateChanged = new vscode.EventEmitter<SandboxState>();
  /** Fires when the sandbox starts, runs or stops (the context key obs.sandbox.state follows it). */
  readonly onDidChangeState = this.stateChanged.event;

  constructor(private readonly deps: SandboxDeps) {}

  get running(): SandboxHandle | undefined {
    return this.handle;
  }

  get state(): SandboxState {
    return this.handle ? 'running' : this.starting ? 'starting' : 'stopped';
  }

  /** Starts the sandbox (once) and makes its connection active. */
  async start(): Promise<SandboxHandle> {
    if (!this.handle) {
      if (!this.starting) {
        this.starting = this.launch().finally(() => (this.starting = undefined));
        this.stateChanged.fire('starting');
        // A failed start is back to stopped; the caller reports the failure.
        this.starting.catch(() => this.stateChanged.fire(this.state));
      }
      this.handle = await this.starting;
      this.stateChanged.fire('running');
    }
    await this.deps.connections.setActive(SANDBOX_CONNECTION_ID);
    return this.handle;
  }

  private async launch(): Promise<SandboxHandle> {
    const modulePath = path.join(this.deps.extensionPath, 'dist', 'sandbox-host.js');
    // A runtime require of the separate bundle: esbuild leaves a non-literal require alone.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose
    const mod = require(modulePath) as SandboxModule;
    // Its control endpoints need a per-run token. Tests that drive the editor from outside set it through
    // OBS_SANDBOX_CONTROL_TOKEN, since they cannot read it from this process; otherwise it is random.
    const controlToken = process.env['OBS_SANDBOX_CONTROL_TOKEN'];
    const handle = await mod.startSandbox({ port: 0, host: '127.0.0.1', ...(controlToken ? { controlToken } : {}) });
    const info = handle.info;
    // Its datasets, SLOs and recipients are read from its listings, as from a real service's.
    this.deps.connections.addTransient(sandboxProfile(info), {
      configKey: info.configKey,
      managementKey: info.managementKey,
    });
    // Its metrics datasets count while it runs: the tree and the linter follow the settings' change event.
    this.deps.settings.setSessionMetricsDatasets(
      handle.state.datasets.filter((d) => d.kind === 'metrics').map((d) => d.slug),
    );
    this.deps.log.info(`sandbox started at ${info.baseUrl} (datasets: ${info.datasets.join(', ')})`);
    return handle;
  }

  /** Stops the sandbox and removes its connection (it would point at a closed port). */
  async stop(): Promise<void> {
    const handle = this.handle ?? (await this.starting?.catch(() => undefined));
    this.handle = undefined;
    // The connection goes first: the tree then stops loading from it before the port closes, instead of
    // logging "connection refused" (or a keyless client's errors) for loads still in flight.
    await this.removeConnection();
    if (handle) {
      await handle.close();
      this.deps.log.info('sandbox stopped');
    }
    this.deps.settings.setSessionMetricsDatasets([]);
    this.stateChanged.fire('stopped');
  }

  /**
   * Earlier versions saved the Sandbox connection in globalState and its keys in SecretStorage,
   * where they outlived the server: delete both (the keys even when the profile is already gone).
   */
  async removeStaleConnection(state: MementoLike): Promise<void> {
    // Once per profile: deleting a secret reaches the OS keychain, which activation should not do every time.
    if (state.get<boolean>(STALE_CLEANUP_KEY) === true) return;
    const connections = this.deps.connections;
    if (connections.store.persisted().some((p) => p.id === SANDBOX_CONNECTION_ID)) {
      await connections.store.remove(SANDBOX_CONNECTION_ID);
    }
    await connections.deleteSecrets(SANDBOX_CONNECTION_ID);
    await state.update(STALE_CLEANUP_KEY, true);
  }

  private async removeConnection(): Promise<void> {
    if (!this.deps.connections.isTransient(SANDBOX_CONNECTION_ID)) return;
    await this.deps.connections.remove(SANDBOX_CONNECTION_ID);
  }

  /** For deactivate: closes the server without touching state. */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  dispose(): void {
    this.stateChanged.dispose();
    void this.close();
  }
}

export function registerSandboxCommands(
  controller: SandboxController,
  feedback: Feedback,
  viewId: string,
): vscode.Disposable[] {
  const showState = (state: SandboxState): void =>
    void vscode.commands.executeCommand('setContext', 'obs.sandbox.state', state);
  showState(controller.state);
  return [
    controller.onDidChangeState(showState),
    feedback.registerCommand('obs.sandbox.start', vscode.l10n.t('start the local sandbox'), async () => {
      // Progress in the view itself: its welcome says "Starting the local sandbox..." meanwhile.
      const handle = await vscode.window.withProgress({ location: { viewId } }, () => controller.start());
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The local sandbox runs at {0} and is the active connection.', handle.info.baseUrl),
      );
      return handle.info.baseUrl;
    }),
    feedback.registerCommand('obs.sandbox.stop', vscode.l10n.t('stop the local sandbox'), () => controller.stop()),
  ];
}
