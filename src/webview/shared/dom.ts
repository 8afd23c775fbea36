// Tiny DOM builders. Text always goes in through text nodes, so a service string such as
// `<img src=x onerror=alert(1)>` is shown as those characters and never parsed as markup.
import { hasProblems, type FormProblems } from '../protocol/problems';
import { COMMON_TEXT } from '../protocol/text/common';

type Child = Node | string | null | undefined | false;

export interface Props {
  id?: string;
  className?: string;
  /** Attributes set with setAttribute (values are never parsed as markup). */
  attrs?: Record<string, string | boolean | undefined>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, props?: Props, ...children: Child[]): HTMLElement;
export function h(tag: string, props: Props = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  if (props.id !== undefined) el.id = props.id;
  if (props.className !== undefined) el.className = props.className;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : value);
  }
  append(el, children);
  return el;
}

/**
 * A translated sentence with elements in it: `{0}`, `{1}`... of the template become the given nodes, so
 * a translation can put them where its language needs them ("Changed on the service {0}.").
 */
export function sentence(template: string, ...nodes: Node[]): Child[] {
  return template.split(/(\{\d+\})/).map((part) => {
    const slot = /^\{(\d+)\}$/.exec(part);
    return slot ? (nodes[Number(slot[1])] ?? part) : part;
  });
}

export function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export function setText(el: Element, text: string): void {
  el.textContent = text;
}

export function clear(el: Element): void {
  el.replaceChildren();
}

/** The element with this id, which the page is known to hold. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`form element #${id} is missing`);
  return el as T;
}

/** An element that can be marked invalid: vscode-elements controls have `invalid`, native ones aria-invalid. */
function markInvalid(control: HTMLElement, invalid: boolean): void {
  if ('invalid' in control) (control as HTMLElement & { invalid: boolean }).invalid = invalid;
  if (invalid) control.setAttribute('aria-invalid', 'true');
  else control.removeAttribute('aria-invalid');
}

interface FieldSlot {
  control: HTMLElement;
  error: HTMLElement;
  warning?: HTMLElement | undefined;
  label: string;
  /** What a link in the summary focuses (the control, unless it cannot take focus). */
  focus: HTMLElement;
}

export interface SlotOptions {
  /** The field's label, as the summary names it. */
  label: string;
  warning?: HTMLElement | undefined;
  /** What the summary's link focuses, when the control itself cannot take focus (a list). */
  focus?: HTMLElement | undefined;
}

/**
 * Shows problems on the fields they name and, at the top, a summary of them all with a link to each
 * field. Fields the user has not touched yet stay quiet until the first submit attempt, so a fresh
 * form is not covered in red; the service's problems show at once.
 */
export class ProblemView {
  private readonly slots = new Map<string, FieldSlot>();
  private readonly touched = new Set<string>();
  private showAll = false;
  private serverProblems: FormProblems = { fields: {}, form: [] };

  constructor(private readonly top: HTMLElement) {}

  register(field: string, control: HTMLElement, error: HTMLElement, options: SlotOptions): void {
    this.slots.set(field, { control, error, warning: options.warning, label: options.label, focus: options.focus ?? control });
  }

  touch(field: string): void {
    this.touched.add(field);
    // A field the user changed no longer carries what the service said about its old value.
    delete this.serverProblems.fields[field];
  }

  revealAll(): void {
    this.showAll = true;
  }

  /** Problems reported by the host (from the service): shown until the field is edited again. */
  setServerProblems(problems: FormProblems): void {
    this.serverProblems = { fields: { ...problems.fields }, form: [...problems.form] };
    for (const field of Object.keys(problems.fields)) this.touched.add(field);
  }

  clearServerProblems(): void {
    this.serverProblems = { fields: {}, form: [] };
  }

  render(local: FormProblems, warnings: Record<string, string[]> = {}): void {
    const summary: { field?: string; text: string }[] = [];
    for (const [field, slot] of this.slots) {
      const visible = this.showAll || this.touched.has(field);
      const mine = visible ? (local.fields[field] ?? []) : [];
      const service = this.serverProblems.fields[field] ?? [];
      const messages = [...mine, ...service];
      setText(slot.error, messages.join(' '));
      slot.error.hidden = messages.length === 0;
      markInvalid(slot.control, messages.length > 0);
      if (slot.warning) {
        const advice = warnings[field] ?? [];
        setText(slot.warning, advice.join(' '));
        slot.warning.hidden = advice.length === 0;
      }
      // The summary lists what a submit was refused for, and what the service said, each naming its field.
      const listed = [...(this.showAll ? mine : []), ...service];
      for (const m of listed) summary.push({ field, text: m.startsWith(slot.label) ? m : COMMON_TEXT.onField(slot.label, m) });
    }
    // Problems on fields this form does not show go to the top too, so nothing is silently lost.
    const orphans = Object.entries({ ...local.fields, ...this.serverProblems.fields })
      .filter(([field]) => !this.slots.has(field))
      .flatMap(([field, list]) => list.filter(() => this.showAll || field in this.serverProblems.fields).map((m) => COMMON_TEXT.onField(field, m)));
    const formWide = [...(this.showAll ? local.form : []), ...this.serverProblems.form, ...orphans];
    for (const text of formWide) if (!summary.some((s) => s.text === text)) summary.push({ text });
    clear(this.top);
    if (summary.length > 0) {
      this.top.append(
        h('p', { className: 'summary-title' }, COMMON_TEXT.summaryTitle(summary.length)),
        h('ul', {}, ...summary.map((s) => h('li', {}, s.field === undefined ? s.text : this.link(s.field, s.text)))),
      );
    }
    this.top.hidden = summary.length === 0;
  }

