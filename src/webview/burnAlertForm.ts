// Update burn alert form (4.4). Keeps the alert as loaded and only the user's edits; the PUT body is
// always buildBurnAlertUpdate(loaded, edits), validated as the user types with UpdateBurnAlertRequest.
import './shared/boot';
import './shared/elements';
import { BURN_ALERT_LIMITS, BURN_ALERT_TYPES, type BurnAlert, type BurnAlertType } from '../api/schemas/burnAlert';
import { characterCount, isDeprecatedRecipient } from '../api/schemas/common';
import {
  burnAlertForReview,
  burnAlertProblems,
  unsendableMembers,
  writableRecipient,
  type BurnAlertEdits,
  type RecipientEdit,
} from './protocol/burnAlertForm';
import {
  BurnAlertState,
  BurnAlertToWebview,
  type BurnAlertContext,
  type BurnAlertFromWebview,
} from './protocol/messages';
import type { FormProblems } from './protocol/problems';
import { BURN_ALERT_TEXT } from './protocol/text/burnAlertForm';
import { ProblemView, StatusLine, button, byId, clear, counter, field, formElement, h, parseNumberText, sentence, setText, textfield, type ButtonControl, type TextControl } from './shared/dom';
import { FormShell } from './shared/formShell';
import { keepRelativeTimesCurrent, timeElement } from './shared/time';
import { onHostMessage, post, readState, writeState } from './shared/vscodeApi';

type NumberField = 'exhaustion_minutes' | 'budget_rate_window_minutes' | 'budget_rate_decrease_threshold_per_million';

const T = BURN_ALERT_TEXT;
const send = (m: BurnAlertFromWebview): void => post(m);
const app = byId('app');

interface Session {
  context: BurnAlertContext;
  connectionName: string;
  loaded: BurnAlert;
  edits: BurnAlertEdits;
  drafts: Record<string, string>;
  options: { id: string; label: string }[];
}

let session: Session | undefined;
const shell = new FormShell(app, (message) => setText(app, message));
let conflictOpen = false;
let ui:
  | {
      problems: ProblemView;
      status: StatusLine;
      submit: ButtonControl;
      review: ButtonControl;
      refreshRecipients: () => void;
      showTypeFields: () => void;
      conflict: HTMLElement;
    }
  | undefined;

function save(): void {
  if (!session) return;
  writeState({ context: session.context, loaded: session.loaded, edits: session.edits, drafts: session.drafts });
}

function currentRecipients(s: Session): RecipientEdit[] {
  return s.edits.recipients ?? (s.loaded.recipients ?? []).map(writableRecipient);
}

/** Local problems: the request rules, plus number text that is not a number at all. */
function validate(s: Session): FormProblems {
  const found = burnAlertProblems(s.loaded, s.edits);
  for (const [name, text] of Object.entries(s.drafts)) {
    if (parseNumberText(text) === undefined) {
      found.fields[name] = [T.notANumber(T.labels[name as NumberField] ?? name)];
    }
  }
  return found;
}

function recipientLabel(r: RecipientEdit, options: readonly { id: string; label: string }[]): string {
  if (r.id !== undefined) {
    const known = options.find((o) => o.id === r.id);
    if (known) return known.label;
    const what = [r.type, r.target].filter((x) => x !== undefined && x !== '').join(': ');
    return what === '' ? r.id : `${what} (${r.id})`;
  }
  return `${r.type ?? '?'}: ${r.target ?? '?'}`;
}

