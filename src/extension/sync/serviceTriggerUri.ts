// Where the service's version of a trigger is shown (read-only, on its own scheme): the path names the
// connection and the trigger's id, and ends in the trigger's file name so that the editor picks JSON
// and the diff editor shows a name the user knows. No vscode import.
import { triggerFileName } from '../../triggerFiles';

export { SERVICE_TRIGGER_SCHEME } from './syncIds';

/** `/<connection id>/<trigger id>/<name>.trigger.json`, each part encoded. */
export function serviceTriggerPath(connectionId: string, trigger: { id: string; name: string }): string {
  const enc = encodeURIComponent;
  return `/${enc(connectionId)}/${enc(trigger.id)}/${triggerFileName(trigger)}`;
}

export function parseServiceTriggerPath(path: string): { connectionId: string; triggerId: string } | undefined {
  const parts = path.split('/').slice(1);
  if (parts.length !== 3) return undefined;
  try {
    const [c, t] = parts.map((p) => decodeURIComponent(p));
    if (c === undefined || t === undefined || c === '' || t === '') return undefined;
    return { connectionId: c, triggerId: t };
  } catch {
    return undefined;
  }
}
