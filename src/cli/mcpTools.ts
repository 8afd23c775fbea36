// The tools of `obs mcp` as the Model Context Protocol has them: each listed with its input and output
// schemas and annotations that say truly what it does, each call answered with its JSON as text and as
// structured content, and progress notifications while a call waits, when the client asked for them.
// The SDK's low-level server: its high-level one advertises `tools.listChanged`, which this server, whose
// tools are fixed when it starts, never sends.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import {
  inputJsonSchema,
  outputJsonSchema,
  runTool,
  type AnyTool,
  type ToolEffect,
  type ToolHost,
} from '../agentTools';

/**
 * The MCP annotations of what a tool does (the specification's hints). A tool that only reads is
 * `readOnlyHint`. Previews and queries are not: they change no configuration, but they create saved queries
 * and query results on the service and spend the team's 10 a minute, which each call spends anew (not
 * idempotent), adding and never removing (not destructive). Every tool talks to the service, an open world.
 */
function mcpAnnotations(effect: ToolEffect): ToolAnnotations {
  if (effect === 'reads') return { readOnlyHint: true, openWorldHint: true };
  return { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
}

function toolListing(tool: AnyTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: { ...inputJsonSchema(tool.name), type: 'object' },
    outputSchema: { ...outputJsonSchema(tool), type: 'object' },
    annotations: { title: tool.title, ...mcpAnnotations(tool.effect) },
  };
}

/** The host of one call: the same, but whose query waits and polls are reported as `report` says. */
function reportingHost(host: ToolHost, report: (message: string) => void): ToolHost {
  return {
    service: () => host.service(),
    queries: async () => ({ ...(await host.queries()), report }),
    lint: (text, columns, signal) => host.lint(text, columns, signal),
    files: host.files,
    target: () => host.target(),
  };
}

type Notify = (notification: {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; message: string };
}) => Promise<void>;

/**
 * Progress for a request that sent a progress token: each report a notification, its progress one more than
 * the last (MCP asks it to increase; the total is unknown). A client that resets its timeout on progress
 * keeps waiting while a call waits for the rate limit or polls a result.
 */
function progressReporter(token: string | number, notify: Notify): (message: string) => void {
  let progress = 0;
  return (message) => {
    progress += 1;
    notify({ method: 'notifications/progress', params: { progressToken: token, progress, message } }).catch(
      () => undefined,
    );
  };
}

/**
 * A JSON-RPC error as the SDK's server answers a thrown error: its code and message as they are (the SDK's
 * McpError puts "MCP error <code>:" before the message, which the client's McpError then repeats).
 */
class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Lists the tools and answers their calls on the server; a tool not served is an unknown tool (-32602, as MCP has it). */
export function serveTools(server: Server, tools: readonly AnyTool[], host: ToolHost): void {
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(toolListing) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (tool === undefined) throw new RequestError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const token = extra._meta?.progressToken;
    const callHost = token === undefined ? host : reportingHost(host, progressReporter(token, extra.sendNotification));
    const answer = await runTool(tool.name, request.params.arguments ?? {}, callHost, extra.signal);
    const content = [{ type: 'text' as const, text: answer.text }];
    return answer.ok ? { content, structuredContent: answer.result } : { content, isError: true };
  });
}
