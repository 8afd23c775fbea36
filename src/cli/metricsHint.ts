// How obs's lint messages tell to declare a metrics dataset, and where the editor's setting of them is, apart from
// the command declarations (lint.ts) so that the runs that lint (lintRun.ts, planRun.ts) do not load commander.
import type { MetricsDatasetHint } from '../lint/types';

/** The editor's setting of the metrics datasets, which obs lint and obs plan read from the workspace too. */
export const METRICS_SETTING = 'obs.metricsDatasets';

/** Where the editor keeps a workspace folder's settings, relative to it: obs lint and obs plan read them there. */
export const WORKSPACE_SETTINGS = '.vscode/settings.json';

/** How obs lint's messages tell to declare a metrics dataset: its flag, and the editor setting that feeds the same option. */
export const CLI_METRICS_DATASET_HINT: MetricsDatasetHint = (slug) =>
  `name it with --metrics-dataset${slug === undefined ? '' : ` ${slug}`} (editor setting ${METRICS_SETTING})`;
