// Dataset definitions form (4.8): the definition types of spec 2.7 in four groups (traces, span kinds and
// links, logs, HTTP and users), each row with its meaning, a column picker completing from the dataset's
// columns, an Unset button and the column type. Save and Reload stay in view at the top while the page
// scrolls. Only changed types are sent (diffDefinitions); a name that is not a known column gets a
// warning, never a block. The page is drawn from the session with lit-html templates.
import './shared/boot';
import './shared/elements';
import { html, nothing, type TemplateResult } from 'lit-html';
import { keyed } from 'lit-html/directives/keyed.js';
import { live } from 'lit-html/directives/live.js';
import {
  COLUMN_REF_TYPES,
  DEFINITION_TYPE_NAMES,
  type DatasetDefinitions,
  type DefinitionType,
} from '../api/schemas/datasetDefinitions';
import {
  definitionWarnings,
  definitionsProblems,
  diffDefinitions,
  rowsFromDefinitions,
  type DefinitionRow,
  type DefinitionRows,
} from './protocol/datasetDefinitionsForm';
import {
  DefinitionsState,
  DefinitionsToWebview,
  type DefinitionsContext,
  type DefinitionsFromWebview,
} from './protocol/messages';
import { COMMON_TEXT } from './protocol/text/common';
import { DEFINITIONS_TEXT, DEFINITION_GROUPS } from './protocol/text/datasetDefinitionsForm';
import { byId, drawPage } from './shared/dom';
import { invalid, messageLine, onFormSubmit, valueOf } from './shared/fields';
import { FormShell } from './shared/formShell';
import { ProblemView, type ShownProblems } from './shared/problemView';
import { onHostMessage, post, postDraft, readState, writeState } from './shared/vscodeApi';

const T = DEFINITIONS_TEXT;
const send = (m: DefinitionsFromWebview): void => post(m);
const app = byId('app');
const GROUPED = new Set<DefinitionType>(DEFINITION_GROUPS.flatMap((g) => g.types));
/** Types the service knows beyond the groups (none today) would still be shown, not dropped. */
const OTHERS = DEFINITION_TYPE_NAMES.filter((t) => !GROUPED.has(t));

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
/** The problems of the definitions shown, and which showing it is (the page is drawn anew for each). */
let view: { version: number; problems: ProblemView } | undefined;
let versions = 0;
const shell = new FormShell(
  app,
  () => {
    if (session && view) drawPage(app, keyed(view.version, formPage(session, view.problems)));
  },
  (message) => drawPage(app, message),
);

function save(): void {
  if (!session) return;
  const state: DefinitionsState = { context: session.context, loaded: session.loaded, rows: session.rows };
  writeState(state);
  postDraft(changedTypes(session).length > 0 ? state : null);
}

function changedTypes(s: Session): DefinitionType[] {
  return Object.keys(diffDefinitions(s.loaded, s.rows)) as DefinitionType[];
}

const labelsOf = (types: readonly string[]): string[] => {
  const labels = DEFINITIONS_TEXT.labels;
  return types.map((t) => labels[t as DefinitionType] ?? t);
};

// --- Templates ----------------------------------------------------------------------------------------

function formPage(s: Session, problems: ProblemView): TemplateResult {
  const shown = problems.shown(definitionsProblems(s.loaded, s.rows), definitionWarnings(s.rows, s.known));
  const changed = new Set(changedTypes(s));
  const rows = (types: readonly DefinitionType[]): TemplateResult[] =>
    types.map((type) => definitionRow(s.rows[type], type, shown, changed.has(type)));
  return html`<h1>${T.title(s.context.dataset)}</h1>
    <p class="lead">${T.lead(s.connectionName)}</p>
    ${shell.banners()}
    ${stickyActions(changed)}
    ${problems.summary(shown)}
    <datalist id="columns">${s.completions.map((c) => html`<option value=${c}></option>`)}</datalist>
    ${s.known === null ? html`<p class="warning">${T.noColumns}</p>` : nothing}
    <form id="form" novalidate @submit=${onFormSubmit()}>
      ${DEFINITION_GROUPS.map(
        (group) => html`<fieldset class="definition-group" id="group-${group.id}">
          <legend>${DEFINITIONS_TEXT.groupTitles[group.id]}</legend>
          ${rows(group.types)}
        </fieldset>`,
      )}
      ${rows(OTHERS)}
    </form>`;
}

/** Save stays in view however far the page is scrolled, with what it would send and the status. */
function stickyActions(changed: ReadonlySet<DefinitionType>): TemplateResult {
  return html`<div class="sticky-actions">
    <div class="actions">
      <vscode-button id="submit" .disabled=${shell.busy} @click=${submit}>${T.submit}</vscode-button>
      <vscode-button id="reload" secondary @click=${reload}>${T.reload}</vscode-button>
    </div>
    <p id="summary" class="summary" aria-live="polite">${changed.size === 0 ? T.noChanges : T.willSend(labelsOf([...changed]))}</p>
    ${shell.statusLine()}
  </div>`;
}

