// Every word the forms' host side says outside the pages: tab titles, modal questions, pickers, progress
// and the status lines it posts, one group per form, through @vscode/l10n. Texts are getters and functions,
// not values: l10n.t must run after the bundle is configured, not when the module loads. No vscode import.
import * as l10n from '@vscode/l10n';
import { safeLabel } from '../core/text';

/** Names in titles and dialogs are cut to this many characters (a key name may be of any length). */
const SHORT_NAME = 40;

const short = (name: string): string => safeLabel(name, SHORT_NAME);

/** Every form's tab title follows "<Action> <object name> - <connection>". */
export const TAB_TITLES = {
  createApiKey: (connection: string) => l10n.t('Create API Key - {0}', short(connection)),
  updateApiKey: (keyName: string, connection: string) =>
    keyName === ''
      ? l10n.t('Update API Key - {0}', short(connection))
      : l10n.t('Update API Key {0} - {1}', short(keyName), short(connection)),
  burnAlert: (alertId: string, connection: string) =>
    l10n.t('Edit Burn Alert {0} - {1}', short(alertId), short(connection)),
  definitions: (dataset: string, connection: string) =>
    l10n.t('Edit Dataset Definitions {0} - {1}', short(dataset), short(connection)),
} as const;

/**
 * The questions about a created key's secret that was never copied. The first choice of a modal dialog
 * is its default (Enter), so it is always the one that keeps the secret; VS Code adds Cancel.
 */
export const SECRET_TEXT = {
  notCopied: (keyName: string) => l10n.t('The secret of the new API key "{0}" was not copied.', short(keyName)),
  get cannotRetrieve(): string {
    return l10n.t('It cannot be retrieved again. Copy it now, or disable the key later and create a new one.');
  },
  get copyBoth(): string {
    return l10n.t('Copy id:secret');
  },
  get copySecret(): string {
    return l10n.t('Copy Secret Only');
  },
  get closeWithout(): string {
    return l10n.t('Close Without Copying');
  },
  get startWithout(): string {
    return l10n.t('Start a New Key Without Copying');
  },
  get copiedBoth(): string {
    return l10n.t('id:secret copied to the clipboard.');
  },
  get copiedSecret(): string {
    return l10n.t('The secret was copied to the clipboard.');
  },
  /** Said on the panel opened again because it was closed before the secret was copied. */
  get reopened(): string {
    return l10n.t(
      'This panel was closed before the secret was copied, so it was opened again: copy the secret now, or choose Close to drop it for good.',
    );
  },
} as const;

/** The words every form's host side shares: restoring a panel, the connection it belongs to. */
export const PANEL_TEXT = {
  get stateDamaged(): string {
    return l10n.t('Its saved state is missing or damaged. Open the form again.');
  },
  get connectionGone(): string {
    return l10n.t('The connection of this item no longer exists.');
  },
  get notRestored(): string {
    return l10n.t('This form could not be restored');
  },
  /** A form's panel closed with edits not saved; {0} is its title. */
  closedWithEdits: (title: string) =>
    l10n.t(
      '"{0}" was closed with unsaved edits. They are kept until VS Code closes: open the same form again to get them back.',
      title,
    ),
  get reopen(): string {
    return l10n.t('Reopen');
  },
  get discard(): string {
    return l10n.t('Discard Edits');
  },
  /** The form's connection was removed (the sandbox stopped) or its client closed: never "the client is closed". */
  connectionUnavailable: (connection: string) =>
    l10n.t(
      'The connection {0} is not available: start the sandbox or switch connections; your edits are kept.',
      short(connection),
    ),
} as const;

