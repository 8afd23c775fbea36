// The names of the agent tools, shared by the MCP server (`obs mcp`), the editor's language model tools and
// the manifest (`contributes.languageModelTools`). Plain constants: the activation bundle registers the
// tools by these names and loads what runs them only when one is first invoked.

/**
 * Tools that change no configuration: the service's lists and triggers, the linter, previews, queries and the
 * noise report (which create query results), drift and plans.
 */
export const READ_TOOL_NAMES = [
  'obs_list_datasets',
  'obs_list_columns',
  'obs_list_triggers',
  'obs_get_trigger',
  'obs_list_slos',
  'obs_list_burn_alerts',
  'obs_lint_trigger',
  'obs_preview_trigger',
  'obs_run_query',
  'obs_drift',
  'obs_plan',
  'obs_noise',
] as const;

/** The one tool that writes: applying a plan, after the user confirmed it. Offered in the editor only, never by `obs mcp`. */
export const APPLY_TOOL_NAME = 'obs_apply_plan';

export type ReadToolName = (typeof READ_TOOL_NAMES)[number];
export type ToolName = ReadToolName | typeof APPLY_TOOL_NAME;

export const TOOL_NAMES: readonly ToolName[] = [...READ_TOOL_NAMES, APPLY_TOOL_NAME];

/**
 * The toolsets `obs mcp --toolsets` serves, as GitHub's MCP server has them: each tool is in one (its
 * definition says which). read: the service's lists and triggers; lint: the linter; query: previews and
 * queries, which create query results; plan: drift and plans of the trigger files.
 */
export const TOOLSETS = ['read', 'lint', 'query', 'plan'] as const;
export type Toolset = (typeof TOOLSETS)[number];

/** The id of the MCP server definition provider (`contributes.mcpServerDefinitionProviders`). */
export const MCP_PROVIDER_ID = 'obs.mcpServer';
