// Every message between a form webview and the extension host, both ways, as zod schemas. The host
// parses each webview message with these and refuses (and logs) anything else; the webview parses the
// host's messages the same way. Also the shape of each form's persisted webview state, which the host
// reads back after a window reload. No vscode import: the webview scripts bundle this module.
import * as z from 'zod';
import { BurnAlert, UpdateBurnAlertRequest } from '../../api/schemas/burnAlert';
import { DatasetDefinitions } from '../../api/schemas/datasetDefinitions';
import { COPY_WHATS, CreateApiKeyValues, UpdateApiKeyValues } from './apiKeyForm';
import { BurnAlertEdits } from './burnAlertForm';
import { DefinitionRows, DefinitionTypeName } from './datasetDefinitionsForm';

/** View types: one per form, each with its own serializer so a reload brings the form back. */
export const VIEW_TYPES = {
  createApiKey: 'obs.form.createApiKey',
  updateApiKey: 'obs.form.updateApiKey',
  burnAlert: 'obs.form.burnAlert',
  datasetDefinitions: 'obs.form.datasetDefinitions',
} as const;

const Problems = z.strictObject({ fields: z.record(z.string(), z.array(z.string())), form: z.array(z.string()) });

// --- Messages every form shares --------------------------------------------------------------------

const Ready = z.strictObject({ type: z.literal('ready') });
const Busy = z.strictObject({ type: z.literal('busy'), busy: z.boolean(), label: z.string().optional() });
const ProblemsMessage = z.strictObject({ type: z.literal('problems'), problems: Problems });
/** A status line for the aria-live region; `failed` marks a form that could not load at all. */
const Status = z.strictObject({ type: z.literal('status'), message: z.string(), failed: z.boolean().optional() });
/** Whether the form's connection is there; while it is not, `message` says so plainly (the edits are kept). */
const Connection = z.strictObject({
  type: z.literal('connection'),
  available: z.boolean(),
  message: z.string().optional(),
});

/**
 * The page's unsaved edits as its saved state, or null when it has none: the host marks the tab title
 * ("● ...") while there are some, and keeps them when the panel is closed, to offer them back.
 */
const draftOf = <T extends z.ZodType>(state: T) =>
  z.strictObject({ type: z.literal('draft'), state: state.nullable() });
/** Edits kept from a panel closed without saving them, offered back when the same form opens again. */
const unsavedOf = <T extends z.ZodType>(state: T) => z.strictObject({ state, savedAt: z.number() });

/** The host messages every form handles the same way (src/webview/shared/formShell.ts). */
export type CommonToWebview =
  | z.infer<typeof Busy>
  | z.infer<typeof ProblemsMessage>
  | z.infer<typeof Status>
  | z.infer<typeof Connection>;

// --- API keys (4.1, 4.2) ------------------------------------------------------------------------------

const KeyRef = z.strictObject({ id: z.string(), name: z.string() });

export const ApiKeyState = z.strictObject({
  mode: z.enum(['create', 'update']),
  connectionId: z.string().min(1),
  createValues: CreateApiKeyValues.optional(),
  updateValues: UpdateApiKeyValues.optional(),
  /** The update form's key id cannot be changed (it was opened for a known key). */
  idFixed: z.boolean().optional(),
  /** The key made by this form, by id and name only: the secret is never part of the state. */
  created: KeyRef.optional(),
});
export type ApiKeyState = z.infer<typeof ApiKeyState>;

export const ApiKeyFromWebview = z.discriminatedUnion('type', [
  Ready,
  z.strictObject({ type: z.literal('submitCreate'), values: CreateApiKeyValues }),
  z.strictObject({ type: z.literal('submitUpdate'), values: UpdateApiKeyValues }),
  z.strictObject({ type: z.literal('copy'), what: z.enum(COPY_WHATS) }),
  /** Start over after a create; the host asks first if the secret was never copied. */
  z.strictObject({ type: z.literal('createAnother') }),
  /** The form's Close button; the host asks first if the secret was never copied. */
  z.strictObject({ type: z.literal('close') }),
  draftOf(ApiKeyState),
]);
export type ApiKeyFromWebview = z.infer<typeof ApiKeyFromWebview>;

const ApiKeyInit = z.discriminatedUnion('mode', [
  z.strictObject({
    type: z.literal('init'),
    mode: z.literal('create'),
    connectionId: z.string(),
    connectionName: z.string(),
    values: CreateApiKeyValues,
    unsaved: unsavedOf(ApiKeyState).optional(),
  }),
  z.strictObject({
    type: z.literal('init'),
    mode: z.literal('update'),
    connectionId: z.string(),
    connectionName: z.string(),
    values: UpdateApiKeyValues,
    /** True when the form updates a known key: its id is shown but cannot be changed. */
    idFixed: z.boolean(),
    unsaved: unsavedOf(ApiKeyState).optional(),
  }),
]);

