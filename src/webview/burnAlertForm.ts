// Update burn alert form (4.4). Keeps the alert as loaded and only the user's edits; the PUT body is
// always buildBurnAlertUpdate(loaded, edits), validated as the user types with UpdateBurnAlertRequest.
// The page is drawn from the session with lit-html templates: anew for each version of the alert loaded,
// in place for every edit (the field being typed in keeps its focus and caret).
import './shared/boot';
import './shared/elements';
import { html, nothing, type TemplateResult } from 'lit-html';
import { keyed } from 'lit-html/directives/keyed.js';
import { live } from 'lit-html/directives/live.js';
import { BURN_ALERT_LIMITS, BURN_ALERT_TYPES, type BurnAlert, type BurnAlertType } from '../api/schemas/burnAlert';
import { characterCount } from '../api/schemas/common';
import { burnAlertForReview, burnAlertProblems, unsendableMembers } from './protocol/burnAlertForm';
import {
  BurnAlertState,
  BurnAlertToWebview,
  type BurnAlertContext,
  type BurnAlertFromWebview,
} from './protocol/messages';
import type { FormProblems } from './protocol/problems';
import { RecipientsEditor, typedIdProblems, type RecipientsSession } from './burnAlert/recipientsEditor';
import { BURN_ALERT_TEXT } from './protocol/text/burnAlertForm';
import { controlWarnings, textLocale } from './protocol/text/common';
import { minutesInWords } from './protocol/text/duration';
import { byId, drawPage, parseNumberText, sentence } from './shared/dom';
import { counter, field, invalid, onFormSubmit, valueOf } from './shared/fields';
import { FormShell } from './shared/formShell';
import { ProblemView, type ProblemField, type ShownProblems } from './shared/problemView';
import { keepRelativeTimesCurrent, timeView } from './shared/time';
import { onHostMessage, post, postDraft, readState, writeState } from './shared/vscodeApi';

type NumberField = 'exhaustion_minutes' | 'budget_rate_window_minutes' | 'budget_rate_decrease_threshold_per_million';
const NUMBER_FIELDS: readonly NumberField[] = [
  'exhaustion_minutes',
  'budget_rate_window_minutes',
  'budget_rate_decrease_threshold_per_million',
];

const T = BURN_ALERT_TEXT;
const send = (m: BurnAlertFromWebview): void => post(m);
const app = byId('app');

/** The alert as loaded, the user's edits and what the recipients editor keeps with them (RecipientsSession). */
interface Session extends RecipientsSession {
  context: BurnAlertContext;
  connectionName: string;
  drafts: Record<string, string>;
}

/** What the page holds beside the session while one version of the alert is shown (never saved). */
interface View {
  /** Which version this is: the page is drawn anew for each. */
  version: number;
  problems: ProblemView;
  /** Number fields as typed ("01" stays "01", though its number is 1). */
  typed: Partial<Record<NumberField, string>>;
  /** The recipients editor, with what is picked or named there and not added yet. */
  recipients: RecipientsEditor;
  /** The service's version and the user's, while the user chooses between them. */
  conflict: { current: BurnAlert; mine: unknown } | undefined;
}

let session: Session | undefined;
let view: View | undefined;
let versions = 0;
const shell = new FormShell(
  app,
  () => {
    if (session && view) drawPage(app, keyed(view.version, formPage(session, view)));
  },
  (message) => drawPage(app, message),
);

function save(): void {
  if (!session) return;
  const typed = session.recipientId === '' ? {} : { recipientId: session.recipientId };
  const state: BurnAlertState = {
    context: session.context,
    loaded: session.loaded,
    edits: session.edits,
    drafts: session.drafts,
    ...typed,
  };
  writeState(state);
  postDraft(isDirty(session) ? state : null);
}

/** Whether the edits would change what Save sends, or hold number text that is not a number yet, or an ID not added. */
function isDirty(s: Session): boolean {
  return (
    Object.keys(s.drafts).length > 0 ||
    s.recipientId.trim() !== '' ||
    JSON.stringify(burnAlertForReview(s.loaded, s.edits)) !== JSON.stringify(burnAlertForReview(s.loaded, {}))
  );
}

