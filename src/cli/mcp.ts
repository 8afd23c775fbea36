// `obs mcp`: a Model Context Protocol server on stdin and stdout for AI agents, with the tools of
// src/agentTools (lists, triggers, lint, preview, query, drift, plan) of the toolsets asked for, and no tool
// that writes. This module declares the command; the server (mcpRun.ts, with the MCP SDK, the tools and the
// client) loads when it runs.
import type { Command } from 'commander';
import { CliUsageError, EXIT_TROUBLE, warn, type MainIo } from './io';
import type { EnvironmentInvocation } from './environment';
import { envOption, environmentsOption } from './environmentOptions';
import { TOOLSETS } from '../agentTools/names';
import { ENV_METRICS_DATASETS, ENV_TOOLSETS, ENV_TRIGGER_FOLDER, toolsetsFrom } from './mcpEnv';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';

export function defineMcp(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('mcp')
    .summary('serve the tools for AI agents over the Model Context Protocol (stdio); none writes configuration')
    .description(
      "Runs a Model Context Protocol server on stdin and stdout for AI agents. Its tools list datasets, columns, triggers, SLOs and burn alerts, read one trigger whole, lint a trigger, preview a trigger, run a saved query, and compare and plan the trigger files under the current folder; none of them changes the service's configuration (previews and queries create query results). Every answer is bounded JSON, as text and as structured content. While a call waits for the rate limit or polls a result, it sends progress to a client that asked for it. Runs until its input closes.",
    )
    .option(
      '--toolsets <list>',
      `the toolsets to serve, comma-separated: ${TOOLSETS.join(', ')}, or all (default: ${ENV_TOOLSETS}, else all)`,
    )
    .addOption(envOption('compare and plan the trigger files'))
    .addOption(environmentsOption())
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files);
${ENV_METRICS_DATASETS} (comma-separated slugs) names the metrics datasets for the linter; ${ENV_TRIGGER_FOLDER} the
folder of the trigger files drift and plan read (default: the current folder; empty: none).
Without a service, the tools that read it answer an error and lint still works. With --env NAME the service is the
one the environment's variables name, and obs_drift and obs_plan compare and plan each trigger file as that
environment sees it (docs/ENVIRONMENTS.md), as obs drift --env and obs plan --env do; obs_lint_trigger lints the
text it is given as it is.
Toolsets: read (obs_list_datasets, obs_list_columns, obs_list_triggers, obs_get_trigger, obs_list_slos,
obs_list_burn_alerts), lint (obs_lint_trigger), query (obs_preview_trigger, obs_run_query: they create
query results), plan (obs_drift, obs_plan).
A message over 10 MiB (one line) is not read: it is answered with error -32600 (to its request when its id
can be read), said on stderr, and the server reads the next one.

Exit status: 0 when the input closed; 2 a usage problem.
`,
    )
    .action(async (options: { toolsets?: string } & EnvironmentInvocation) => {
      if (io.stdio === undefined) throw new CliUsageError('obs mcp needs its standard input and output');
      const toolsets = toolsetsFrom(options.toolsets, io.env ?? {});
      const { mcpEnvironment, serveMcp } = await import('./mcpRun');
      const environment = await mcpEnvironment(options, io);
      if (!environment.ok) {
        warn(io, `${environment.reason}; the server did not start`);
        return finish(EXIT_TROUBLE);
      }
      finish(await serveMcp(io, io.stdio, toolsets, environment.value));
    });
}
