// Create (4.1) and update (4.2) API key form. Validates as the user types with the request schemas;
// shows a created key's secret once (it comes from the host and is never written to the state).
import './shared/boot';
import './shared/elements';
import {
  createApiKeyProblems,
  defaultCreateValues,
  updateApiKeyProblems,
  type CopyWhat,
  type CreateApiKeyValues,
  type UpdateApiKeyValues,
} from './protocol/apiKeyForm';
import { ApiKeyState, ApiKeyToWebview, type ApiKeyFromWebview } from './protocol/messages';
import type { FormProblems } from './protocol/problems';
import { API_KEY_TEXT } from './protocol/text/apiKeyForm';
import { COMMON_TEXT } from './protocol/text/common';
import { KEY_TYPES } from '../api/schemas/apiKey';
import { ProblemView, StatusLine, button, byId, checkbox, clear, field, formElement, h, setText, textfield } from './shared/dom';
import { FormShell } from './shared/formShell';
import { onHostMessage, post, readState, writeState } from './shared/vscodeApi';

const T = API_KEY_TEXT;
const send = (m: ApiKeyFromWebview): void => post(m);
const app = byId('app');
let state = readState(ApiKeyState);
/** The status line of the "key created" view, which is not a form. */
let copiedStatus: StatusLine | undefined;
const shell = new FormShell(app, (message, kind) => copiedStatus?.show(message, kind));

function save(): void {
  if (state) writeState(state);
}

function renderCreate(connectionName: string, initial: CreateApiKeyValues): void {
  const values: CreateApiKeyValues = { ...initial };
  const top = h('div', { id: 'form-errors', className: 'form-errors', attrs: { role: 'alert', tabindex: '-1', hidden: true } });
  const problems = new ProblemView(top);
  const status = new StatusLine();

  const name = textfield(values.name, { placeholder: T.create.namePlaceholder });
  const keyType = h('vscode-single-select', {}, ...KEY_TYPES.map((t) => h('vscode-option', { attrs: { value: t } }, T.keyTypes[t] ?? t)));
  keyType.value = values.keyType;
  const environment = textfield(values.environmentId);
  const disabled = checkbox(T.create.disabled, values.disabled);
  const createDatasets = checkbox(T.create.createDatasets, values.createDatasets);

  const fields = {
    name: field('f-name', T.labels.name, name, T.create.nameHelp),
    keyType: field('f-keyType', T.labels.keyType, keyType, T.create.keyTypeHelp),
    environmentId: field('f-environmentId', T.labels.environmentId, environment, T.create.environmentHelp(connectionName)),
    disabled: field('f-disabled', T.labels.disabled, disabled),
    createDatasets: field('f-createDatasets', T.labels.createDatasets, createDatasets),
  };
  problems.register('name', name, fields.name.error, { label: T.labels.name });
  problems.register('keyType', keyType, fields.keyType.error, { label: T.labels.keyType });
  problems.register('environmentId', environment, fields.environmentId.error, { label: T.labels.environmentId });
  problems.register('disabled', disabled, fields.disabled.error, { label: T.labels.disabled });
  problems.register('createDatasets', createDatasets, fields.createDatasets.error, { label: T.labels.createDatasets });

  const validate = (): FormProblems => createApiKeyProblems(values);
  const changed = (key: keyof CreateApiKeyValues): void => {
    problems.touch(key);
    if (state) state.createValues = { ...values };
    save();
    problems.render(validate());
  };
  name.addEventListener('input', () => {
    values.name = name.value;
    changed('name');
  });
  keyType.addEventListener('change', () => {
    const chosen = KEY_TYPES.find((t) => t === keyType.value);
    if (chosen) values.keyType = chosen;
    changed('keyType');
  });
  environment.addEventListener('input', () => {
    values.environmentId = environment.value;
    changed('environmentId');
  });
  disabled.addEventListener('change', () => {
    values.disabled = disabled.checked;
    changed('disabled');
  });
  createDatasets.addEventListener('change', () => {
    values.createDatasets = createDatasets.checked;
    changed('createDatasets');
  });

  const submit = button(T.create.submit, () => {
    if (shell.busy || !problems.checkBeforeSubmit(validate())) return;
    shell.setBusy(true, T.create.busy);
    send({ type: 'submitCreate', values: { ...values } });
  });
  submit.id = 'submit';

  clear(app);
  app.append(
    h('h1', {}, T.create.title),
    h('p', { className: 'lead' }, T.create.lead(connectionName)),
    top,
    formElement(
      () => submit.click(),
      fields.name.wrapper,
      fields.keyType.wrapper,
      fields.environmentId.wrapper,
      fields.disabled.wrapper,
      fields.createDatasets.wrapper,
      h('div', { className: 'actions' }, submit),
    ),
    status.el,
  );
  app.setAttribute('aria-busy', 'false');
  shell.view = { problems, status, submit, renderProblems: () => problems.render(validate()) };
  problems.render(validate());
}

