// `obs mcp`: a Model Context Protocol server on stdin and stdout for AI agents, with the read tools of
// src/agentTools (lists, lint, preview, query, drift, plan) and no tool that writes. The service comes from
// the environment only (OBS_BASE_URL, OBS_CONFIG_KEY), as for every obs command. It runs until its input
// closes; stdout carries the protocol alone, anything else goes to stderr.
import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { version } from '../../package.json';
import { INPUTS, runTool, TOOLS, UNTRUSTED, type ToolHost } from '../agentTools';
import { CliUsageError, EXIT_OK, type MainIo } from './io';
import { ENV_METRICS_DATASETS, ENV_TRIGGER_FOLDER, mcpHost } from './mcpHost';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './service';

export const MCP_INSTRUCTIONS = `Tools of an observability service's configuration: list datasets, columns, triggers, SLOs and burn alerts; lint a trigger; preview a trigger over past data; run a saved query; compare the trigger files of the folder with the service and plan applying them. Nothing here writes to the service: a person applies a plan. ${UNTRUSTED}`;

/** The streams the server speaks on: the process's stdin and stdout, or a test's. */
export interface McpStreams {
  input: Readable;
  output: Writable;
}

/** The MCP server with every read tool of src/agentTools, on the given host. */
export function createMcpServer(host: ToolHost): McpServer {
  const server = new McpServer({ name: 'obs', version }, { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: INPUTS[tool.name], annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, openWorldHint: true } },
      async (args: unknown, extra: { signal: AbortSignal }) => {
        const answer = await runTool(tool.name, args, host, extra.signal);
        return { content: [{ type: 'text' as const, text: answer.text }], isError: !answer.ok };
      },
    );
  }
  return server;
}

/** Serves until the input closes; resolves with the exit status. */
export async function serveMcp(io: Pick<MainIo, 'cwd' | 'env'>, streams: McpStreams): Promise<number> {
  const host = mcpHost(io);
  const server = createMcpServer(host);
  const transport = new StdioServerTransport(streams.input, streams.output);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    streams.input.once('end', () => resolve());
    streams.input.once('close', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
  await host.close();
  return EXIT_OK;
}

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

Exit status: 0 when the input closed; 2 a usage problem.
`,
    )
    .action(async () => {
      if (io.stdio === undefined) throw new CliUsageError('obs mcp needs its standard input and output');
      finish(await serveMcp(io, io.stdio));
    });
}
