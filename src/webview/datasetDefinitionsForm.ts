// Dataset definitions form (4.8): the definition types of spec 2.7 in four groups (traces, span kinds and
// links, logs, HTTP and users), each row with its meaning, a column picker completing from the dataset's
// columns, an Unset button and the column type. Save and Reload stay in view at the top while the page
// scrolls. Only changed types are sent (diffDefinitions); a name that is not a known column gets a
// warning, never a block.
import './shared/boot';
import './shared/elements';
import { COLUMN_REF_TYPES, DEFINITION_TYPE_NAMES, type DatasetDefinitions, type DefinitionType } from '../api/schemas/datasetDefinitions';
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
import { COMMON_TEXT } from './protocol/text/common';
import { DEFINITIONS_TEXT, DEFINITION_GROUPS } from './protocol/text/datasetDefinitionsForm';
import { ProblemView, StatusLine, button, byId, clear, formElement, h, setText, type ButtonControl } from './shared/dom';
import { FormShell } from './shared/formShell';
import { onHostMessage, post, readState, writeState } from './shared/vscodeApi';

const T = DEFINITIONS_TEXT;
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
let ui: { status: StatusLine } | undefined;

function save(): void {
  if (session) writeState({ context: session.context, loaded: session.loaded, rows: session.rows });
}

function changedTypes(s: Session): DefinitionType[] {
  return Object.keys(diffDefinitions(s.loaded, s.rows)) as DefinitionType[];
}

const labelsOf = (types: readonly string[]): string[] => {
  const labels = DEFINITIONS_TEXT.labels;
  return types.map((t) => labels[t as DefinitionType] ?? t);
};

/** One definition: label, API name and meaning on the left; column, Unset and column type on the right. */
function definitionRow(s: Session, type: DefinitionType, problems: ProblemView, refresh: () => void): { row: HTMLElement; marker: HTMLElement } {
  const id = `f-${type}`;
  const label = DEFINITIONS_TEXT.labels[type];
  const input = h('input', {
    id,
    className: 'column-input',
    attrs: { type: 'text', list: 'columns', autocomplete: 'off', spellcheck: 'false', placeholder: T.columnPlaceholder, 'aria-describedby': `${id}-help ${id}-warning ${id}-error` },
  });
  input.value = s.rows[type].name;
  const columnType = h(
    'vscode-single-select',
    { attrs: { 'aria-label': T.columnTypeLabel(label) } },
    ...['', ...COLUMN_REF_TYPES].map((t) => h('vscode-option', { attrs: { value: t } }, T.columnTypes[t] ?? t)),
  );
  columnType.id = `${id}-column-type`;
  columnType.label = T.columnTypeLabel(label);
  columnType.value = s.rows[type].column_type ?? '';
  const unset = button(T.unset, () => {
    input.value = '';
    s.rows[type] = { name: '' };
    columnType.value = '';
    problems.touch(type);
    showUnset();
    refresh();
    input.focus();
  }, true);
  unset.id = `${id}-unset`;
  unset.setAttribute('aria-label', T.unsetLabel(label));
  unset.title = T.unsetLabel(label);
  const showUnset = (): void => {
    unset.disabled = s.rows[type].name === '';
  };
  showUnset();

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

  const warning = h('div', { className: 'warning', id: `${id}-warning`, attrs: { 'aria-live': 'polite', hidden: true } });
  const error = h('div', { className: 'error', id: `${id}-error`, attrs: { 'aria-live': 'polite', hidden: true } });
  problems.register(type, input, error, { label, warning });
  const marker = h('span', { className: 'badge changed', attrs: { hidden: true } }, T.changed);
  const row = h(
    'div',
    { className: 'definition', attrs: { 'data-type': type } },
    h(
      'div',
      { className: 'definition-name' },
      h('label', { attrs: { for: id } }, label),
      h('code', { className: 'api-name' }, type),
      marker,
      h('div', { className: 'help', id: `${id}-help` }, DEFINITIONS_TEXT.help[type]),
    ),
    h('div', { className: 'definition-value' }, h('div', { className: 'inline' }, input, unset, columnType), warning, error),
  );
  // The Unset button follows its row: it can unset only a definition that is set.
  input.addEventListener('input', showUnset);
  columnType.addEventListener('change', showUnset);
  return { row, marker };
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
    for (const [type, marker] of markers) marker.hidden = !changed.has(type);
    setText(summary, changed.size === 0 ? T.noChanges : T.willSend(labelsOf([...changed])));
    problems.render(definitionsProblems(s.loaded, s.rows), definitionWarnings(s.rows, s.known));
  };

  const groups = DEFINITION_GROUPS.map((group) =>
    h(
      'fieldset',
      { className: 'definition-group', id: `group-${group.id}` },
      h('legend', {}, DEFINITIONS_TEXT.groupTitles[group.id]),
      ...group.types.map((type) => {
        const { row, marker } = definitionRow(s, type, problems, refresh);
        markers.set(type, marker);
        return row;
      }),
    ),
  );
  // Types the service knows beyond the groups (none today) would still be shown, not dropped.
  const grouped = new Set(DEFINITION_GROUPS.flatMap((g) => g.types));
  const others = DEFINITION_TYPE_NAMES.filter((t) => !grouped.has(t)).map((type) => {
    const { row, marker } = definitionRow(s, type, problems, refresh);
    markers.set(type, marker);
    return row;
  });

  const reload = button(T.reload, () => {
    if (shell.busy) return;
    shell.setBusy(true, T.reading);
    send({ type: 'reload' });
  }, true);
  reload.id = 'reload';
  const submit: ButtonControl = button(T.submit, () => {
    if (shell.busy || !problems.checkBeforeSubmit(definitionsProblems(s.loaded, s.rows), definitionWarnings(s.rows, s.known))) return;
    if (changedTypes(s).length === 0) {
      status.show(T.nothingToSave);
      return;
    }
    shell.setBusy(true, T.saving);
    send({ type: 'submit', rows: { ...s.rows } });
  });
  submit.id = 'submit';

  clear(app);
  app.append(
    h('h1', {}, T.title(s.context.dataset)),
    h('p', { className: 'lead' }, T.lead(s.connectionName)),
    // Save stays in view however far the page is scrolled.
    h('div', { className: 'sticky-actions' }, h('div', { className: 'actions' }, submit, reload), summary, status.el),
    top,
    datalist,
    s.known === null ? h('p', { className: 'warning' }, T.noColumns) : '',
    formElement(undefined, ...groups, ...others),
  );
  app.setAttribute('aria-busy', 'false');
  ui = { status };
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
      if (message.discardEdits) ui?.status.show(T.reloaded);
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
      ui?.status.show(T.saved(labelsOf(message.sent)));
      return;
  }
});

setText(app, COMMON_TEXT.loading);
send({ type: 'ready' });
