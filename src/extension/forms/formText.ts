// Every word the forms' host side says outside the pages: tab titles, modal questions, pickers, progress
// and the status lines it posts, one group per form. One place, so they can be translated later.
// No vscode import.
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

/** The words every form's host side shares: restoring a panel, the connection it belongs to. */
export const PANEL_TEXT = {
  stateDamaged: 'Its saved state is missing or damaged. Open the form again.',
  connectionGone: 'The connection of this item no longer exists.',
  notRestored: 'This form could not be restored',
} as const;

/** The API key forms' host side: pickers, progress and the status lines it posts. */
export const API_KEY_HOST_TEXT = {
  pickTitle: 'Update API Key',
  pickPlaceholder: 'Choose a key remembered for this connection, or update one by id',
  pickById: '$(key) Update a key by its id…',
  pickDisabled: 'disabled',
  creating: 'Creating the key…',
  saving: 'Saving the key…',
  notRemembered: (error: string) => `The key was created, but it could not be added to the "API keys" list: ${error}. Copy the secret now.`,
  secretGone: 'The secret is no longer available: it is shown only once.',
  noIdCopySecret: "The service did not say the key's id: copy the secret alone.",
  oddAnswer: (fields: readonly string[]) =>
    `The service's answer was unusual (${fields.join(', ')}): the key is shown as far as it could be read; check it on the service.`,
  noIdNote: "The service did not say the key's id: copy the secret alone, and find the id in the service's list of API keys.",
} as const;

/** The burn alert form's host side: the three-step picker, progress, status lines and review titles. */
export const BURN_ALERT_HOST_TEXT = {
  step: (n: number) => `Edit Burn Alert (${n}/3)`,
  datasetPrompt: (environmentWide: string) => `Dataset slug of the SLO (or ${environmentWide} for environment-wide)`,
  invalidSlug: 'invalid slug',
  sloPrompt: 'SLO id',
  sloEmpty: 'SLO id must not be empty',
  listing: 'Listing burn alerts…',
  noAlerts: (sloId: string) => `SLO ${sloId} has no burn alerts.`,
  pickAlert: 'Choose the burn alert',
  notFound: (alertId: string, sloId: string) => `Burn alert ${alertId} was not found in SLO ${sloId}.`,
  couldNotLoad: (problems: string) => `Could not load the burn alert: ${problems}`,
  checking: 'Checking for changes on the service…',
  gone: (alertId: string) => `Burn alert ${alertId} no longer exists on the service.`,
  saving: 'Saving the burn alert…',
  nothingSaved: 'Nothing was saved. Your edits are kept; saving again checks the service again.',
  conflictTheirs: 'on the service now',
  conflictMine: 'your version',
  conflictTitle: (alertId: string) => `Burn alert ${alertId}: on the service ↔ yours`,
  reviewCurrent: 'current',
  reviewMine: 'with your changes',
  reviewTitle: (alertId: string) => `Burn alert ${alertId}: current ↔ with your changes`,
} as const;

/** The dataset definitions form's host side. */
export const DEFINITIONS_HOST_TEXT = {
  pickTitle: 'Edit Dataset Definitions',
  datasetPrompt: 'Dataset slug',
  couldNotRead: (problems: string) => `Could not read the dataset definitions: ${problems}`,
} as const;
