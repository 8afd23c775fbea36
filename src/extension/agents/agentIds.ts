// The id of the command that opens an agent's kept plan (the chat's question links to it): registered at
// activation, run by the agents' bundle. No vscode import.

/** Opens the whole plan of a plan_id beside the editor; not in the palette (it needs a plan_id). */
export const SHOW_AGENT_PLAN_COMMAND = 'obs.agents.showPlan';
