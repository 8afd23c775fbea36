// What every form page does the same way with the host's common messages (busy, problems, status): the
// busy state of the page and its submit button, the service's problems on their fields with focus on the
// first, the status line, and the banners at the top: the form's connection is gone, or the edits of a
// panel closed without saving were put back (with Discard). The page draws itself from this state
// (`draw`), with `banners()` and `statusLine()` in it.
import { html, nothing, type TemplateResult } from 'lit-html';
import type { CommonToWebview } from '../protocol/messages';
import { COMMON_TEXT } from '../protocol/text/common';
import type { ProblemView } from './problemView';
import { sentence } from './dom';
import { clockView } from './time';

export type StatusKind = 'info' | 'error';

interface Status {
  text: string;
  failed: boolean;
  /** The progress ring turns while a request runs. */
  spinning: boolean;
}

const QUIET: Status = { text: '', failed: false, spinning: false };

export class FormShell {
  /** True from a submit until the host says it is done. */
  busy = false;
  /** The problems of the form shown; undefined while the page shows no form (loading, a created key). */
  problems: ProblemView | undefined;
  private status: Status = QUIET;
  /** What the banner says while the form's connection is gone; undefined while it is there. */
  private gone: string | undefined;
  /** Edits put back from a panel closed without saving: when they were kept, and how to drop them. */
  private putBack: { savedAt: number; discard: () => void } | undefined;

  constructor(
    private readonly app: HTMLElement,
    /** Draws the page from its state. */
    private readonly drawPage: () => void,
    /** Where a status goes while no form is shown. */
    private readonly statusWithoutForm: (message: string, kind: StatusKind) => void,
  ) {}

  /** A new view of the page: nothing busy, an empty status line, and the problems of its form if it is one. */
  start(problems: ProblemView | undefined): void {
    this.busy = false;
    this.status = QUIET;
    this.problems = problems;
    this.putBack = undefined;
  }

  /** Says that the edits of a panel closed without saving are back (kept at `savedAt`), with a button that drops them. */
  editsPutBack(savedAt: number, discard: () => void): void {
    this.putBack = { savedAt, discard };
    this.draw();
  }

  /** Draws the page; `aria-busy` says whether a form's request is running. */
  draw(): void {
    this.drawPage();
    this.app.setAttribute('aria-busy', this.busy && this.problems !== undefined ? 'true' : 'false');
  }

  setBusy(on: boolean, label = ''): void {
    this.busy = on;
    if (!this.problems) return;
    if (on) this.status = { ...this.status, text: label, spinning: true };
    this.draw();
  }

  /** Says `message` on the status line of the page shown. */
  show(message: string, kind: StatusKind = 'info'): void {
    this.status = { text: message, failed: kind === 'error', spinning: false };
    this.draw();
  }

  /** The banners at the top of the form: its connection is gone (the edits stay), edits put back from a closed panel. */
  banners(): TemplateResult {
    const gone =
      this.gone === undefined
        ? nothing
        : html`<p id="connection-gone" class="warning banner" role="alert">${this.gone}</p>`;
    const back = this.putBack;
    const restored =
      back === undefined
        ? nothing
        : html`<div id="edits-restored" class="notice banner" role="status"><span>${sentence(COMMON_TEXT.editsPutBack, clockView(back.savedAt))}</span>
            <vscode-button id="discard-edits" secondary @click=${back.discard}>${COMMON_TEXT.discardEdits}</vscode-button></div>`;
    return html`${gone}${restored}`;
  }

  /** The form's busy indicator and status line (an aria-live region). */
  statusLine(): TemplateResult {
    const { text, failed, spinning } = this.status;
    // The ring's own aria-label would say "Loading" in English; the status text beside it says what is going on.
    return html`<div id="status" class=${failed ? 'status failed' : 'status'} role="status" aria-live="polite"><vscode-progress-ring ?hidden=${!spinning} aria-hidden="true" aria-label=${COMMON_TEXT.loading}></vscode-progress-ring><span id="status-text">${text}</span></div>`;
  }

  handle(message: CommonToWebview): void {
    switch (message.type) {
      case 'busy':
        this.setBusy(message.busy, message.label);
        return;
      case 'problems': {
        this.busy = false;
        const problems = this.problems;
        if (!problems) return;
        problems.setServerProblems(message.problems);
        this.show(COMMON_TEXT.notSaved, 'error');
        problems.focusFirstInvalid();
        return;
      }
      case 'status': {
        const kind = message.failed ? 'error' : 'info';
        if (message.failed) this.busy = false;
        if (this.problems) this.show(message.message, kind);
        else this.statusWithoutForm(message.message, kind);
        return;
      }
      case 'connection':
        this.gone = message.available ? undefined : message.message;
        if (this.problems) this.draw();
        return;
    }
  }
}