const alertType = (s: Session): BurnAlertType => s.edits.alert_type ?? s.loaded.alert_type;

/** Local problems: the request rules, plus number text that is not a number at all, and an ID typed but not added. */
function validate(s: Session): FormProblems {
  const found = burnAlertProblems(s.loaded, s.edits);
  const typedId = typedIdProblems(s);
  if (typedId.length > 0) found.fields['recipient-id'] = typedId;
  for (const [name, text] of Object.entries(s.drafts)) {
    if (parseNumberText(text) === undefined) {
      found.fields[name] = [T.notANumber(T.labels[name as NumberField] ?? name)];
    }
  }
  return found;
}

// --- Templates ----------------------------------------------------------------------------------------

function formPage(s: Session, v: View): TemplateResult {
  const shown = v.problems.shown(validate(s));
  return html`<h1>${T.title}</h1>
    ${lead(s.loaded, s.context, s.connectionName)}
    ${shell.banners()}
    ${v.problems.summary(shown)}
    ${unsendableNote(s.loaded)}
    <form id="form" novalidate @submit=${onFormSubmit()}>
      ${typeField(s, shown)}
      ${NUMBER_FIELDS.map((name) => numberField(s, v, name, shown))}
      ${descriptionField(s, shown)}
      ${v.recipients.view(errorsOf(shown, 'recipients'), errorsOf(shown, 'recipient-id'))}
      <div class="actions">
        <vscode-button id="submit" .disabled=${shell.busy || v.conflict !== undefined} @click=${submit}>${T.submit}</vscode-button>
        <vscode-button id="review" secondary @click=${review}>${T.review}</vscode-button>
      </div>
    </form>
    ${conflictSection(v.conflict)}
    ${shell.statusLine()}`;
}

function lead(loaded: BurnAlert, context: BurnAlertContext, connectionName: string): TemplateResult {
  const updated = loaded.updated_at
    ? [' ', ...sentence(T.lastUpdated, timeView(loaded.updated_at, Date.now()))]
    : nothing;
  return html`<p class="lead">${T.lead(loaded.id, context.sloId, context.dataset, connectionName)}${updated}${loaded.triggered ? ` ${T.triggeredNow}` : ''}</p>`;
}

/** Members of the alert the PUT cannot carry (e.g. auto_investigate): said before Save, not after. */
function unsendableNote(loaded: BurnAlert): TemplateResult | typeof nothing {
  const unsendable = unsendableMembers(loaded);
  return unsendable.length === 0 ? nothing : html`<p class="warning" id="unsendable">${T.unsendable(unsendable)}</p>`;
}

const errorsOf = (shown: ShownProblems, name: string): string[] => shown.errors[name] ?? [];

function typeField(s: Session, shown: ShownProblems): TemplateResult {
  const type = alertType(s);
  const errors = errorsOf(shown, 'alert_type');
  const control = html`<vscode-single-select id="f-alert_type" .value=${live(type)} ${invalid(errors.length > 0)} @change=${chooseType}>
    ${BURN_ALERT_TYPES.map((t) => html`<vscode-option value=${t}>${T.alertTypes[t]}</vscode-option>`)}
  </vscode-single-select>`;
  return field({ id: 'f-alert_type', label: T.labels.alert_type, control, help: T.alertTypeHelp[type], errors });
}

/** A number field, shown when the alert type uses it. */
function numberField(s: Session, v: View, name: NumberField, shown: ShownProblems): TemplateResult {
  const budget = alertType(s) === 'budget_rate';
  const saved = s.edits[name] === null ? '' : String(s.edits[name] ?? s.loaded[name] ?? '');
  const text = v.typed[name] ?? s.drafts[name] ?? saved;
  const errors = errorsOf(shown, name);
  const control = html`<vscode-textfield id="f-${name}" type="number" inputmode="numeric" .value=${live(text)} ${invalid(errors.length > 0)}
    @input=${(e: Event) => typeNumber(name, valueOf(e))}></vscode-textfield>`;
  const hidden = name === 'exhaustion_minutes' ? budget : !budget;
  return field({
    id: `f-${name}`,
    label: T.labels[name],
    control,
    help: numberHelp(name, parseNumberText(text)),
    errors,
    hidden,
  });
}

