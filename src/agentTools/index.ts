// The agent tools (no vscode import): shared by the MCP server (`obs mcp`, src/cli/mcp.ts) and the editor's
// language model tools (src/extension/agents). Each host hands in a ToolHost; runTool answers bounded JSON.
export { answerText, clip, clipName, defined, firstOf, jsonText, LIMITS, ToolError, type Answer } from './answer';
export type { PlanWithNotes, QueryRunner, ServiceReader, SourceFile, ToolHost, TriggerFileSource } from './context';
export { failureText, statusOf } from './failures';
export { INPUTS, inputJsonSchema, parseInput, type ToolInputs } from './inputs';
export { APPLY_TOOL_NAME, MCP_PROVIDER_ID, READ_TOOL_NAMES, TOOL_NAMES, type ReadToolName, type ToolName } from './names';
export { APPLY_TOOL, runTool, TOOLS, toolNamed, UNTRUSTED, type ToolDefinition } from './tools';
