// Create (4.1) and update (4.2) API key form. Validates as the user types with the request schemas;
// shows a created key's secret once (it comes from the host and is never written to the state). Each view
// is drawn from its values with lit-html templates: anew when the view changes, in place for every edit.
import './shared/boot';
import './shared/elements';
import { html, nothing, type TemplateResult } from 'lit-html';
import { keyed } from 'lit-html/directives/keyed.js';
import { live } from 'lit-html/directives/live.js';
import {
  createApiKeyProblems,
  defaultCreateValues,
  updateApiKeyProblems,
  type CopyWhat,
  type CreateApiKeyValues,
  type UpdateApiKeyValues,
} from './protocol/apiKeyForm';
import { ApiKeyState, ApiKeyToWebview, type ApiKeyFromWebview } from './protocol/messages';
import { API_KEY_TEXT } from './protocol/text/apiKeyForm';
import { createdPage, type CreatedKey } from './apiKey/createdKey';
import { COMMON_TEXT, controlWarnings } from './protocol/text/common';
import { KEY_TYPES } from '../api/schemas/apiKey';
import { byId, drawPage } from './shared/dom';
import { checkedOf, field, invalid, onFormSubmit, valueOf } from './shared/fields';
import { FormShell } from './shared/formShell';
import { ProblemView, type ShownProblems } from './shared/problemView';
import { onHostMessage, post, postDraft, readState, writeState } from './shared/vscodeApi';

const T = API_KEY_TEXT;
const send = (m: ApiKeyFromWebview): void => post(m);
const app = byId('app');
let state = readState(ApiKeyState);

/** What the page shows; `version` counts the views, each drawn anew. */
type View = { version: number } & (
  | { kind: 'create'; values: CreateApiKeyValues; problems: ProblemView }
  | { kind: 'update'; values: UpdateApiKeyValues; idFixed: boolean; problems: ProblemView }
  | { kind: 'created'; key: CreatedKey; notes: readonly string[] }
);

let view: View | undefined;
let versions = 0;
let connectionName = '';
const shell = new FormShell(
  app,
  () => {
    if (view) drawPage(app, keyed(view.version, viewPage(view)));
  },
  // The "key created" view is not a form: what the host says goes to its own status line.
  (message, kind) => {
    if (view?.kind === 'created') shell.show(message, kind);
  },
);

/** The values the form opened with (or last saved): edits are what differs from them. */
let baseline: CreateApiKeyValues | UpdateApiKeyValues | undefined;

function save(): void {
  if (!state) return;
  writeState(state);
  postDraft(isDirty() ? state : null);
}

/** Whether the form's values differ from those it opened with (a created key's secret is the host's to watch). */
function isDirty(): boolean {
  if (view === undefined || view.kind === 'created' || baseline === undefined) return false;
  return JSON.stringify(view.values) !== JSON.stringify(baseline);
}

/** Shows a new view of the page, drawn anew. */
function show(next: View): void {
  view = next;
  shell.start(next.kind === 'created' ? undefined : next.problems);
  shell.draw();
}

const nextVersion = (): number => (versions += 1);

// --- Templates ----------------------------------------------------------------------------------------

function viewPage(v: View): TemplateResult {
  switch (v.kind) {
    case 'create':
      return createPage(v.values, v.problems);
    case 'update':
      return updatePage(v.values, v.idFixed, v.problems);
    case 'created':
      return createdPage(v.key, v.notes, shell.statusLine());
  }
}

function textControl(
  id: string,
  value: string,
  bad: boolean,
  onInput: (text: string) => void,
  extra: { placeholder?: string; readonly?: boolean } = {},
): TemplateResult {
  return html`<vscode-textfield id=${id} placeholder=${extra.placeholder ?? nothing} ?readonly=${extra.readonly === true} .value=${live(value)} ${invalid(bad)}
    @input=${(e: Event) => onInput(valueOf(e))}></vscode-textfield>`;
}

function checkboxControl(
  id: string,
  label: string,
  checked: boolean,
  bad: boolean,
  onChange: (checked: boolean) => void,
): TemplateResult {
  return html`<vscode-checkbox id=${id} .checked=${live(checked)} ${invalid(bad)} @change=${(e: Event) => onChange(checkedOf(e))}>${label}</vscode-checkbox>`;
}

const errorsOf = (shown: ShownProblems, name: string): string[] => shown.errors[name] ?? [];