export const ApiKeyToWebview = z.discriminatedUnion('type', [
  ApiKeyInit,
  Busy,
  ProblemsMessage,
  Status,
  Connection,
  /**
   * The only message that ever carries a secret; it is shown, never persisted. `notes` say what was odd
   * in the service's answer (the secret is shown whatever else was); an empty id: the service gave none.
   */
  z.strictObject({
    type: z.literal('created'),
    key: z.strictObject({ id: z.string(), name: z.string(), secret: z.string() }),
    notes: z.array(z.string()).optional(),
  }),
  /** The secret is gone from the host (a new create began, or the window was reloaded). */
  z.strictObject({ type: z.literal('secretCleared') }),
  z.strictObject({
    type: z.literal('updated'),
    key: z.strictObject({ id: z.string(), name: z.string(), disabled: z.boolean() }),
  }),
  z.strictObject({ type: z.literal('copied'), what: z.enum(COPY_WHATS) }),
]);
export type ApiKeyToWebview = z.infer<typeof ApiKeyToWebview>;

// --- Burn alert (4.3, 4.4) ----------------------------------------------------------------------------

const RecipientOption = z.strictObject({ id: z.string(), label: z.string() });

export const BurnAlertContext = z.strictObject({
  connectionId: z.string().min(1),
  dataset: z.string().min(1),
  sloId: z.string().min(1),
  alertId: z.string().min(1),
});
export type BurnAlertContext = z.infer<typeof BurnAlertContext>;

const CONFLICT_CHOICES = ['overwrite', 'reload', 'cancel'] as const;

export const BurnAlertState = z.strictObject({
  context: BurnAlertContext,
  /** The alert as the form opened it: the base of the PUT body and of the concurrency check. */
  loaded: BurnAlert.optional(),
  edits: BurnAlertEdits,
  /** Number fields as typed, so text that is not (yet) a number survives hiding the panel. */
  drafts: z.record(z.string(), z.string()).optional(),
  /** A recipient ID typed and not added yet, kept as typed like the number fields' text. */
  recipientId: z.string().optional(),
});
export type BurnAlertState = z.infer<typeof BurnAlertState>;

export const BurnAlertFromWebview = z.discriminatedUnion('type', [
  Ready,
  z.strictObject({ type: z.literal('submit'), edits: BurnAlertEdits }),
  /** Opens a diff of the alert as loaded and the body the edits would send. */
  z.strictObject({ type: z.literal('review'), edits: BurnAlertEdits }),
  /** Opens a diff of the alert as it is now on the service and the body waiting to be sent. */
  z.strictObject({ type: z.literal('reviewConflict') }),
  z.strictObject({ type: z.literal('resolveConflict'), choice: z.enum(CONFLICT_CHOICES) }),
  draftOf(BurnAlertState),
]);
export type BurnAlertFromWebview = z.infer<typeof BurnAlertFromWebview>;

export const BurnAlertToWebview = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('init'),
    context: BurnAlertContext,
    connectionName: z.string(),
    loaded: BurnAlert,
    recipientOptions: z.array(RecipientOption),
    /** The ids of the team's recipients (GET /1/recipients); absent when that list could not be read. */
    listedRecipientIds: z.array(z.string()).optional(),
    /** True when the user's edits must be dropped (the user chose to reload the current version). */
    discardEdits: z.boolean(),
    unsaved: unsavedOf(BurnAlertState).optional(),
  }),
  Busy,
  ProblemsMessage,
  Status,
  Connection,
  z.strictObject({ type: z.literal('conflict'), current: BurnAlert, mine: UpdateBurnAlertRequest }),
  z.strictObject({ type: z.literal('saved'), loaded: BurnAlert }),
]);
export type BurnAlertToWebview = z.infer<typeof BurnAlertToWebview>;

// --- Dataset definitions (4.8) --------------------------------------------------------------------------

export const DefinitionsContext = z.strictObject({ connectionId: z.string().min(1), dataset: z.string().min(1) });
export type DefinitionsContext = z.infer<typeof DefinitionsContext>;

export const DefinitionsState = z.strictObject({
  context: DefinitionsContext,
  loaded: DatasetDefinitions.optional(),
  rows: DefinitionRows,
});
export type DefinitionsState = z.infer<typeof DefinitionsState>;

export const DefinitionsFromWebview = z.discriminatedUnion('type', [
  Ready,
  z.strictObject({ type: z.literal('submit'), rows: DefinitionRows }),
  /** Reads the map again (PATCH {}) and drops the user's edits. */
  z.strictObject({ type: z.literal('reload') }),
  draftOf(DefinitionsState),
]);
export type DefinitionsFromWebview = z.infer<typeof DefinitionsFromWebview>;

export const DefinitionsToWebview = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('init'),
    context: DefinitionsContext,
    connectionName: z.string(),
    loaded: DatasetDefinitions,
    /** The dataset's columns; null when they could not be listed (then no name is flagged as unknown). */
    columns: z.array(z.strictObject({ name: z.string(), hidden: z.boolean() })).nullable(),
    discardEdits: z.boolean(),
    unsaved: unsavedOf(DefinitionsState).optional(),
  }),
  Busy,
  ProblemsMessage,
  Status,
  Connection,
  z.strictObject({ type: z.literal('saved'), loaded: DatasetDefinitions, sent: z.array(DefinitionTypeName) }),
]);
export type DefinitionsToWebview = z.infer<typeof DefinitionsToWebview>;

/** Edits kept from a closed panel, as the host hands them back. */
export type Unsaved<S> = { state: S; savedAt: number };

/** A short description of why a message was refused, for the log (never the message itself). */
export function describeRefusal(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(message)'}: ${i.message}`)
    .join('; ');
}
