// The server of `obs mcp` (declared in mcp.ts, loaded when the command runs, from dist/cli-mcp.js): a Model
// Context Protocol server on stdin and stdout for AI agents, with the read tools of src/agentTools (lists,
// lint, preview, query, drift, plan) and no tool that writes. The service comes from
// the environment only (OBS_BASE_URL, OBS_CONFIG_KEY), as for every obs command. It runs until its input
// closes; stdout carries the protocol alone, anything else goes to stderr. A message over 10 MiB is refused
// with an error answer and a line on stderr, and the server reads on (mcpStdio.ts).
import type { Readable, Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { version } from '../../package.json';
import { INPUTS, runTool, TOOLS, UNTRUSTED, type ToolHost } from '../agentTools';
import { EXIT_OK, warn, type MainIo } from './io';
import { mcpHost } from './mcpHost';
import { LineTransport, refusalText } from './mcpStdio';

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
export async function serveMcp(io: Pick<MainIo, 'cwd' | 'env' | 'stderr'>, streams: McpStreams): Promise<number> {
  const host = mcpHost(io);
  const server = createMcpServer(host);
  const transport = new LineTransport(streams.input, streams.output, (refusal) => warn(io, refusalText(refusal)));
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