function createPage(values: CreateApiKeyValues, problems: ProblemView): TemplateResult {
  const C = T.create;
  const shown = problems.shown(createApiKeyProblems(values));
  const err = (name: keyof CreateApiKeyValues): string[] => errorsOf(shown, name);
  const keyType = html`<vscode-single-select id="f-keyType" .value=${live(values.keyType)} ${invalid(err('keyType').length > 0)}
    @change=${(e: Event) => editCreate('keyType', KEY_TYPES.find((t) => t === valueOf(e)) ?? values.keyType)}>
    ${KEY_TYPES.map((t) => html`<vscode-option value=${t}>${T.keyTypes[t] ?? t}</vscode-option>`)}
  </vscode-single-select>`;
  return html`<h1>${C.title}</h1>
    <p class="lead">${C.lead(connectionName)}</p>
    ${shell.banners()}
    ${problems.summary(shown)}
    <form id="form" novalidate @submit=${onFormSubmit(submitCreate)}>
      ${field({
        id: 'f-name',
        label: T.labels.name,
        help: C.nameHelp,
        errors: err('name'),
        warnings: controlWarnings(values.name),
        control: textControl('f-name', values.name, err('name').length > 0, (text) => editCreate('name', text), {
          placeholder: C.namePlaceholder,
        }),
      })}
      ${field({ id: 'f-keyType', label: T.labels.keyType, help: C.keyTypeHelp, errors: err('keyType'), control: keyType })}
      ${field({
        id: 'f-environmentId',
        label: T.labels.environmentId,
        help: C.environmentHelp(connectionName),
        errors: err('environmentId'),
        warnings: controlWarnings(values.environmentId),
        control: textControl('f-environmentId', values.environmentId, err('environmentId').length > 0, (text) =>
          editCreate('environmentId', text),
        ),
      })}
      ${field({
        id: 'f-disabled',
        label: T.labels.disabled,
        errors: err('disabled'),
        control: checkboxControl('f-disabled', C.disabled, values.disabled, err('disabled').length > 0, (on) =>
          editCreate('disabled', on),
        ),
      })}
      ${field({
        id: 'f-createDatasets',
        label: T.labels.createDatasets,
        errors: err('createDatasets'),
        control: checkboxControl(
          'f-createDatasets',
          C.createDatasets,
          values.createDatasets,
          err('createDatasets').length > 0,
          (on) => editCreate('createDatasets', on),
        ),
      })}
      <div class="actions"><vscode-button id="submit" .disabled=${shell.busy} @click=${submitCreate}>${C.submit}</vscode-button></div>
    </form>
    ${shell.statusLine()}`;
}

function updatePage(values: UpdateApiKeyValues, idFixed: boolean, problems: ProblemView): TemplateResult {
  const U = T.update;
  const shown = problems.shown(updateApiKeyProblems(values));
  const err = (name: keyof UpdateApiKeyValues): string[] => errorsOf(shown, name);
  // A known key's id is shown but cannot be changed: the form updates that key and no other.
  const id = textControl(
    'f-id',
    values.id,
    err('id').length > 0,
    (text) => editUpdate('id', text),
    idFixed ? { readonly: true } : { placeholder: U.idPlaceholder },
  );
  return html`<h1>${U.title}</h1>
    <p class="lead">${U.lead(connectionName)}</p>
    ${shell.banners()}
    ${problems.summary(shown)}
    <form id="form" novalidate @submit=${onFormSubmit(submitUpdate)}>
      ${field({ id: 'f-id', label: T.labels.id, help: idFixed ? U.idFixedHelp : U.idHelp, errors: err('id'), warnings: controlWarnings(values.id), control: id })}
      ${field({
        id: 'f-name',
        label: T.labels.name,
        help: U.nameHelp,
        errors: err('name'),
        warnings: controlWarnings(values.name),
        control: textControl('f-name', values.name, err('name').length > 0, (text) => editUpdate('name', text)),
      })}
      ${field({
        id: 'f-disabled',
        label: T.labels.disabled,
        errors: err('disabled'),
        control: checkboxControl('f-disabled', U.disabled, values.disabled, err('disabled').length > 0, (on) =>
          editUpdate('disabled', on),
        ),
      })}
      <div class="actions"><vscode-button id="submit" .disabled=${shell.busy} @click=${submitUpdate}>${U.submit}</vscode-button></div>
    </form>
    ${shell.statusLine()}`;
}

// --- What the user does -------------------------------------------------------------------------------

/** After an edit: the field's problems show, the values are saved and the page drawn. */
function edited(problems: ProblemView, key: string): void {
  problems.touch(key);
  save();
  shell.draw();
}

function editCreate<K extends keyof CreateApiKeyValues>(key: K, value: CreateApiKeyValues[K]): void {
  if (view?.kind !== 'create') return;
  view.values[key] = value;
  if (state) state.createValues = { ...view.values };
  edited(view.problems, key);
}

function editUpdate<K extends keyof UpdateApiKeyValues>(key: K, value: UpdateApiKeyValues[K]): void {
  if (view?.kind !== 'update' || (key === 'id' && view.idFixed)) return;
  view.values[key] = value;
  if (state) state.updateValues = { ...view.values };
  edited(view.problems, key);
}

function submitCreate(): void {
  if (view?.kind !== 'create') return;
  const values = view.values;
  if (shell.busy || !view.problems.checkBeforeSubmit(createApiKeyProblems(values), () => shell.draw())) return;
  shell.setBusy(true, T.create.busy);
  send({ type: 'submitCreate', values: { ...values } });
}

