// The words the forms' host side says outside the pages: tab titles and the questions asked in modal
// dialogs. One place, so they can be translated later. No vscode import.
import { safeLabel } from '../core/text';

/** Names in titles and dialogs are cut to this many characters (a key name may be of any length). */
export const SHORT_NAME = 40;

const short = (name: string): string => safeLabel(name, SHORT_NAME);

/** Every form's tab title follows "<Action> <object name> - <connection>". */
export const TAB_TITLES = {
  createApiKey: (connection: string) => `Create API Key - ${short(connection)}`,
  updateApiKey: (keyName: string, connection: string) => (keyName === '' ? `Update API Key - ${short(connection)}` : `Update API Key ${short(keyName)} - ${short(connection)}`),
  burnAlert: (alertId: string, connection: string) => `Edit Burn Alert ${short(alertId)} - ${short(connection)}`,
  definitions: (dataset: string, connection: string) => `Edit Dataset Definitions ${short(dataset)} - ${short(connection)}`,
} as const;

/**
 * The questions about a created key's secret that was never copied. The first choice of a modal dialog
 * is its default (Enter), so it is always the one that keeps the secret; VS Code adds Cancel.
 */
export const SECRET_TEXT = {
  notCopied: (keyName: string) => `The secret of the new API key "${short(keyName)}" was not copied.`,
  cannotRetrieve: 'It cannot be retrieved again. Copy it now, or disable the key later and create a new one.',
  copyBoth: 'Copy id:secret',
  copySecret: 'Copy Secret Only',
  closeWithout: 'Close Without Copying',
  startWithout: 'Start a New Key Without Copying',
  copiedBoth: 'id:secret copied to the clipboard.',
  copiedSecret: 'The secret was copied to the clipboard.',
} as const;
