// `obs mcp`: a Model Context Protocol server on stdin and stdout for AI agents, with the read tools of
// src/agentTools (lists, lint, preview, query, drift, plan) and no tool that writes. This module declares the
// command; the server (mcpRun.ts, with the MCP SDK, the tools and the client) loads when it runs.
import type { Command } from 'commander';
import { CliUsageError, type MainIo } from './io';
import { ENV_METRICS_DATASETS, ENV_TRIGGER_FOLDER } from './mcpEnv';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';

export function defineMcp(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('mcp')
    .summary('serve the read tools to AI agents over the Model Context Protocol (stdio)')
    .description(
      'Runs a Model Context Protocol server on stdin and stdout for AI agents. Its tools list datasets, columns, triggers, SLOs and burn alerts, lint a trigger, preview a trigger, run a saved query, and compare and plan the trigger files under the current folder; none of them writes to the service. Every answer is bounded JSON. Runs until its input closes.',
    )
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files);
${ENV_METRICS_DATASETS} (comma-separated slugs) names the metrics datasets for the linter; ${ENV_TRIGGER_FOLDER} the
folder of the trigger files drift and plan read (default: the current folder; empty: none).
Without a service, the tools that read it answer an error and lint still works.
A message over 10 MiB (one line) is not read: it is answered with error -32600 (to its request when its id
can be read), said on stderr, and the server reads the next one.

Exit status: 0 when the input closed; 2 a usage problem.
`,
    )
    .action(async () => {
      if (io.stdio === undefined) throw new CliUsageError('obs mcp needs its standard input and output');
      const { serveMcp } = await import('./mcpRun');
      finish(await serveMcp(io, io.stdio));
    });
}