/** The API key forms' host side: pickers, progress and the status lines it posts. */
export const API_KEY_HOST_TEXT = {
  get pickTitle(): string {
    return l10n.t('Update API Key');
  },
  get pickPlaceholder(): string {
    return l10n.t('Choose a key remembered for this connection, or update one by id');
  },
  get pickById(): string {
    return `$(key) ${l10n.t('Update a key by its id…')}`;
  },
  get pickDisabled(): string {
    return l10n.t('disabled');
  },
  get creating(): string {
    return l10n.t('Creating the key…');
  },
  get saving(): string {
    return l10n.t('Saving the key…');
  },
  notRemembered: (error: string) =>
    l10n.t('The key was created, but it could not be added to the "API keys" list: {0}. Copy the secret now.', error),
  get secretGone(): string {
    return l10n.t('The secret is no longer available: it is shown only once.');
  },
  get noIdCopySecret(): string {
    return l10n.t("The service did not say the key's id: copy the secret alone.");
  },
  oddAnswer: (fields: readonly string[]) =>
    l10n.t(
      "The service's answer was unusual ({0}): the key is shown as far as it could be read; check it on the service.",
      fields.join(', '),
    ),
  get noIdNote(): string {
    return l10n.t(
      "The service did not say the key's id: copy the secret alone, and find the id in the service's list of API keys.",
    );
  },
  // What a 404 of the key endpoints means, by what the service says it did not find.
  keyNotFound: (id: string, team: string) =>
    l10n.t('The service has no API key with the ID "{0}" in the team "{1}".', id, team),
  teamNotFound: (team: string, connection: string) =>
    l10n.t('The service has no team "{0}": check the team slug of the connection {1}.', team, short(connection)),
  environmentNotFound: (environment: string) =>
    l10n.t('The service has no environment with the ID "{0}" in this team.', environment),
  teamOrEnvironmentNotFound: (team: string, environment: string) =>
    l10n.t(
      'The service has no team "{0}" or no environment "{1}" in it: check the connection\'s team slug and the environment ID.',
      team,
      environment,
    ),
  notTheService: (connection: string) =>
    l10n.t(
      'The address of the connection {0} answered "not found" the way a web server does, not the service: check that it is the address of the service\'s API.',
      short(connection),
    ),
} as const;

/** The burn alert form's host side: the three-step picker, progress, status lines and review titles. */
export const BURN_ALERT_HOST_TEXT = {
  step: (n: number) => l10n.t('Edit Burn Alert ({0}/3)', n),
  datasetPrompt: (environmentWide: string) =>
    l10n.t('Dataset slug of the SLO (or {0} for environment-wide)', environmentWide),
  get invalidSlug(): string {
    return l10n.t('invalid slug');
  },
  get sloPrompt(): string {
    return l10n.t('SLO id');
  },
  get sloEmpty(): string {
    return l10n.t('SLO id must not be empty');
  },
  get listing(): string {
    return l10n.t('Listing burn alerts…');
  },
  noAlerts: (sloId: string) => l10n.t('SLO {0} has no burn alerts.', sloId),
  get pickAlert(): string {
    return l10n.t('Choose the burn alert');
  },
  notFound: (alertId: string, sloId: string) => l10n.t('Burn alert {0} was not found in SLO {1}.', alertId, sloId),
  couldNotLoad: (problems: string) => l10n.t('Could not load the burn alert: {0}', problems),
  get checking(): string {
    return l10n.t('Checking for changes on the service…');
  },
  gone: (alertId: string) => l10n.t('Burn alert {0} no longer exists on the service.', alertId),
  get saving(): string {
    return l10n.t('Saving the burn alert…');
  },
  get nothingSaved(): string {
    return l10n.t('Nothing was saved. Your edits are kept; saving again checks the service again.');
  },
  get conflictTheirs(): string {
    return l10n.t('on the service now');
  },
  get conflictMine(): string {
    return l10n.t('your version');
  },
  conflictTitle: (alertId: string) => l10n.t('Burn alert {0}: on the service ↔ yours', alertId),
  get reviewCurrent(): string {
    return l10n.t('current');
  },
  get reviewMine(): string {
    return l10n.t('with your changes');
  },
  reviewTitle: (alertId: string) => l10n.t('Burn alert {0}: current ↔ with your changes', alertId),
} as const;

/** The dataset definitions form's host side. */
export const DEFINITIONS_HOST_TEXT = {
  get pickTitle(): string {
    return l10n.t('Edit Dataset Definitions');
  },
  get datasetPrompt(): string {
    return l10n.t('Dataset slug');
  },
  couldNotRead: (problems: string) => l10n.t('Could not read the dataset definitions: {0}', problems),
} as const;
