// The agent tools (no vscode import): shared by the MCP server (`obs mcp`, src/cli/mcp.ts) and the editor's
// language model tools (src/extension/agents). Each host hands in a ToolHost; runTool answers bounded JSON.
export { answerText, boundedAnswer, clip, clipName, defined, firstOf, jsonText, LIMITS, ToolError } from './answer';
export type { FileKinds, PlanWithNotes, QueryRunner, ServiceReader, SourceFile, ToolHost } from './context';
export { inputJsonSchema, parseInput } from './inputs';
export {
  APPLY_TOOL_NAME,
  MCP_PROVIDER_ID,
  READ_TOOL_NAMES,
  TOOL_NAMES,
  TOOLSETS,
  type ToolName,
  type Toolset,
} from './names';
export {
  APPLY_TOOL,
  outputJsonSchema,
  runTool,
  TOOLS,
  toolNamed,
  UNTRUSTED,
  type AnyTool,
  type ToolEffect,
} from './tools';
