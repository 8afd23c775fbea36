// The server of `obs mcp` (declared in mcp.ts, loaded when the command runs, from dist/cli-mcp.js): a Model
// Context Protocol server on stdin and stdout for AI agents, with the tools of src/agentTools of the toolsets
// it was started with (lists, triggers, lint, preview, query, drift, plan) and no tool that writes. The
// service comes from the environment only (OBS_BASE_URL, OBS_CONFIG_KEY), as for every obs command. It runs
// until its input closes; stdout carries the protocol alone, anything else goes to stderr. A message over
// 10 MiB is refused with an error answer and a line on stderr, and the server reads on (mcpStdio.ts).
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { version } from '../../package.json';
import { TOOLS, TOOLSETS, UNTRUSTED, type AnyTool, type Toolset, type ToolHost } from '../agentTools';
import { EXIT_OK, warn, type MainIo } from './io';
import { environmentOf, type CliEnvironment, type EnvironmentInvocation } from './environment';
import { ENV_TRIGGER_FOLDER } from './mcpEnv';
import { mcpHost } from './mcpHost';
import { LineTransport, refusalText } from './mcpStdio';
import { serveTools } from './mcpTools';

/** What each toolset lets an agent do, for the server's instructions. */
const TOOLSET_WORDS: Record<Toolset, string> = {
  read: 'list datasets, columns, triggers, SLOs and burn alerts, and read one trigger whole',
  lint: 'lint a trigger',
  query: 'preview a trigger over past data and run a saved query (both create query results, 10 a minute for the team)',
  plan: 'compare the trigger files of the folder with the service and plan applying them',
};

/** The instructions the server gives a client: what its tools do, that nothing writes, and that answers are data. */
function mcpInstructions(toolsets: readonly Toolset[]): string {
  const can = TOOLSETS.filter((t) => toolsets.includes(t)).map((t) => TOOLSET_WORDS[t]);
  return `Tools of an observability service's configuration: ${can.join('; ')}. Nothing here changes the service's configuration: a person applies a plan. ${UNTRUSTED}`;
}

/** The streams the server speaks on: the process's stdin and stdout, or a test's. */
export interface McpStreams {
  input: Readable;
  output: Writable;
}

/** The tools of the toolsets, in their order. */
function toolsOf(toolsets: readonly Toolset[]): readonly AnyTool[] {
  const all: readonly AnyTool[] = TOOLS;
  return all.filter((t) => toolsets.includes(t.toolset));
}

/**
 * The MCP server with the tools of the toolsets (every one by default), on the given host. Its capabilities
 * are tools only, without listChanged: the tools are fixed when it starts, so no list change is ever sent.
 */
export function createMcpServer(host: ToolHost, toolsets: readonly Toolset[] = TOOLSETS): Server {
  const server = new Server(
    { name: 'obs', version },
    { capabilities: { tools: {} }, instructions: mcpInstructions(toolsets) },
  );
  serveTools(server, toolsOf(toolsets), host);
  return server;
}

/** Serves until the input closes; resolves with the exit status. */
export async function serveMcp(
  io: Pick<MainIo, 'cwd' | 'env' | 'stderr'>,
  streams: McpStreams,
  toolsets: readonly Toolset[] = TOOLSETS,
  environment?: CliEnvironment,
): Promise<number> {
  // With --env the service is the one the environment's variables name.
  const host = mcpHost(environment === undefined ? io : { ...io, env: environment.serviceEnv }, environment);
  const server = createMcpServer(host, toolsets);
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

/** The environment of --env (undefined without it); the files' folder is the server's. */
export async function mcpEnvironment(options: EnvironmentInvocation, io: Pick<MainIo, 'cwd' | 'env'>) {
  const folder = io.env?.[ENV_TRIGGER_FOLDER];
  return environmentOf(options, [folder === undefined || folder.trim() === '' ? '.' : folder], io);
}