  /** A link in the summary that takes the user to the field. */
  private link(field: string, text: string): HTMLElement {
    const slot = this.slots.get(field);
    const a = h('a', { attrs: { href: `#${slot?.control.id ?? ''}`, 'data-field': field } }, text);
    a.addEventListener('click', (event) => {
      event.preventDefault();
      slot?.focus.scrollIntoView({ block: 'center' });
      slot?.focus.focus();
    });
    return a;
  }

  /**
   * What every submit does first: shows every problem, also on fields not touched yet, and drops what the
   * service said about earlier values. False, with focus on the first problem, when the form cannot be sent.
   */
  checkBeforeSubmit(local: FormProblems, warnings?: Record<string, string[]>): boolean {
    this.revealAll();
    this.clearServerProblems();
    this.render(local, warnings);
    if (!hasProblems(local)) return true;
    this.focusFirstInvalid();
    return false;
  }

  /** Moves focus to the first field showing a problem (keyboard and screen-reader users land on it). */
  focusFirstInvalid(): void {
    for (const slot of this.slots.values()) {
      if (!slot.error.hidden) {
        slot.focus.focus();
        return;
      }
    }
    if (!this.top.hidden) this.top.focus();
  }
}

export interface FieldParts {
  wrapper: HTMLElement;
  error: HTMLElement;
  warning: HTMLElement;
}

export interface FieldOptions {
  /** A native control (input, select): the label is a <label for>, and help and errors are tied to it. */
  native?: boolean;
  /** Shown beside the control (a character counter). */
  beside?: HTMLElement;
}

/**
 * A labelled field: label tied to the control by id, optional help, a warning line and an error line
 * that screen readers announce as it changes.
 */
export function field(id: string, label: string, control: HTMLElement, help?: string, options: FieldOptions = {}): FieldParts {
  control.id = id;
  const labelEl = options.native ? h('label', { attrs: { for: id } }, label) : h('vscode-label', { attrs: { for: id } }, label);
  const helpEl = help ? h('div', { className: 'help', id: `${id}-help` }, help) : null;
  // aria-describedby cannot reach into a shadow root, so only native controls get it.
  if (options.native) control.setAttribute('aria-describedby', [helpEl ? `${id}-help` : '', `${id}-warning`, `${id}-error`].join(' ').trim());
  const warning = h('div', { className: 'warning', id: `${id}-warning`, attrs: { 'aria-live': 'polite', hidden: true } });
  const error = h('div', { className: 'error', id: `${id}-error`, attrs: { 'aria-live': 'polite', hidden: true } });
  const body = options.beside ? h('div', { className: 'control-row' }, control, options.beside) : control;
  const wrapper = h('div', { className: 'field' }, labelEl, body, helpEl, warning, error);
  return { wrapper, error, warning };
}

/** A character counter ("12 / 100") to show beside a field; `update` takes the length in characters. */
export function counter(id: string, max: number): { element: HTMLElement; update(length: number): void } {
  const element = h('div', { className: 'counter', id, attrs: { 'aria-live': 'off', title: COMMON_TEXT.counterTitle(max) } });
  return {
    element,
    update(length) {
      setText(element, COMMON_TEXT.counter(length, max));
      element.classList.toggle('over', length > max);
    },
  };
}

/** The form's busy indicator and status line (an aria-live region). */
export class StatusLine {
  readonly el: HTMLElement;
  private readonly ring: HTMLElement;
  private readonly text: HTMLElement;

  constructor() {
    // Its own aria-label would say "Loading" in English; the status text beside it says what is going on.
    this.ring = h('vscode-progress-ring', { attrs: { hidden: true, 'aria-hidden': 'true', 'aria-label': COMMON_TEXT.loading } });
    this.text = h('span', { id: 'status-text' });
    this.el = h('div', { id: 'status', className: 'status', attrs: { role: 'status', 'aria-live': 'polite' } }, this.ring, this.text);
  }

  busy(label: string): void {
    this.ring.hidden = false;
    setText(this.text, label);
  }

  show(message: string, kind: 'info' | 'error' = 'info'): void {
    this.ring.hidden = true;
    this.el.classList.toggle('failed', kind === 'error');
    setText(this.text, message);
  }
}

/**
 * A <form> that never navigates. vscode-textfield asks its form to submit on Enter: `onSubmit` (if
 * given) then runs the form's own submit action, as Enter does in a native form.
 */
export function formElement(onSubmit: (() => void) | undefined, ...children: Child[]): HTMLFormElement {
  const form = h('form', { id: 'form', attrs: { novalidate: true } }, ...children);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onSubmit?.();
  });
  return form;
}

/** Parses number text: '' is "cleared" (null), a number is a number, anything else is undefined. */
export function parseNumberText(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^[-+]?\d+(\.\d+)?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

export type ButtonControl = HTMLElementTagNameMap['vscode-button'];
export type TextControl = HTMLElementTagNameMap['vscode-textfield'];

/** A vscode-elements button that runs `onClick`. */
export function button(label: string, onClick: () => void, secondary = false): ButtonControl {
  const el = h('vscode-button', { attrs: { secondary } }, label);
  el.addEventListener('click', onClick);
  return el;
}

/** A vscode-elements text field holding `value`. */
export function textfield(value: string, attrs: Record<string, string | boolean> = {}): TextControl {
  const el = h('vscode-textfield', { attrs });
  el.value = value;
  return el;
}

/** A vscode-elements checkbox with its label. */
export function checkbox(label: string, checked: boolean): HTMLElementTagNameMap['vscode-checkbox'] {
  const el = h('vscode-checkbox', {}, label);
  el.checked = checked;
  return el;
}
