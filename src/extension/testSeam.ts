// The in-host test suite's one way to the extension's internals. That suite (test/vscode/suite) runs in
// a second extension inside the same extension host, so it shares this process's globalThis but nothing
// else. activate() returns nothing: `vscode.extensions.getExtension(...).exports`, which any extension
// can read, reaches no connection, key, context or form. The internals are published on a process-wide
// registry only in a test run: when VS Code runs the extension under a test runner (ExtensionMode.Test),
// or when the extension host's environment has OBS_VSCODE_TEST_SEAM=1 (the code-server in-host run sets
// it; code-server installs the extension as a normal one). Only type imports: this loads without vscode.
import type * as vscode from 'vscode';
import type { LoadedAgents } from './agents/agentsHost';
import type { McpServers } from './agents/mcpServers';
import type { ConnectionManager } from './connections/connectionManager';
import type { TriggerDiagnostics } from './diagnostics/triggerDiagnostics';
import type { FormPanels } from './forms/panels';
import type { SandboxController } from './sandbox/sandboxController';
import type { DatasetTreeModel } from './tree/datasetTree';
import type { KeyRegistry } from './tree/keyRegistry';
import type { TreeNode } from './tree/nodes';

/** The environment variable that opens the seam (value `1`). */
export const TEST_SEAM_VARIABLE = 'OBS_VSCODE_TEST_SEAM';
/** Where the seam is published: `globalThis[Symbol.for('obs-vscode.testSeam')]`. */
export const TEST_SEAM_KEY = Symbol.for('obs-vscode.testSeam');

/** What the in-host tests reach: the same objects the features work with. */
export interface TestSeam {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly connections: ConnectionManager;
  readonly keys: KeyRegistry;
  readonly tree: DatasetTreeModel;
  readonly view: vscode.TreeView<TreeNode>;
  readonly diagnostics: TriggerDiagnostics;
  readonly sandbox: SandboxController;
  /** The open form panels; undefined until a form was first opened (the forms load on first use). */
  formPanels(): FormPanels | undefined;
  /** The language model tools as VS Code calls them (prepareInvocation, invoke); loads them on first use. */
  agents(): LoadedAgents;
  /** The MCP server definition provider (undefined where the editor has no MCP API). */
  readonly mcpServers: McpServers | undefined;
}

/** What decides whether the seam opens. */
export interface TestSeamGate {
  /** The extension host's environment (process.env). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether VS Code runs the extension under a test runner (context.extensionMode is ExtensionMode.Test). */
  readonly testMode: boolean;
}

export function testSeamOpen(gate: TestSeamGate): boolean {
  return gate.testMode || gate.env[TEST_SEAM_VARIABLE] === '1';
}

/**
 * Publishes `seam` on the registry when the gate is open, and nothing otherwise. Disposing withdraws it
 * (at deactivation), unless another activation published its own since.
 */
export function publishTestSeam<T extends object>(gate: TestSeamGate, seam: () => T): { dispose(): void } {
  if (!testSeamOpen(gate)) return { dispose: () => undefined };
  const registry = globalThis as Record<symbol, unknown>;
  const published = seam();
  registry[TEST_SEAM_KEY] = published;
  return {
    dispose: () => {
      if (registry[TEST_SEAM_KEY] === published) delete registry[TEST_SEAM_KEY];
    },
  };
}
