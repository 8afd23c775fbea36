// Entry point of dist/cli-service.js: the runs of the commands that talk to the service (pull, drift,
// plan, apply, test, noise, mcp), with the client and undici, loaded by dist/cli.js when one of them runs
// (esbuild.mjs). One bundle for them all, so the .vsix holds one copy of what they share; the MCP server
// (the MCP SDK, the agents' tools) is made ready only when `obs mcp` runs.
export { runApply } from './applyRun';
export { runDrift } from './driftRun';
export { runNoise } from './noiseRun';
export { runPlan } from './planRun';
export { runPull } from './pullRun';
export { runTests } from './testRun';

/** `obs mcp`'s server (mcpRun.ts), loaded from within this bundle when asked for. */
export async function serveMcp(
  ...args: Parameters<typeof import('./mcpRun').serveMcp>
): ReturnType<typeof import('./mcpRun').serveMcp> {
  const { serveMcp: serve } = await import('./mcpRun');
  return serve(...args);
}
// What `obs lint --columns-from-service` loads from here (lintRun.ts).
export { readColumns } from './columns';
export { clientFromEnvironment } from './service';
