// Which problems a form shows: on the fields they name and, at the top, a summary of them all with a link
// to each field. Fields the user has not touched yet stay quiet until the first submit attempt, so a fresh
// form is not covered in red; the service's problems show at once. It holds what was shown last, so that
// focus can go to the first field showing a problem once the page is drawn.
import { html, nothing, type TemplateResult } from 'lit-html';
import type { FormProblems } from '../protocol/problems';
import { hasProblems } from '../protocol/problems';
import { COMMON_TEXT } from '../protocol/text/common';

export interface ProblemField {
  /** The field's name in the problems. */
  field: string;
  /** Its label, as the summary names it. */
  label: string;
  /** The id of its control: the summary's link points there. */
  id: string;
  /** The id of what the summary's link focuses, when the control itself cannot take focus (a list). */
  focusId?: string;
}

export interface ShownProblems {
  /** Per field, what its error line says (empty: nothing). */
  errors: Record<string, string[]>;
  /** Per field, what its warning line says. */
  warnings: Record<string, string[]>;
  /** The summary at the top, each problem naming its field. */
  summary: { field?: string; text: string }[];
}

export class ProblemView {
  private readonly touched = new Set<string>();
  private showAll = false;
  private serverProblems: FormProblems = { fields: {}, form: [] };
  private last: ShownProblems = { errors: {}, warnings: {}, summary: [] };

  /** `fields` in the order the form shows them. */
  constructor(private readonly fields: readonly ProblemField[]) {}

  touch(field: string): void {
    this.touched.add(field);
    // A field the user changed no longer carries what the service said about its old value.
    delete this.serverProblems.fields[field];
  }

  /** Problems reported by the host (from the service): shown until the field is edited again. */
  setServerProblems(problems: FormProblems): void {
    this.serverProblems = { fields: { ...problems.fields }, form: [...problems.form] };
    for (const field of Object.keys(problems.fields)) this.touched.add(field);
  }

  /** What the form shows now, given its own problems and warnings. */
  shown(local: FormProblems, warnings: Record<string, string[]> = {}): ShownProblems {
    const shown: ShownProblems = { errors: {}, warnings: {}, summary: [] };
    for (const { field, label } of this.fields) {
      const visible = this.showAll || this.touched.has(field);
      const mine = visible ? (local.fields[field] ?? []) : [];
      const service = this.serverProblems.fields[field] ?? [];
      shown.errors[field] = [...mine, ...service];
      shown.warnings[field] = warnings[field] ?? [];
      // The summary lists what a submit was refused for, and what the service said, each naming its field.
      const listed = [...(this.showAll ? mine : []), ...service];
      for (const m of listed)
        shown.summary.push({ field, text: m.startsWith(label) ? m : COMMON_TEXT.onField(label, m) });
    }
    // Problems on fields this form does not show go to the top too, so nothing is silently lost.
    const known = new Set(this.fields.map((f) => f.field));
    const orphans = Object.entries({ ...local.fields, ...this.serverProblems.fields })
      .filter(([field]) => !known.has(field))
      .flatMap(([field, list]) =>
        list
          .filter(() => this.showAll || field in this.serverProblems.fields)
          .map((m) => COMMON_TEXT.onField(field, m)),
      );
    const formWide = [...(this.showAll ? local.form : []), ...this.serverProblems.form, ...orphans];
    for (const text of formWide) if (!shown.summary.some((s) => s.text === text)) shown.summary.push({ text });
    this.last = shown;
    return shown;
  }

  /** The summary at the top (`#form-errors`), each problem on a field a link that takes the user there. */
  summary(shown: ShownProblems): TemplateResult {
    const list = shown.summary;
    const body = html`<p class="summary-title">${COMMON_TEXT.summaryTitle(list.length)}</p><ul>${list.map(
      (s) => html`<li>${s.field === undefined ? s.text : this.link(s.field, s.text)}</li>`,
    )}</ul>`;
    return html`<div id="form-errors" class="form-errors" role="alert" tabindex="-1" ?hidden=${list.length === 0}>${list.length === 0 ? nothing : body}</div>`;
  }

  private link(field: string, text: string): TemplateResult {
    const target = this.fields.find((f) => f.field === field);
    const follow = (event: Event): void => {
      event.preventDefault();
      const el = target && focusTarget(target);
      el?.scrollIntoView({ block: 'center' });
      el?.focus();
    };
    return html`<a href="#${target?.id ?? ''}" data-field=${field} @click=${follow}>${text}</a>`;
  }

  /**
   * What every submit does first: shows every problem, also on fields not touched yet, and drops what the
   * service said about earlier values; `draw` draws the page with them. False, with focus on the first
   * problem, when the form cannot be sent.
   */
  checkBeforeSubmit(local: FormProblems, draw: () => void): boolean {
    this.showAll = true;
    this.serverProblems = { fields: {}, form: [] };
    draw();
    if (!hasProblems(local)) return true;
    this.focusFirstInvalid();
    return false;
  }

  /** Moves focus to the first field showing a problem, else to the summary (keyboard and screen-reader users land on it). */
  focusFirstInvalid(): void {
    const first = this.fields.find((f) => (this.last.errors[f.field] ?? []).length > 0);
    if (first) focusTarget(first)?.focus();
    else if (this.last.summary.length > 0) document.getElementById('form-errors')?.focus();
  }
}

function focusTarget(f: ProblemField): HTMLElement | null {
  return document.getElementById(f.focusId ?? f.id);
}