function renderUpdate(connectionName: string, initial: UpdateApiKeyValues, idFixed: boolean): void {
  const values: UpdateApiKeyValues = { ...initial };
  const top = h('div', { id: 'form-errors', className: 'form-errors', attrs: { role: 'alert', tabindex: '-1', hidden: true } });
  const problems = new ProblemView(top);
  const status = new StatusLine();

  // A known key's id is shown but cannot be changed: the form updates that key and no other.
  const id = textfield(values.id, idFixed ? { readonly: true } : { placeholder: T.update.idPlaceholder });
  const name = textfield(values.name);
  const disabled = checkbox(T.update.disabled, values.disabled);
  const fields = {
    id: field('f-id', T.labels.id, id, idFixed ? T.update.idFixedHelp : T.update.idHelp),
    name: field('f-name', T.labels.name, name, T.update.nameHelp),
    disabled: field('f-disabled', T.labels.disabled, disabled),
  };
  problems.register('id', id, fields.id.error, { label: T.labels.id });
  problems.register('name', name, fields.name.error, { label: T.labels.name });
  problems.register('disabled', disabled, fields.disabled.error, { label: T.labels.disabled });

  const validate = (): FormProblems => updateApiKeyProblems(values);
  const changed = (key: keyof UpdateApiKeyValues): void => {
    problems.touch(key);
    if (state) state.updateValues = { ...values };
    save();
    problems.render(validate());
  };
  id.addEventListener('input', () => {
    if (idFixed) return;
    values.id = id.value;
    changed('id');
  });
  name.addEventListener('input', () => {
    values.name = name.value;
    changed('name');
  });
  disabled.addEventListener('change', () => {
    values.disabled = disabled.checked;
    changed('disabled');
  });

  const submit = button(T.update.submit, () => {
    if (shell.busy || !problems.checkBeforeSubmit(validate())) return;
    shell.setBusy(true, T.update.busy);
    send({ type: 'submitUpdate', values: { ...values } });
  });
  submit.id = 'submit';

  clear(app);
  app.append(
    h('h1', {}, T.update.title),
    h('p', { className: 'lead' }, T.update.lead(connectionName)),
    top,
    formElement(
      () => submit.click(),
      fields.id.wrapper,
      fields.name.wrapper,
      fields.disabled.wrapper,
      h('div', { className: 'actions' }, submit),
    ),
    status.el,
  );
  app.setAttribute('aria-busy', 'false');
  shell.view = { problems, status, submit, renderProblems: () => problems.render(validate()) };
  problems.render(validate());
}

/**
 * The secret, shown once. It lives only in this DOM and the host's memory, never in the state. `notes`
 * say what was odd in the service's answer; an empty id means the service gave none.
 */