/** One definition: label, API name and meaning on the left; column, Unset and column type on the right. */
function definitionRow(
  row: DefinitionRow,
  type: DefinitionType,
  shown: ShownProblems,
  changed: boolean,
): TemplateResult {
  const id = `f-${type}`;
  const label = DEFINITIONS_TEXT.labels[type];
  const errors = shown.errors[type] ?? [];
  return html`<div class="definition" data-type=${type}>
    <div class="definition-name"><label for=${id}>${label}</label><code class="api-name">${type}</code><span class="badge changed" ?hidden=${!changed}>${T.changed}</span>
      <div class="help" id="${id}-help">${DEFINITIONS_TEXT.help[type]}</div>
    </div>
    <div class="definition-value">
      <div class="inline">
        <input id=${id} class="column-input" type="text" list="columns" autocomplete="off" spellcheck="false" placeholder=${T.columnPlaceholder}
          aria-describedby="${id}-help ${id}-warning ${id}-error" .value=${live(row.name)} ${invalid(errors.length > 0)}
          @input=${(e: Event) => editRow(type, (current) => ({ ...current, name: valueOf(e) }))} />
        ${unsetButton(row, type, label)}
        ${columnTypeSelect(row, type, label)}
      </div>
      ${messageLine('warning', id, shown.warnings[type] ?? [])}
      ${messageLine('error', id, errors)}
    </div>
  </div>`;
}

/** Unset follows its row: it can unset only a definition that is set. */
function unsetButton(row: DefinitionRow, type: DefinitionType, label: string): TemplateResult {
  return html`<vscode-button id="f-${type}-unset" secondary aria-label=${T.unsetLabel(label)} title=${T.unsetLabel(label)} .disabled=${row.name === ''}
    @click=${() => unset(type)}>${T.unset}</vscode-button>`;
}

function columnTypeSelect(row: DefinitionRow, type: DefinitionType, label: string): TemplateResult {
  const choose = (event: Event): void => {
    const chosen = COLUMN_REF_TYPES.find((t) => t === valueOf(event));
    editRow(type, (current) => (chosen ? { name: current.name, column_type: chosen } : { name: current.name }));
  };
  return html`<vscode-single-select id="f-${type}-column-type" aria-label=${T.columnTypeLabel(label)} .label=${T.columnTypeLabel(label)}
    .value=${live(row.column_type ?? '')} @change=${choose}>
    ${['', ...COLUMN_REF_TYPES].map((t) => html`<vscode-option value=${t}>${T.columnTypes[t] ?? t}</vscode-option>`)}
  </vscode-single-select>`;
}

// --- What the user does -------------------------------------------------------------------------------

/** A definition changed (`change` makes the new row of the current one): its problems show, the rows are saved and the page drawn. */
function editRow(type: DefinitionType, change: (current: DefinitionRow) => DefinitionRow): void {
  if (!session || !view) return;
  session.rows[type] = change(session.rows[type]);
  view.problems.touch(type);
  save();
  shell.draw();
}

function unset(type: DefinitionType): void {
  editRow(type, () => ({ name: '' }));
  byId(`f-${type}`).focus();
}

function reload(): void {
  if (shell.busy) return;
  shell.setBusy(true, T.reading);
  send({ type: 'reload' });
}

function submit(): void {
  if (!session || !view) return;
  const s = session;
  if (shell.busy || !view.problems.checkBeforeSubmit(definitionsProblems(s.loaded, s.rows), () => shell.draw())) return;
  if (changedTypes(s).length === 0) {
    shell.show(T.nothingToSave);
    return;
  }
  shell.setBusy(true, T.saving);
  send({ type: 'submit', rows: { ...s.rows } });
}

// --- What the host says -------------------------------------------------------------------------------

/**
 * The rows the user changed in a panel closed without saving (against the map it had then), to put on the
 * map read now: a definition changed on the service meanwhile and not by the user is not turned back.
 */
function changedRows(kept: DefinitionsState, now: DatasetDefinitions): DefinitionRows {
  const changed = Object.keys(diffDefinitions(kept.loaded ?? now, kept.rows)) as DefinitionType[];
  return Object.fromEntries(changed.flatMap((type) => (kept.rows[type] ? [[type, kept.rows[type]]] : [])));
}

/** Shows the session's definitions, drawn anew. */
function open(s: Session): void {
  session = s;
  versions += 1;
  const fields = [...DEFINITION_GROUPS.flatMap((g) => g.types), ...OTHERS].map((type) => ({
    field: type,
    label: DEFINITIONS_TEXT.labels[type],
    id: `f-${type}`,
  }));
  view = { version: versions, problems: new ProblemView(fields) };
  shell.start(view.problems);
  shell.draw();
  save();
}

onHostMessage(DefinitionsToWebview, (message) => {
  switch (message.type) {
    case 'init': {
      const restored = readState(DefinitionsState);
      const keep =
        !message.discardEdits && restored !== undefined && restored.context.dataset === message.context.dataset;
      // Edits kept from a panel closed without saving come back when the page has none of its own.
      const kept =
        !keep && message.unsaved?.state.context.dataset === message.context.dataset ? message.unsaved : undefined;
      const s: Session = {
        context: message.context,
        connectionName: message.connectionName,
        loaded: message.loaded,
        rows: {
          ...rowsFromDefinitions(message.loaded),
          ...(keep ? restored.rows : kept ? changedRows(kept.state, message.loaded) : {}),
        },
        known: message.columns === null ? null : new Set(message.columns.map((c) => c.name)),
        completions: (message.columns ?? [])
          .filter((c) => !c.hidden)
          .map((c) => c.name)
          .sort((a, b) => a.localeCompare(b)),
      };
      open(s);
      if (message.discardEdits) shell.show(T.reloaded);
      if (kept) shell.editsPutBack(kept.savedAt, () => open({ ...s, rows: rowsFromDefinitions(s.loaded) }));
      return;
    }
    case 'busy':
    case 'problems':
    case 'status':
    case 'connection':
      shell.handle(message);
      return;
    case 'saved':
      if (!session) return;
      open({ ...session, loaded: message.loaded, rows: rowsFromDefinitions(message.loaded) });
      shell.show(T.saved(labelsOf(message.sent)));
      return;
  }
});

drawPage(app, COMMON_TEXT.loading);
send({ type: 'ready' });
