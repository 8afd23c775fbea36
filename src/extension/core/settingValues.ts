// Which datasets are metrics datasets: the setting `obs.metricsDatasets`, plus those a running local
// sandbox reports (they count only while it runs, so the user's settings are not touched). No vscode import.

let sessionMetrics = new Set<string>();

export function setSessionMetricsDatasets(slugs: Iterable<string>): void {
  sessionMetrics = new Set(slugs);
}

export function mergeMetricsDatasets(fromSetting: unknown): string[] {
  const configured = Array.isArray(fromSetting) ? fromSetting.filter((s): s is string => typeof s === 'string') : [];
  return [...new Set([...configured, ...sessionMetrics])].sort();
}