function render(s: Session): void {
  const top = h('div', { id: 'form-errors', className: 'form-errors', attrs: { role: 'alert', tabindex: '-1', hidden: true } });
  const problems = new ProblemView(top);
  const status = new StatusLine();
  const alertType = (): BurnAlertType => s.edits.alert_type ?? s.loaded.alert_type;

  const rerender = (touched?: string): void => {
    if (touched) problems.touch(touched);
    save();
    problems.render(validate(s));
  };

  // Alert type
  const typeSelect = h('vscode-single-select', {}, ...BURN_ALERT_TYPES.map((t) => h('vscode-option', { attrs: { value: t } }, T.alertTypes[t])));
  typeSelect.value = alertType();
  const typeHelp = h('div', { className: 'help', id: 'alert-type-help' }, T.alertTypeHelp[alertType()]);
  const typeField = field('f-alert_type', T.labels.alert_type, typeSelect);
  typeField.wrapper.insertBefore(typeHelp, typeField.warning);
  problems.register('alert_type', typeSelect, typeField.error, { label: T.labels.alert_type });

  // Numbers, shown according to the alert type
  const numberField = (name: NumberField): { wrapper: HTMLElement; control: TextControl } => {
    const initial = s.drafts[name] ?? String(s.edits[name] === null ? '' : (s.edits[name] ?? s.loaded[name] ?? ''));
    const control = textfield(initial, { type: 'number', inputmode: 'numeric' });
    const parts = field(`f-${name}`, T.labels[name], control, T.help[name]);
    problems.register(name, control, parts.error, { label: T.labels[name] });
    control.addEventListener('input', () => {
      const parsed = parseNumberText(control.value);
      s.drafts[name] = control.value;
      if (parsed === undefined) delete s.edits[name];
      else s.edits[name] = parsed;
      if (parsed !== undefined) delete s.drafts[name];
      rerender(name);
    });
    return { wrapper: parts.wrapper, control };
  };
  const exhaustion = numberField('exhaustion_minutes');
  const windowMinutes = numberField('budget_rate_window_minutes');
  const threshold = numberField('budget_rate_decrease_threshold_per_million');
  const showTypeFields = (): void => {
    const budget = alertType() === 'budget_rate';
    exhaustion.wrapper.hidden = budget;
    windowMinutes.wrapper.hidden = !budget;
    threshold.wrapper.hidden = !budget;
    setText(typeHelp, T.alertTypeHelp[alertType()]);
  };
  typeSelect.addEventListener('change', () => {
    const chosen = BURN_ALERT_TYPES.find((t) => t === typeSelect.value);
    if (chosen) s.edits.alert_type = chosen;
    showTypeFields();
    // The fields the new type needs say at once what they are missing.
    for (const name of chosen === 'budget_rate' ? ['budget_rate_window_minutes', 'budget_rate_decrease_threshold_per_million'] : ['exhaustion_minutes']) {
      problems.touch(name);
    }
    rerender('alert_type');
  });

  // Description with its counter beside it
  // No resize handle: vscode-textarea draws it with a data: image, which the strict CSP (img-src) blocks.
  const description = h('vscode-textarea', { attrs: { rows: '4', resize: 'none' } });
  description.value = s.edits.description ?? s.loaded.description ?? '';
  const count = counter('description-counter', BURN_ALERT_LIMITS.descriptionMax);
  const showCounter = (): void => count.update(characterCount(description.value));
  showCounter();
  const descriptionField = field('f-description', T.labels.description, description, undefined, { beside: count.element });
  problems.register('description', description, descriptionField.error, { label: T.labels.description });
  description.addEventListener('input', () => {
    s.edits.description = description.value;
    showCounter();
    rerender('description');
  });

  // Recipients
  const list = h('ul', { id: 'recipients', className: 'recipients', attrs: { 'aria-label': T.recipients.listLabel } });
  const pick = h('vscode-single-select', { attrs: { 'aria-label': T.recipients.pickLabel } });
  pick.id = 'recipient-pick';
  pick.label = T.recipients.pickLabel;
  const addPicked = button(T.recipients.add, () => {
    const id = pick.value;
    if (id === '') return;
    const option = s.options.find((o) => o.id === id);
    if (!option) return;
    s.edits.recipients = [...currentRecipients(s), { id }];
    refreshRecipients();
    rerender('recipients');
  }, true);
  addPicked.id = 'add-recipient';
  const deprecatedType = textfield('', { placeholder: T.recipients.typePlaceholder });
  const deprecatedTarget = textfield('', { placeholder: T.recipients.targetPlaceholder });
  const typeParts = field('f-recipient-type', T.recipients.typeLabel, deprecatedType);
  const targetParts = field('f-recipient-target', T.recipients.targetLabel, deprecatedTarget);
  const addDeprecated = button(T.recipients.addDeprecated, () => {
    const type = deprecatedType.value.trim();
    const target = deprecatedTarget.value.trim();
    if (type === '' || target === '') {
      setText(deprecatedError, T.recipients.needBoth);
      deprecatedError.hidden = false;
      return;
    }
    deprecatedError.hidden = true;
    s.edits.recipients = [...currentRecipients(s), { type, target }];
    deprecatedType.value = '';
    deprecatedTarget.value = '';
    refreshRecipients();
    rerender('recipients');
  }, true);
  addDeprecated.id = 'add-deprecated-recipient';
  const deprecatedError = h('div', { className: 'error', id: 'deprecated-error', attrs: { 'aria-live': 'polite', hidden: true } });
  const recipientsError = h('div', { className: 'error', id: 'f-recipients-error', attrs: { 'aria-live': 'polite', hidden: true } });
  // The list cannot take focus: the summary's link goes to the picker.
  problems.register('recipients', list, recipientsError, { label: T.labels.recipients, focus: pick });

  const unknownNote = h('p', { className: 'warning', id: 'recipients-unknown', attrs: { hidden: true } }, T.recipients.unknown);
  const refreshRecipients = (): void => {
    const current = currentRecipients(s);
    const unknown = s.edits.recipients === undefined && s.loaded.recipients === undefined;
    unknownNote.hidden = !unknown;
    clear(list);
    current.forEach((r, index) => {
      const label = recipientLabel(r, s.options);
      const remove = button(T.recipients.remove, () => {
        const next = currentRecipients(s).filter((_, i) => i !== index);
        s.edits.recipients = next;
        refreshRecipients();
        rerender('recipients');
        const buttons = list.querySelectorAll<HTMLElement>('vscode-button');
        (buttons[Math.min(index, buttons.length - 1)] ?? pick).focus();
      }, true);
      remove.setAttribute('aria-label', T.recipients.removeLabel(label));
      list.append(
        h(
          'li',
          {},
          h('span', { className: 'recipient-label' }, label),
          isDeprecatedRecipient(r) ? h('span', { className: 'badge deprecated', attrs: { title: T.recipients.deprecatedTitle } }, T.recipients.deprecatedBadge) : null,
          remove,
        ),
      );
    });
    if (current.length === 0) list.append(h('li', { className: 'empty' }, unknown ? T.recipients.unknownEmpty : T.recipients.none));
    const taken = new Set(current.map((r) => r.id).filter((id) => id !== undefined));
    const available = s.options.filter((o) => !taken.has(o.id));
    clear(pick);
    pick.append(h('vscode-option', { attrs: { value: '' } }, available.length === 0 ? T.recipients.noOthers : T.recipients.choose));
    for (const o of available) pick.append(h('vscode-option', { attrs: { value: o.id } }, o.label));
    pick.value = '';
  };

  const recipients = h(
    'fieldset',
    { className: 'recipients-editor' },
    h('legend', {}, T.recipients.legend),
    h('div', { className: 'help' }, T.help.recipients),
    unknownNote,
    list,
    recipientsError,
    h('div', { className: 'inline' }, pick, addPicked),
    h(
      'details',
      {},
      h('summary', {}, T.recipients.deprecatedSummary),
      h('p', { className: 'help' }, T.recipients.deprecatedHelp),
      typeParts.wrapper,
      targetParts.wrapper,
      deprecatedError,
      addDeprecated,
    ),
  );

  const review = button(T.review, () => {
    send({ type: 'review', edits: { ...s.edits } });
  }, true);
  review.id = 'review';
  const submit = button(T.submit, () => {
    if (shell.busy || conflictOpen || !problems.checkBeforeSubmit(validate(s))) return;
    shell.setBusy(true, T.checking);
    send({ type: 'submit', edits: { ...s.edits } });
  });
  submit.id = 'submit';

  const conflict = h('section', { id: 'conflict', className: 'conflict', attrs: { hidden: true, 'aria-labelledby': 'conflict-title' } });
  // Members of the alert the PUT cannot carry (e.g. auto_investigate): said before Save, not after.
  const unsendable = unsendableMembers(s.loaded);
  const unsendableNote =
    unsendable.length === 0
      ? null
      : h('p', { className: 'warning', id: 'unsendable' }, T.unsendable(unsendable));

  clear(app);
  app.append(
    h('h1', {}, T.title),
    h(
      'p',
      { className: 'lead' },
      T.lead(s.loaded.id, s.context.sloId, s.context.dataset, s.connectionName),
      ...(s.loaded.updated_at ? [' ', ...sentence(T.lastUpdated, timeElement(s.loaded.updated_at, Date.now()))] : []),
      s.loaded.triggered ? ` ${T.triggeredNow}` : '',
    ),
    top,
    ...(unsendableNote ? [unsendableNote] : []),
    formElement(
      undefined,
      typeField.wrapper,
      exhaustion.wrapper,
      windowMinutes.wrapper,
      threshold.wrapper,
      descriptionField.wrapper,
      recipients,
      h('div', { className: 'actions' }, submit, review),
    ),
    conflict,
    status.el,
  );
  app.setAttribute('aria-busy', 'false');
  ui = { problems, status, submit, review, refreshRecipients, showTypeFields, conflict };
  shell.view = { problems, status, submit, renderProblems: () => problems.render(validate(s)), blocked: () => conflictOpen };
  showTypeFields();
  refreshRecipients();
  problems.render(validate(s));
}