function submitUpdate(): void {
  if (view?.kind !== 'update') return;
  const values = view.values;
  if (shell.busy || !view.problems.checkBeforeSubmit(updateApiKeyProblems(values), () => shell.draw())) return;
  shell.setBusy(true, T.update.busy);
  send({ type: 'submitUpdate', values: { ...values } });
}

// --- What the host says -------------------------------------------------------------------------------

function showCreate(values: CreateApiKeyValues): void {
  const problems = new ProblemView([
    { field: 'name', label: T.labels.name, id: 'f-name' },
    { field: 'keyType', label: T.labels.keyType, id: 'f-keyType' },
    { field: 'environmentId', label: T.labels.environmentId, id: 'f-environmentId' },
    { field: 'disabled', label: T.labels.disabled, id: 'f-disabled' },
    { field: 'createDatasets', label: T.labels.createDatasets, id: 'f-createDatasets' },
  ]);
  show({ version: nextVersion(), kind: 'create', values: { ...values }, problems });
}

function showUpdate(values: UpdateApiKeyValues, idFixed: boolean): void {
  const problems = new ProblemView([
    { field: 'id', label: T.labels.id, id: 'f-id' },
    { field: 'name', label: T.labels.name, id: 'f-name' },
    { field: 'disabled', label: T.labels.disabled, id: 'f-disabled' },
  ]);
  show({ version: nextVersion(), kind: 'update', values: { ...values }, idFixed, problems });
}

/** Drops the edits put back from a closed panel: the form shows the values it opened with. */
function discardEdits(mode: 'create' | 'update', values: CreateApiKeyValues | UpdateApiKeyValues): void {
  if (!state || view?.kind !== mode) return;
  if (view.kind === 'create' && 'createDatasets' in values) {
    state.createValues = { ...values };
    showCreate(values);
  } else if (view.kind === 'update' && 'id' in values) {
    state.updateValues = { ...values };
    showUpdate(values, view.idFixed);
  }
  save();
}

function showCreated(key: CreatedKey, notes: readonly string[] = []): void {
  show({ version: nextVersion(), kind: 'created', key, notes });
}

type HostMessage<K extends ApiKeyToWebview['type']> = Extract<ApiKeyToWebview, { type: K }>;

/** The host opens the form: the page's own state, else edits kept from a closed panel, else the host's values. */
function onInit(message: HostMessage<'init'>): void {
  connectionName = message.connectionName;
  baseline = { ...message.values };
  // Edits kept from a panel closed without saving come back when the page has none of its own (never a created key).
  const kept = state === undefined && message.unsaved?.state.mode === message.mode ? message.unsaved : undefined;
  if (kept) state = { ...kept.state, created: undefined };
  if (message.mode === 'create') {
    state ??= { mode: 'create', connectionId: message.connectionId, createValues: message.values };
    if (state.created) {
      showCreated({ ...state.created, secret: undefined });
      return;
    }
    showCreate(state.createValues ?? message.values);
  } else {
    state ??= { mode: 'update', connectionId: message.connectionId, updateValues: message.values };
    state.idFixed = message.idFixed;
    // A fixed id is the host's, whatever the saved state holds.
    const values = state.updateValues ?? message.values;
    showUpdate(message.idFixed ? { ...values, id: message.values.id } : values, message.idFixed);
  }
  save();
  if (kept) shell.editsPutBack(kept.savedAt, () => discardEdits(message.mode, message.values));
}

function onCreated(message: HostMessage<'created'>): void {
  // Shown before the state is saved: a created key is no unsaved edit (its values were sent, the key exists).
  showCreated(message.key, message.notes);
  if (state) {
    // Only id and name are remembered: a reload must not bring the secret back.
    state.created = { id: message.key.id, name: message.key.name };
    save();
  }
}

/** The secret is gone from the host: the page starts a new create. */
function onSecretCleared(): void {
  if (!state) return;
  delete state.created;
  state.createValues = defaultCreateValues(state.createValues?.environmentId ?? '');
  save();
  showCreate(state.createValues);
}

function onUpdated(message: HostMessage<'updated'>): void {
  shell.setBusy(false);
  baseline = { ...message.key };
  if (state) {
    state.updateValues = { ...message.key };
    save();
  }
  if (shell.problems) shell.show(T.update.saved(message.key.name, message.key.disabled));
}

function onCopied(message: HostMessage<'copied'>): void {
  const said: Record<CopyWhat, string> = T.created.copied;
  if (view?.kind === 'created') shell.show(said[message.what]);
}

onHostMessage(ApiKeyToWebview, (message) => {
  switch (message.type) {
    case 'init':
      return onInit(message);
    case 'busy':
    case 'problems':
    case 'status':
    case 'connection':
      return shell.handle(message);
    case 'created':
      return onCreated(message);
    case 'secretCleared':
      return onSecretCleared();
    case 'updated':
      return onUpdated(message);
    case 'copied':
      return onCopied(message);
  }
});

drawPage(app, COMMON_TEXT.loading);
send({ type: 'ready' });
