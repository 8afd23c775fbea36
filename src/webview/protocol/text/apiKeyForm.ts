// Every word of the API key forms (create 4.1, update 4.2, the created key), in one place. Read through
// l10n.t when used (see common.ts), so they are in the language the host handed the page.
import * as l10n from '@vscode/l10n';

export const API_KEY_TEXT = {
  get labels() {
    return {
      id: l10n.t('Key ID'),
      name: l10n.t('Name'),
      keyType: l10n.t('Key type'),
      environmentId: l10n.t('Environment ID'),
      disabled: l10n.t('State'),
      createDatasets: l10n.t('Permissions'),
    };
  },
  get keyTypes(): Readonly<Record<string, string>> {
    return { ingest: l10n.t('Ingest') };
  },
  get create() {
    return {
      title: l10n.t('Create an API key'),
      lead: (connection: string) => l10n.t('Connection: {0}. The key is created with the management key.', connection),
      namePlaceholder: l10n.t('e.g. checkout-service ingest'),
      nameHelp: l10n.t('Shown in the service and in the API keys list.'),
      keyTypeHelp: l10n.t('Ingest keys send events (the only type the service documents).'),
      environmentHelp: (connection: string) =>
        l10n.t('Defaults to the environment of the connection "{0}".', connection),
      disabled: l10n.t('Create the key disabled'),
      createDatasets: l10n.t('Allow this key to create datasets'),
      submit: l10n.t('Create key'),
      busy: l10n.t('Creating the key…'),
    };
  },
  get update() {
    return {
      title: l10n.t('Update an API key'),
      lead: (connection: string) => l10n.t('Connection: {0}. Rename the key or turn it on and off.', connection),
      idPlaceholder: l10n.t('the key ID, e.g. hcxik_01…'),
      idHelp: l10n.t('Keys created here are listed under "API keys"; any key can be updated by its ID.'),
      idFixedHelp: l10n.t('The key this form updates.'),
      nameHelp: l10n.t('Saving sends the name and the state together.'),
      disabled: l10n.t('Disabled (the key is refused while disabled)'),
      submit: l10n.t('Save'),
      busy: l10n.t('Saving the key…'),
      saved: (name: string, disabled: boolean) =>
        disabled ? l10n.t('Saved: "{0}" is disabled.', name) : l10n.t('Saved: "{0}" is enabled.', name),
    };
  },
  get created() {
    return {
      title: l10n.t('API key created'),
      name: l10n.t('Name'),
      id: l10n.t('Key ID'),
      noId: l10n.t('(the service gave none)'),
      secret: l10n.t('Secret'),
      copyNow: l10n.t('Copy the secret now. It is shown only this once and cannot be retrieved again.'),
      gone: l10n.t(
        'The secret is no longer available: it is shown only once, and this view was reloaded since. If it was not saved, disable this key and create a new one.',
      ),
      copyBoth: l10n.t('Copy id:secret'),
      copySecret: l10n.t('Copy secret only'),
      another: l10n.t('Create another key'),
      close: l10n.t('Close'),
      copied: {
        idAndSecret: l10n.t('id:secret copied to the clipboard.'),
        secret: l10n.t('The secret was copied to the clipboard.'),
      },
    };
  },
  /** The form's own rule: a key without a name cannot be told apart in a list. */
  get nameRequired() {
    return l10n.t('Name is required.');
  },
} as const;