function showConflict(current: BurnAlert, mine: unknown): void {
  if (!ui || !session) return;
  conflictOpen = true;
  ui.submit.disabled = true;
  const choose = (choice: 'overwrite' | 'reload' | 'cancel'): void => {
    hideConflict();
    if (choice === 'overwrite') shell.setBusy(true, T.saving);
    send({ type: 'resolveConflict', choice });
  };
  const C = T.conflict;
  const overwrite = button(C.overwrite, () => choose('overwrite'));
  overwrite.id = 'conflict-overwrite';
  const reload = button(C.reload, () => choose('reload'), true);
  reload.id = 'conflict-reload';
  const cancel = button(C.cancel, () => choose('cancel'), true);
  cancel.id = 'conflict-cancel';
  const compare = button(C.compare, () => send({ type: 'reviewConflict' }), true);
  compare.id = 'conflict-compare';
  const theirs = { ...burnAlertForReview(current, {}), updated_at: current.updated_at };
  clear(ui.conflict);
  ui.conflict.append(
    h('h2', { id: 'conflict-title' }, C.title),
    h('p', {}, ...(current.updated_at ? [...sentence(C.changed, timeElement(current.updated_at, Date.now())), ' '] : []), C.explain),
    h(
      'div',
      { className: 'versions' },
      h('div', {}, h('h3', {}, C.theirs), h('pre', { id: 'conflict-theirs', attrs: { tabindex: '0' } }, JSON.stringify(theirs, null, 2))),
      h('div', {}, h('h3', {}, C.mine), h('pre', { id: 'conflict-mine', attrs: { tabindex: '0' } }, JSON.stringify(mine, null, 2))),
    ),
    h('div', { className: 'actions' }, overwrite, reload, cancel, compare),
  );
  ui.conflict.hidden = false;
  ui.status.show(C.status, 'error');
  overwrite.focus();
}