function renderCreated(key: { id: string; name: string; secret: string | undefined }, notes: readonly string[] = []): void {
  shell.view = undefined;
  shell.busy = false;
  const status = new StatusLine();
  const copyBoth = button(T.created.copyBoth, () => send({ type: 'copy', what: 'idAndSecret' }));
  copyBoth.id = 'copy-both';
  const copySecret = button(T.created.copySecret, () => send({ type: 'copy', what: 'secret' }), true);
  copySecret.id = 'copy-secret';
  const another = button(T.created.another, () => send({ type: 'createAnother' }), true);
  another.id = 'create-another';
  const close = button(T.created.close, () => send({ type: 'close' }), true);
  close.id = 'close';

  const secretBlock =
    key.secret === undefined
      ? [
          h('p', { className: 'warning', id: 'secret-gone' }, T.created.gone),
        ]
      : [
          h('p', { className: 'warning', id: 'secret-warning', attrs: { role: 'alert' } }, T.created.copyNow),
          h('div', { className: 'field' }, h('div', { className: 'label', id: 'secret-label' }, T.created.secret), h('code', { id: 'secret', className: 'secret', attrs: { 'aria-labelledby': 'secret-label' } }, key.secret)),
          h('div', { className: 'actions' }, ...(key.id === '' ? [copySecret] : [copyBoth, copySecret])),
        ];
  const noteList =
    notes.length === 0 ? [] : [h('ul', { className: 'warning', id: 'created-notes' }, ...notes.map((n) => h('li', {}, n)))];
  clear(app);
  app.append(
    h('h1', {}, T.created.title),
    h(
      'dl',
      { className: 'facts' },
      h('dt', {}, T.created.name),
      h('dd', { id: 'created-name' }, key.name),
      h('dt', {}, T.created.id),
      h('dd', { id: 'created-id' }, key.id === '' ? T.created.noId : key.id),
    ),
    ...noteList,
    ...secretBlock,
    h('div', { className: 'actions' }, another, close),
    status.el,
  );
  app.setAttribute('aria-busy', 'false');
  copiedStatus = status;
}

let connectionName = '';

onHostMessage(ApiKeyToWebview, (message) => {
  switch (message.type) {
    case 'init': {
      connectionName = message.connectionName;
      if (message.mode === 'create') {
        state ??= { mode: 'create', connectionId: message.connectionId, createValues: message.values };
        if (state.created) {
          renderCreated({ ...state.created, secret: undefined });
          return;
        }
        renderCreate(connectionName, state.createValues ?? message.values);
      } else {
        state ??= { mode: 'update', connectionId: message.connectionId, updateValues: message.values };
        state.idFixed = message.idFixed;
        // A fixed id is the host's, whatever the saved state holds.
        const values = state.updateValues ?? message.values;
        renderUpdate(connectionName, message.idFixed ? { ...values, id: message.values.id } : values, message.idFixed);
      }
      save();
      return;
    }
    case 'busy':
    case 'problems':
    case 'status':
      shell.handle(message);
      return;
    case 'created':
      if (state) {
        // Only id and name are remembered: a reload must not bring the secret back.
        state.created = { id: message.key.id, name: message.key.name };
        save();
      }
      renderCreated(message.key, message.notes);
      return;
    case 'secretCleared':
      if (state) {
        delete state.created;
        state.createValues = defaultCreateValues(state.createValues?.environmentId ?? '');
        save();
        renderCreate(connectionName, state.createValues);
      }
      return;
    case 'updated':
      shell.setBusy(false);
      if (state) {
        state.updateValues = { ...message.key };
        save();
      }
      shell.view?.status.show(T.update.saved(message.key.name, message.key.disabled));
      return;
    case 'copied': {
      const said: Record<CopyWhat, string> = T.created.copied;
      copiedStatus?.show(said[message.what]);
      return;
    }
  }
});

setText(app, COMMON_TEXT.loading);
send({ type: 'ready' });
