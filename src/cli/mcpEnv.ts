// The environment `obs mcp` reads besides the service (serviceEnv.ts), apart from the server so that declaring
// the command loads nothing of it.

/** Metrics datasets for the linter's rules, comma-separated (the CLI's --metrics-dataset, the editor's obs.metricsDatasets). */
export const ENV_METRICS_DATASETS = 'OBS_METRICS_DATASETS';

/**
 * The folder whose trigger files drift and plan read, when not the one the server runs in; empty: none (the
 * editor starts the server so when no folder is open, rather than let it search wherever it was started).
 */
export const ENV_TRIGGER_FOLDER = 'OBS_TRIGGER_FOLDER';
