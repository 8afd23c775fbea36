// The templates every form builds its fields from: a labelled field with its help, warning and error
// lines, a character counter, and the mark of an invalid control.
import { html, nothing, type TemplateResult } from 'lit-html';
import { Directive, PartType, directive, type ElementPart, type PartInfo } from 'lit-html/directive.js';
import { COMMON_TEXT } from '../protocol/text/common';

/**
 * Marks the element it sits on as invalid or not (`<vscode-textfield ${invalid(bad)}>`): vscode-elements
 * controls draw their error state from `invalid`, and every control says it with aria-invalid.
 */
class InvalidMark extends Directive {
  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('invalid() belongs on an element');
  }

  render(_invalid: boolean): typeof nothing {
    return nothing;
  }

  override update(part: ElementPart, [invalid]: [boolean]): typeof nothing {
    const el = part.element;
    if ('invalid' in el) (el as Element & { invalid: boolean }).invalid = invalid;
    if (invalid) el.setAttribute('aria-invalid', 'true');
    else el.removeAttribute('aria-invalid');
    return nothing;
  }
}

export const invalid = directive(InvalidMark);

/** A field's warning or error line (`<id>-warning`, `<id>-error`), which screen readers announce as it changes. */
export function messageLine(kind: 'warning' | 'error', id: string, messages: readonly string[]): TemplateResult {
  return html`<div class=${kind} id="${id}-${kind}" aria-live="polite" ?hidden=${messages.length === 0}>${messages.join(' ')}</div>`;
}

export interface FieldView {
  /** The control's id: the label names it. */
  id: string;
  label: string;
  control: TemplateResult;
  help?: string | undefined;
  /** Shown beside the control (a character counter). */
  beside?: TemplateResult | undefined;
  errors: readonly string[];
  warnings?: readonly string[] | undefined;
  hidden?: boolean | undefined;
}

/** A labelled field: the label tied to the control by id, optional help, a warning line and an error line. */
export function field(f: FieldView): TemplateResult {
  return html`<div class="field" ?hidden=${f.hidden === true}>
    <vscode-label for=${f.id}>${f.label}</vscode-label>
    ${f.beside === undefined ? f.control : html`<div class="control-row">${f.control}${f.beside}</div>`}
    ${f.help === undefined ? nothing : html`<div class="help" id="${f.id}-help">${f.help}</div>`}
    ${messageLine('warning', f.id, f.warnings ?? [])}
    ${messageLine('error', f.id, f.errors)}
  </div>`;
}

/** A character counter ("12 / 100") to show beside a field; red past the limit. */
export function counter(id: string, length: number, max: number): TemplateResult {
  return html`<div class=${length > max ? 'counter over' : 'counter'} id=${id} aria-live="off" title=${COMMON_TEXT.counterTitle(max)}>${COMMON_TEXT.counter(length, max)}</div>`;
}

/**
 * The submit handler of a <form> that never navigates. vscode-textfield asks its form to submit on Enter:
 * `action` (if given) then runs the form's own submit action, as Enter does in a native form.
 */
export function onFormSubmit(action?: () => void): (event: Event) => void {
  return (event) => {
    event.preventDefault();
    action?.();
  };
}

/** The value of the control an event came from (a text field, a select). */
export function valueOf(event: Event): string {
  return (event.currentTarget as HTMLElement & { value: string }).value;
}

/** Whether the checkbox an event came from is checked. */
export function checkedOf(event: Event): boolean {
  return (event.currentTarget as HTMLElement & { checked: boolean }).checked;
}
