// What the activation bundle needs of triggers as code before dist/sync-host.js loads: the Drift view's id,
// the scheme of the service's triggers shown for Compare, and which files are trigger files. No vscode import.
import { TRIGGER_FILE_SUFFIX } from '../../triggerFiles/paths';

export const DRIFT_VIEW_ID = 'obs.drift';
export const SERVICE_TRIGGER_SCHEME = 'obs-service-trigger';
/** The service's burn alert and definitions files shown for Compare (sloCompare.ts). */
export const SERVICE_SLO_SCHEME = 'obs-service-slo';
/** Every trigger file of the workspace (what is never looked into: triggerFiles/searchRules.ts). */
export const TRIGGER_FILE_GLOB = `**/*${TRIGGER_FILE_SUFFIX}`;

/** Whether a uri (its scheme and path) is a trigger file drift compares: not the service's own version of one. */
export function isTriggerFile(uri: { scheme: string; path: string }): boolean {
  return uri.path.endsWith(TRIGGER_FILE_SUFFIX) && uri.scheme !== SERVICE_TRIGGER_SCHEME;
}

/** The plan view's webview (planPanel.ts). */
export const PLAN_VIEW_TYPE = 'obs.planView';