/** A field's help, and for minutes what the number comes to ("That is about 4,083 years."): the service takes any size. */
function numberHelp(name: NumberField, value: number | null | undefined): string {
  const minutes = name === 'exhaustion_minutes' || name === 'budget_rate_window_minutes';
  if (!minutes || typeof value !== 'number' || !Number.isSafeInteger(value) || value < 60) return T.help[name];
  return `${T.help[name]} ${T.comesTo(minutesInWords(value, textLocale()))}`;
}

/** The description with its counter beside it. */
function descriptionField(s: Session, shown: ShownProblems): TemplateResult {
  const text = s.edits.description ?? s.loaded.description ?? '';
  const errors = errorsOf(shown, 'description');
  // No resize handle: vscode-textarea draws it with a data: image, which the strict CSP (img-src) blocks.
  const control = html`<vscode-textarea id="f-description" rows="4" resize="none" .value=${live(text)} ${invalid(errors.length > 0)}
    @input=${(e: Event) => editDescription(valueOf(e))}></vscode-textarea>`;
  const beside = counter('description-counter', characterCount(text), BURN_ALERT_LIMITS.descriptionMax);
  return field({
    id: 'f-description',
    label: T.labels.description,
    control,
    beside,
    errors,
    warnings: controlWarnings(text),
  });
}

function conflictSection(conflict: View['conflict']): TemplateResult {
  return html`<section id="conflict" class="conflict" ?hidden=${conflict === undefined} aria-labelledby="conflict-title">${
    conflict === undefined ? nothing : conflictChoice(conflict.current, conflict.mine)
  }</section>`;
}

/** Both versions side by side, and what the user can do about them. */
function conflictChoice(current: BurnAlert, mine: unknown): TemplateResult {
  const C = T.conflict;
  const theirs = { ...burnAlertForReview(current, {}), updated_at: current.updated_at };
  const changed = current.updated_at
    ? [...sentence(C.changed, timeView(current.updated_at, Date.now())), ' ']
    : nothing;
  return html`<h2 id="conflict-title">${C.title}</h2>
    <p>${changed}${C.explain}</p>
    <div class="versions">
      <div><h3>${C.theirs}</h3><pre id="conflict-theirs" tabindex="0">${JSON.stringify(theirs, null, 2)}</pre></div>
      <div><h3>${C.mine}</h3><pre id="conflict-mine" tabindex="0">${JSON.stringify(mine, null, 2)}</pre></div>
    </div>
    <div class="actions">
      <vscode-button id="conflict-overwrite" @click=${() => choose('overwrite')}>${C.overwrite}</vscode-button>
      <vscode-button id="conflict-reload" secondary @click=${() => choose('reload')}>${C.reload}</vscode-button>
      <vscode-button id="conflict-cancel" secondary @click=${() => choose('cancel')}>${C.cancel}</vscode-button>
      <vscode-button id="conflict-compare" secondary @click=${() => send({ type: 'reviewConflict' })}>${C.compare}</vscode-button>
    </div>`;
}

// --- What the user does -------------------------------------------------------------------------------

/** After an edit: the fields are touched (their problems show), the edits saved and the page drawn. */
function edited(...fields: string[]): void {
  for (const name of fields) view?.problems.touch(name);
  save();
  shell.draw();
}

function chooseType(event: Event): void {
  if (!session) return;
  const chosen = BURN_ALERT_TYPES.find((t) => t === valueOf(event));
  if (chosen) session.edits.alert_type = chosen;
  // The fields the new type needs say at once what they are missing.
  const needed =
    chosen === 'budget_rate'
      ? ['budget_rate_window_minutes', 'budget_rate_decrease_threshold_per_million']
      : ['exhaustion_minutes'];
  edited(...needed, 'alert_type');
}

