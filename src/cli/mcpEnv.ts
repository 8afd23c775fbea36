// The environment `obs mcp` reads besides the service (serviceEnv.ts), and its toolsets, apart from the server
// so that declaring the command loads nothing of it.
import { TOOLSETS, type Toolset } from '../agentTools/names';
import { CliUsageError } from './io';

/** Metrics datasets for the linter's rules, comma-separated (the CLI's --metrics-dataset, the editor's obs.metricsDatasets). */
export const ENV_METRICS_DATASETS = 'OBS_METRICS_DATASETS';

/**
 * The folder whose trigger files drift and plan read, when not the one the server runs in; empty: none (the
 * editor starts the server so when no folder is open, rather than let it search wherever it was started).
 */
export const ENV_TRIGGER_FOLDER = 'OBS_TRIGGER_FOLDER';

/** The toolsets served when --toolsets is not given (comma-separated, as the flag; default: all). */
export const ENV_TOOLSETS = 'OBS_MCP_TOOLSETS';

/**
 * The toolsets named by --toolsets, else by OBS_MCP_TOOLSETS, else all: comma-separated names, `all` for every
 * one. An unknown name, or none, is a usage error: a server serving fewer tools than asked would go unnoticed.
 */
export function toolsetsFrom(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): Toolset[] {
  const given = flag ?? env[ENV_TOOLSETS];
  if (given === undefined) return [...TOOLSETS];
  const from = flag === undefined ? ENV_TOOLSETS : '--toolsets';
  const names = given
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  if (names.length === 0)
    throw new CliUsageError(`${from} names no toolset: name some of ${TOOLSETS.join(', ')}, or all`);
  const unknown = names.filter((n) => n !== 'all' && !(TOOLSETS as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new CliUsageError(
      `${from} names ${unknown.map((n) => JSON.stringify(n)).join(', ')}, not a toolset: the toolsets are ${TOOLSETS.join(', ')}, or all`,
    );
  return names.includes('all') ? [...TOOLSETS] : TOOLSETS.filter((t) => names.includes(t));
}
