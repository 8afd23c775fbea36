// What the activation bundle needs of triggers as code before dist/sync-host.js loads: the Drift view's id,
// the scheme of the service's triggers shown for Compare, and which files drift compares. No vscode import.
import { BURN_ALERT_FILE_SUFFIX, DEFINITIONS_FILE_SUFFIX, TRIGGER_FILE_SUFFIX } from '../../triggerFiles/paths';

export const DRIFT_VIEW_ID = 'obs.drift';
export const SERVICE_TRIGGER_SCHEME = 'obs-service-trigger';
/** The service's burn alert and definitions files shown for Compare (sloCompare.ts). */
export const SERVICE_SLO_SCHEME = 'obs-service-slo';
/** A trigger file as an environment other than the home one sees it (asSeenDocuments.ts). */
export const AS_SEEN_SCHEME = 'obs-as-seen';
const DRIFT_SUFFIXES = [TRIGGER_FILE_SUFFIX, BURN_ALERT_FILE_SUFFIX, DEFINITIONS_FILE_SUFFIX];
/**
 * Every trigger, burn alert and definitions file of the workspace, by its name (what is never looked into:
 * triggerFiles/searchRules.ts).
 */
export const DRIFT_FILE_GLOB = `**/*{${DRIFT_SUFFIXES.join(',')}}`;

/** Whether a uri (its scheme and path) is a file drift compares: not the service's own version of one. */
export function isDriftFile(uri: { scheme: string; path: string }): boolean {
  return (
    DRIFT_SUFFIXES.some((suffix) => uri.path.endsWith(suffix)) &&
    uri.scheme !== SERVICE_TRIGGER_SCHEME &&
    uri.scheme !== SERVICE_SLO_SCHEME &&
    uri.scheme !== AS_SEEN_SCHEME
  );
}

/** The plan view's webview (planPanel.ts). */
export const PLAN_VIEW_TYPE = 'obs.planView';