function hideConflict(): void {
  conflictOpen = false;
  if (!ui) return;
  ui.conflict.hidden = true;
  clear(ui.conflict);
  ui.submit.disabled = shell.busy;
}

onHostMessage(BurnAlertToWebview, (message) => {
  switch (message.type) {
    case 'init': {
      const restored = readState(BurnAlertState);
      const keep = !message.discardEdits && restored !== undefined && restored.context.alertId === message.context.alertId;
      session = {
        context: message.context,
        connectionName: message.connectionName,
        loaded: message.loaded,
        edits: keep ? restored.edits : {},
        drafts: keep ? { ...(restored.drafts ?? {}) } : {},
        options: message.recipientOptions,
      };
      shell.busy = false;
      conflictOpen = false;
      render(session);
      save();
      if (message.discardEdits) ui?.status.show(T.reloaded);
      return;
    }
    case 'busy':
    case 'problems':
    case 'status':
      shell.handle(message);
      return;
    case 'conflict':
      shell.setBusy(false);
      showConflict(message.current, message.mine);
      return;
    case 'saved':
      if (!session) return;
      session = { ...session, loaded: message.loaded, edits: {}, drafts: {} };
      shell.busy = false;
      conflictOpen = false;
      render(session);
      save();
      ui?.status.show(T.saved);
      return;
  }
});

keepRelativeTimesCurrent();
send({ type: 'ready' });
