// The forms' command ids and webview types, known at activation without loading the forms (no vscode,
// no schemas): registerForms.ts registers them, and a test checks them against the manifest and the
// message protocol.

/** The forms' commands, with what a failure says it was doing. */
export const FORM_COMMANDS = [
  { id: 'obs.apiKey.create', doing: 'open the create API key form' },
  { id: 'obs.apiKey.update', doing: 'open the update API key form' },
  { id: 'obs.burnAlert.edit', doing: 'open the burn alert form' },
  { id: 'obs.datasetDefinitions.edit', doing: 'open the dataset definitions form' },
  { id: 'obs.form.openAsFile', doing: "open the form's file" },
] as const;

/** The forms' webview types (VIEW_TYPES of the message protocol). */
export const FORM_VIEW_TYPES = [
  'obs.form.createApiKey',
  'obs.form.updateApiKey',
  'obs.form.burnAlert',
  'obs.form.datasetDefinitions',
] as const;
