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
import { ProblemView, StatusLine, byId, clear, field, formElement, h, setText } from './shared/dom';
import { onHostMessage, post, readState, writeState } from './shared/vscodeApi';

type ButtonControl = HTMLElementTagNameMap['vscode-button'];

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
let busy = false;
let ui: { problems: ProblemView; status: StatusLine; submit: ButtonControl; summary: HTMLElement; refresh: () => void } | undefined;

function save(): void {
  if (session) writeState({ context: session.context, loaded: session.loaded, rows: session.rows });
}

function button(label: string, onClick: () => void, secondary = false): ButtonControl {
  const el = h('vscode-button', { attrs: { secondary } }, label);
  el.addEventListener('click', onClick);
  return el;
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
    if (busy) return;
    setBusy(true, 'Reading the definitions…');
    send({ type: 'reload' });
  }, true);
  reload.id = 'reload';
  const submit = button('Save', () => {
    if (busy || !problems.checkBeforeSubmit(definitionsProblems(s.loaded, s.rows), definitionWarnings(s.rows, s.known))) return;
    if (changedTypes(s).length === 0) {
      status.show('Nothing to save: no definition was changed.');
      return;
    }
    setBusy(true, 'Saving the changed definitions…');
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
  refresh();
}

function setBusy(on: boolean, label = ''): void {
  busy = on;
  if (!ui) return;
  ui.submit.disabled = on;
  app.setAttribute('aria-busy', on ? 'true' : 'false');
  if (on) ui.status.busy(label);
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
      busy = false;
      render(session);
      if (message.discardEdits) ui?.status.show('Reloaded the definitions from the service.');
      return;
    }
    case 'busy':
      setBusy(message.busy, message.label);
      return;
    case 'problems':
      setBusy(false);
      if (ui && session) {
        ui.problems.setServerProblems(message.problems);
        ui.refresh();
        ui.status.show('Not saved: see the problems above.', 'error');
        ui.problems.focusFirstInvalid();
      }
      return;
    case 'status':
      if (message.failed) setBusy(false);
      if (ui) ui.status.show(message.message, message.failed ? 'error' : 'info');
      else setText(app, message.message);
      return;
    case 'saved':
      if (!session) return;
      session = { ...session, loaded: message.loaded, rows: rowsFromDefinitions(message.loaded) };
      busy = false;
      render(session);
      ui?.status.show(`Saved ${message.sent.join(', ')}.`);
      return;
  }
});

send({ type: 'ready' });