function typeNumber(name: NumberField, text: string): void {
  if (!session || !view) return;
  const parsed = parseNumberText(text);
  view.typed[name] = text;
  session.drafts[name] = text;
  if (parsed === undefined) delete session.edits[name];
  else session.edits[name] = parsed;
  if (parsed !== undefined) delete session.drafts[name];
  edited(name);
}

function editDescription(text: string): void {
  if (!session) return;
  session.edits.description = text;
  edited('description');
}

function submit(): void {
  if (!session || !view) return;
  const s = session;
  if (shell.busy || view.conflict || !view.problems.checkBeforeSubmit(validate(s), () => shell.draw())) return;
  shell.setBusy(true, T.checking);
  send({ type: 'submit', edits: { ...s.edits } });
}

function review(): void {
  if (session) send({ type: 'review', edits: { ...session.edits } });
}

function choose(choice: 'overwrite' | 'reload' | 'cancel'): void {
  if (view) view.conflict = undefined;
  shell.draw();
  if (choice === 'overwrite') shell.setBusy(true, T.saving);
  send({ type: 'resolveConflict', choice });
}

// --- What the host says -------------------------------------------------------------------------------

function problemFields(): ProblemField[] {
  const L = T.labels;
  return [
    { field: 'alert_type', label: L.alert_type, id: 'f-alert_type' },
    ...NUMBER_FIELDS.map((name) => ({ field: name, label: L[name], id: `f-${name}` })),
    { field: 'description', label: L.description, id: 'f-description' },
    // The list cannot take focus: the summary's link goes to the picker.
    { field: 'recipients', label: L.recipients, id: 'recipients', focusId: 'recipient-pick' },
    { field: 'recipient-id', label: T.recipients.idLabel, id: 'f-recipient-id' },
  ];
}

/** Shows the session's version of the alert, drawn anew, with nothing typed beside it. */
function open(s: Session): void {
  session = s;
  versions += 1;
  const recipients = new RecipientsEditor(s, { edited });
  view = { version: versions, problems: new ProblemView(problemFields()), typed: {}, recipients, conflict: undefined };
  shell.start(view.problems);
  shell.draw();
  save();
}

onHostMessage(BurnAlertToWebview, (message) => {
  switch (message.type) {
    case 'init': {
      const restored = readState(BurnAlertState);
      const keep =
        !message.discardEdits && restored !== undefined && restored.context.alertId === message.context.alertId;
      // Edits kept from a panel closed without saving come back when the page has none of its own.
      const kept =
        !keep && message.unsaved?.state.context.alertId === message.context.alertId ? message.unsaved : undefined;
      const from = keep ? restored : kept?.state;
      const s: Session = {
        context: message.context,
        connectionName: message.connectionName,
        loaded: message.loaded,
        edits: from ? from.edits : {},
        drafts: { ...(from?.drafts ?? {}) },
        options: message.recipientOptions,
        listed: message.listedRecipientIds === undefined ? undefined : new Set(message.listedRecipientIds),
        recipientId: from?.recipientId ?? '',
      };
      open(s);
      if (message.discardEdits) shell.show(T.reloaded);
      if (kept) shell.editsPutBack(kept.savedAt, () => open({ ...s, edits: {}, drafts: {}, recipientId: '' }));
      return;
    }
    case 'busy':
    case 'problems':
    case 'status':
    case 'connection':
      shell.handle(message);
      return;
    case 'conflict':
      shell.setBusy(false);
      if (!view) return;
      view.conflict = { current: message.current, mine: message.mine };
      shell.show(T.conflict.status, 'error');
      byId('conflict-overwrite').focus();
      return;
    case 'saved':
      if (!session) return;
      open({ ...session, loaded: message.loaded, edits: {}, drafts: {} });
      shell.show(T.saved);
      return;
  }
});

keepRelativeTimesCurrent(() => {
  if (session) shell.draw();
});
send({ type: 'ready' });
