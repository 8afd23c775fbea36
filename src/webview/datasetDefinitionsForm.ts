// Dataset definitions form (4.8): one row per definition type of spec 2.7 with its meaning as help, a
// column picker completing from the dataset's columns, and a Clear button. Only changed types are sent
// (diffDefinitions); a name that is not a known column gets a warning, never a block.
import './shared/boot';
import './shared/elements';
import { COLUMN_REF_TYPES, DEFINITION_TYPES, DEFINITION_TYPE_NAMES, type DatasetDefinitions, type DefinitionType } from '../api/schemas/datasetDefinitions';
import {
  definitionWarnings,
  definitionsProblems,
  diffDefinitions,
  rowsFromDefinitions,
  type DefinitionRow,
} from './protocol/datasetDefinitionsForm';
import {
  DefinitionsState,
  DefinitionsToWebview,
  type DefinitionsContext,
  type DefinitionsFromWebview,
} from './protocol/messages';
import { ProblemView, StatusLine, button, byId, clear, field, formElement, h, setText, type ButtonControl } from './shared/dom';
import { FormShell } from './shared/formShell';
import { onHostMessage, post, readState, writeState } from './shared/vscodeApi';

const send = (m: DefinitionsFromWebview): void => post(m);
const app = byId('app');

interface Session {
  context: DefinitionsContext;
  connectionName: string;
  loaded: DatasetDefinitions;
  rows: Record<DefinitionType, DefinitionRow>;
  /** Every column name (hidden ones too), or null when the columns could not be listed. */
  known: Set<string> | null;
  /** Names offered for completion: hidden columns are left out, as the service's own autocomplete does. */
  completions: string[];
}

let session: Session | undefined;
const shell = new FormShell(app, (message) => setText(app, message));
let ui: { problems: ProblemView; status: StatusLine; submit: ButtonControl; summary: HTMLElement; refresh: () => void } | undefined;

function save(): void {
  if (session) writeState({ context: session.context, loaded: session.loaded, rows: session.rows });
}

function changedTypes(s: Session): DefinitionType[] {
  return Object.keys(diffDefinitions(s.loaded, s.rows)) as DefinitionType[];
}

