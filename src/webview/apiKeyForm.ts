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
import { KEY_TYPES } from '../api/schemas/apiKey';
import { ProblemView, StatusLine, button, byId, checkbox, clear, field, formElement, h, setText, textfield } from './shared/dom';
import { FormShell } from './shared/formShell';
import { onHostMessage, post, readState, writeState } from './shared/vscodeApi';

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

  const name = textfield(values.name, { placeholder: 'e.g. checkout-service ingest' });
  const keyType = h('vscode-single-select', {}, ...KEY_TYPES.map((t) => h('vscode-option', { attrs: { value: t } }, t)));
  keyType.value = values.keyType;
  const environment = textfield(values.environmentId);
  const disabled = checkbox('Create the key disabled', values.disabled);
  const createDatasets = checkbox('Allow this key to create datasets', values.createDatasets);

  const fields = {
    name: field('f-name', 'Name', name, 'Shown in the service and in the API keys list.'),
    keyType: field('f-keyType', 'Key type', keyType, 'ingest: sends events (the only type the service documents).'),
    environmentId: field('f-environmentId', 'Environment id', environment, `Defaults to the environment of the connection "${connectionName}".`),
    disabled: field('f-disabled', 'State', disabled),
    createDatasets: field('f-createDatasets', 'Permissions', createDatasets),
  };
  problems.register('name', name, fields.name.error);
  problems.register('keyType', keyType, fields.keyType.error);
  problems.register('environmentId', environment, fields.environmentId.error);
  problems.register('disabled', disabled, fields.disabled.error);
  problems.register('createDatasets', createDatasets, fields.createDatasets.error);

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

  const submit = button('Create key', () => {
    if (shell.busy || !problems.checkBeforeSubmit(validate())) return;
    shell.setBusy(true, 'Creating the key…');
    send({ type: 'submitCreate', values: { ...values } });
  });
  submit.id = 'submit';

  clear(app);
  app.append(
    h('h1', {}, 'Create an API key'),
    h('p', { className: 'lead' }, `Connection: ${connectionName}. The key is created with the management key.`),
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
  const id = textfield(values.id, idFixed ? { readonly: true } : { placeholder: 'the key id, e.g. hcxik_01…' });
  const name = textfield(values.name);
  const disabled = checkbox('Disabled (the key is refused while disabled)', values.disabled);
  const fields = {
    id: field('f-id', 'Key id', id, idFixed ? 'The key this form updates.' : 'Keys created here are listed under "API keys"; any key can be updated by its id.'),
    name: field('f-name', 'Name', name, 'The update sends the name and the disabled state together (spec 4.2).'),
    disabled: field('f-disabled', 'State', disabled),
  };
  problems.register('id', id, fields.id.error);
  problems.register('name', name, fields.name.error);
  problems.register('disabled', disabled, fields.disabled.error);

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

  const submit = button('Save', () => {
    if (shell.busy || !problems.checkBeforeSubmit(validate())) return;
    shell.setBusy(true, 'Saving the key…');
    send({ type: 'submitUpdate', values: { ...values } });
  });
  submit.id = 'submit';

  clear(app);
  app.append(
    h('h1', {}, 'Update an API key'),
    h('p', { className: 'lead' }, `Connection: ${connectionName}. Rename the key or turn it on and off.`),
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
  const copyBoth = button('Copy id:secret', () => send({ type: 'copy', what: 'idAndSecret' }));
  copyBoth.id = 'copy-both';
  const copySecret = button('Copy secret only', () => send({ type: 'copy', what: 'secret' }), true);
  copySecret.id = 'copy-secret';
  const another = button('Create another key', () => send({ type: 'createAnother' }), true);
  another.id = 'create-another';
  const close = button('Close', () => send({ type: 'close' }), true);
  close.id = 'close';

  const secretBlock =
    key.secret === undefined
      ? [
          h(
            'p',
            { className: 'warning', id: 'secret-gone' },
            'The secret is no longer available: it is shown only once, and this view was reloaded since. If it was not saved, disable this key and create a new one.',
          ),
        ]
      : [
          h(
            'p',
            { className: 'warning', id: 'secret-warning', attrs: { role: 'alert' } },
            'Copy the secret now. It is shown only this once and cannot be retrieved again.',
          ),
          h('div', { className: 'field' }, h('div', { className: 'label', id: 'secret-label' }, 'Secret'), h('code', { id: 'secret', className: 'secret', attrs: { 'aria-labelledby': 'secret-label' } }, key.secret)),
          h('div', { className: 'actions' }, ...(key.id === '' ? [copySecret] : [copyBoth, copySecret])),
        ];
  const noteList =
    notes.length === 0 ? [] : [h('ul', { className: 'warning', id: 'created-notes' }, ...notes.map((n) => h('li', {}, n)))];
  clear(app);
  app.append(
    h('h1', {}, 'API key created'),
    h(
      'dl',
      { className: 'facts' },
      h('dt', {}, 'Name'),
      h('dd', { id: 'created-name' }, key.name),
      h('dt', {}, 'Key id'),
      h('dd', { id: 'created-id' }, key.id === '' ? '(the service gave none)' : key.id),
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
      shell.view?.status.show(`Saved: "${message.key.name}" is ${message.key.disabled ? 'disabled' : 'enabled'}.`);
      return;
    case 'copied': {
      const what: Record<CopyWhat, string> = { idAndSecret: 'id:secret', secret: 'The secret' };
      copiedStatus?.show(`${what[message.what]} copied to the clipboard.`);
      return;
    }
  }
});

setText(app, 'Loading…');
send({ type: 'ready' });
