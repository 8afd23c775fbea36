// What every form page does the same way with the host's common messages (busy, problems, status): the
// busy state of the page and its submit button, the service's problems on their fields with focus on the
// first, and the status line.
import type { CommonToWebview } from '../protocol/messages';
import { COMMON_TEXT } from '../protocol/text/common';
import type { ProblemView, StatusLine } from './dom';

/** The parts of a rendered form the shell drives. */
export interface ShellView {
  problems: ProblemView;
  status: StatusLine;
  /** Disabled while a request runs. */
  submit: { disabled: boolean };
  /** Draws the problems again (after the host's were set). */
  renderProblems(): void;
  /** True while something else keeps the submit button disabled (an open conflict). */
  blocked?: () => boolean;
}

export class FormShell {
  /** True from a submit until the host says it is done. */
  busy = false;
  /** The form as rendered; undefined while the page shows something else (loading, a created key). */
  view: ShellView | undefined;

  constructor(
    private readonly app: HTMLElement,
    /** Where a status goes while no form is shown. */
    private readonly statusWithoutView: (message: string, kind: 'info' | 'error') => void,
  ) {}

  setBusy(on: boolean, label = ''): void {
    this.busy = on;
    const view = this.view;
    if (!view) return;
    view.submit.disabled = on || (view.blocked?.() ?? false);
    this.app.setAttribute('aria-busy', on ? 'true' : 'false');
    if (on) view.status.busy(label);
  }

  handle(message: CommonToWebview): void {
    switch (message.type) {
      case 'busy':
        this.setBusy(message.busy, message.label);
        return;
      case 'problems': {
        this.setBusy(false);
        const view = this.view;
        if (!view) return;
        view.problems.setServerProblems(message.problems);
        view.renderProblems();
        view.status.show(COMMON_TEXT.notSaved, 'error');
        view.problems.focusFirstInvalid();
        return;
      }
      case 'status': {
        const kind = message.failed ? 'error' : 'info';
        if (message.failed) this.setBusy(false);
        if (this.view) this.view.status.show(message.message, kind);
        else this.statusWithoutView(message.message, kind);
        return;
      }
    }
  }
}