function render(s: Session): void {
  const top = h('div', { id: 'form-errors', className: 'form-errors', attrs: { role: 'alert', tabindex: '-1', hidden: true } });
  const problems = new ProblemView(top);
  const status = new StatusLine();
  const summary = h('p', { id: 'summary', className: 'summary', attrs: { 'aria-live': 'polite' } });
  const markers = new Map<DefinitionType, HTMLElement>();

  const datalist = h('datalist', { id: 'columns' }, ...s.completions.map((c) => h('option', { attrs: { value: c } })));

  const refresh = (): void => {
    save();
    const changed = new Set(changedTypes(s));
    for (const [type, marker] of markers) {
      marker.hidden = !changed.has(type);
    }
    setText(summary, changed.size === 0 ? 'No changes.' : `${changed.size} definition${changed.size === 1 ? '' : 's'} will be sent: ${[...changed].join(', ')}.`);
    problems.render(definitionsProblems(s.loaded, s.rows), definitionWarnings(s.rows, s.known));
  };

  const rows = DEFINITION_TYPE_NAMES.map((type) => {
    const row = s.rows[type];
    const input = h('input', {
      className: 'column-input',
      attrs: { type: 'text', list: 'columns', autocomplete: 'off', spellcheck: 'false', placeholder: '(not set)' },
    });
    input.value = row.name;
    const parts = field(`f-${type}`, type, input, DEFINITION_TYPES[type], true);
    problems.register(type, input, parts.error, parts.warning);

    const columnType = h(
      'vscode-single-select',
      { attrs: { 'aria-label': `Column type of ${type}` } },
      h('vscode-option', { attrs: { value: '' } }, '(not specified)'),
      ...COLUMN_REF_TYPES.map((t) => h('vscode-option', { attrs: { value: t } }, t)),
    );
    columnType.id = `f-${type}-column-type`;
    columnType.label = `Column type of ${type}`;
    columnType.value = row.column_type ?? '';
    const clearButton = button('Clear', () => {
      input.value = '';
      s.rows[type] = { name: '' };
      columnType.value = '';
      problems.touch(type);
      refresh();
      input.focus();
    }, true);
    clearButton.id = `f-${type}-clear`;
    clearButton.setAttribute('aria-label', `Clear ${type}`);

    input.addEventListener('input', () => {
      s.rows[type] = { ...s.rows[type], name: input.value };
      problems.touch(type);
      refresh();
    });
    columnType.addEventListener('change', () => {
      const chosen = COLUMN_REF_TYPES.find((t) => t === columnType.value);
      const next: DefinitionRow = { name: s.rows[type].name };
      if (chosen) next.column_type = chosen;
      s.rows[type] = next;
      problems.touch(type);
      refresh();
    });
    const marker = h('span', { className: 'badge changed', attrs: { hidden: true } }, 'changed');
    markers.set(type, marker);
    const label = parts.wrapper.querySelector('label');
    label?.after(marker);
    parts.wrapper.classList.add('definition');
    parts.wrapper.insertBefore(h('div', { className: 'inline' }, columnType, clearButton), parts.warning);
    return parts.wrapper;
  });

  const reload = button('Reload', () => {
    if (shell.busy) return;
    shell.setBusy(true, 'Reading the definitions…');
    send({ type: 'reload' });
  }, true);
  reload.id = 'reload';
  const submit = button('Save', () => {
    if (shell.busy || !problems.checkBeforeSubmit(definitionsProblems(s.loaded, s.rows), definitionWarnings(s.rows, s.known))) return;
    if (changedTypes(s).length === 0) {
      status.show('Nothing to save: no definition was changed.');
      return;
    }
    shell.setBusy(true, 'Saving the changed definitions…');
    send({ type: 'submit', rows: { ...s.rows } });
  });
  submit.id = 'submit';

  clear(app);
  app.append(
    h('h1', {}, `Dataset definitions of ${s.context.dataset}`),
    h(
      'p',
      { className: 'lead' },
      `Connection: ${s.connectionName}. Which columns carry a special meaning. Only the definitions you change are sent; Clear unsets one.`,
    ),
    top,
    datalist,
    s.known === null ? h('p', { className: 'warning' }, 'The columns of this dataset could not be listed: names are not completed or checked.') : '',
    formElement(undefined, ...rows, summary, h('div', { className: 'actions' }, submit, reload)),
    status.el,
  );
  app.setAttribute('aria-busy', 'false');
  ui = { problems, status, submit, summary, refresh };
  shell.view = { problems, status, submit, renderProblems: refresh };
  refresh();
}

onHostMessage(DefinitionsToWebview, (message) => {
  switch (message.type) {
    case 'init': {
      const restored = readState(DefinitionsState);
      const keep = !message.discardEdits && restored !== undefined && restored.context.dataset === message.context.dataset;
      session = {
        context: message.context,
        connectionName: message.connectionName,
        loaded: message.loaded,
        rows: { ...rowsFromDefinitions(message.loaded), ...(keep ? restored.rows : {}) },
        known: message.columns === null ? null : new Set(message.columns.map((c) => c.name)),
        completions: (message.columns ?? [])
          .filter((c) => !c.hidden)
          .map((c) => c.name)
          .sort((a, b) => a.localeCompare(b)),
      };
      shell.busy = false;
      render(session);
      if (message.discardEdits) ui?.status.show('Reloaded the definitions from the service.');
      return;
    }
    case 'busy':
    case 'problems':
    case 'status':
      shell.handle(message);
      return;
    case 'saved':
      if (!session) return;
      session = { ...session, loaded: message.loaded, rows: rowsFromDefinitions(message.loaded) };
      shell.busy = false;
      render(session);
      ui?.status.show(`Saved ${message.sent.join(', ')}.`);
      return;
  }
});

send({ type: 'ready' });
