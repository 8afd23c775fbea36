// The results panel's message schemas, re-exported for the host side with a short refusal text.
import type * as z from 'zod';

export {
  ResultsFromWebview,
  RESULTS_VIEW_TYPE,
  type ResultsModel,
  type ResultsRun,
  type ResultsToWebview,
  type SavedRun,
} from '../../webview/protocol/queryResults';

/** Why a page message was refused, for the log (never the message itself). */
export function describeRefusalText(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(message)'}: ${i.message}`)
    .join('; ');
}
