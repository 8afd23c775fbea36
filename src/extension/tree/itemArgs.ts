// The arguments of commands on a trigger or a burn alert, which carry the service's object whole and are
// checked with the API's schemas. Kept apart from commandArgs.ts and loaded when such a command first runs
// (`loadItemArgs` in index.ts), so activation builds none of the API's schemas. No vscode import.
import * as z from 'zod';
import { BurnAlert, Trigger } from '../../api/schemas';

export const TriggerArg = z.looseObject({
  kind: z.literal('trigger'),
  connectionId: z.string(),
  dataset: z.string(),
  trigger: Trigger,
});
export type TriggerArg = z.infer<typeof TriggerArg>;

export const BurnAlertArg = z.looseObject({
  kind: z.literal('burnAlert'),
  connectionId: z.string(),
  dataset: z.string(),
  sloId: z.string(),
  alert: BurnAlert,
});
