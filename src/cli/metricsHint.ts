// How obs's lint messages tell to declare a metrics dataset, apart from the command declarations (lint.ts)
// so that the runs that lint (lintRun.ts, planRun.ts) do not load commander with them.
import type { MetricsDatasetHint } from '../lint/types';

/** How obs lint's messages tell to declare a metrics dataset: its flag, and the editor setting that feeds the same option. */
export const CLI_METRICS_DATASET_HINT: MetricsDatasetHint = (slug) =>
  `name it with --metrics-dataset${slug === undefined ? '' : ` ${slug}`} (editor setting obs.metricsDatasets)`;
