// What every form's host side shares: every webview message is parsed with the form's zod schema and a
// malformed one is refused and logged (never acted on); one request at a time (the in-flight guard); and
// every request shows the form busy while it runs and its failure on the fields it names.
// No vscode import: the controllers are tested in plain Node against the sandbox.
import type { z } from 'zod';
import { describeRefusal, type CommonToWebview } from '../../webview/protocol/messages';
import { problemsFromThrown, type FieldResolver, type FormProblems } from '../../webview/protocol/problems';
import { errorText } from '../core/errors';
import type { Logger } from '../core/logger';

export type FormLog = Pick<Logger, 'info' | 'warn' | 'error'>;

export abstract class FormController<In, Out extends { type: string }> {
  private inFlight: Promise<void> | undefined;
  private disposed = false;
  /** Aborted when the panel closes, so a request in flight does not outlive its form. */
  protected readonly abort = new AbortController();

  protected constructor(
    private readonly name: string,
    private readonly schema: z.ZodType<In>,
    /** The form's messages include the common ones (busy, problems, status). */
    private readonly sink: (message: Out | CommonToWebview) => void,
    protected readonly log: FormLog,
    /** Where a failed request's field problems land on this form. */
    private readonly resolveField: FieldResolver,
  ) {}

  /** Entry point for every message from the webview. Returns once the message has been handled. */
  async receive(raw: unknown): Promise<void> {
    if (this.disposed) return;
    const parsed = this.schema.safeParse(raw);
    if (!parsed.success) {
      // The message itself is not logged: it may carry anything the page holds.
      this.log.warn(`${this.name} form: refused a malformed message (${describeRefusal(parsed.error)})`);
      return;
    }
    try {
      await this.handle(parsed.data);
    } catch (err) {
      this.log.error(`${this.name} form: ${errorText(err)}`);
    }
  }

  protected abstract handle(message: In): Promise<void>;

  protected post(message: Out | CommonToWebview): void {
    if (!this.disposed) this.sink(message);
  }

  protected postProblems(problems: FormProblems): void {
    this.post({ type: 'problems', problems });
  }

  /**
   * Runs a request with the form busy (`label` in its status line). A failure is logged and shown: the
   * service's field problems on their fields, the rest at the top. The form is never left busy.
   */
  protected async request(what: string, label: string, op: () => Promise<void>): Promise<void> {
    this.post({ type: 'busy', busy: true, label });
    try {
      await op();
    } catch (err) {
      this.log.warn(`${this.name} form: ${what} failed: ${errorText(err)}`);
      this.postProblems(this.problemsOf(err));
    } finally {
      this.post({ type: 'busy', busy: false });
    }
  }

  /** A thrown error as this form's problems. */
  protected problemsOf(err: unknown): FormProblems {
    return problemsFromThrown(err, this.resolveField);
  }

  /** True while a request of this form is running. */
  get busy(): boolean {
    return this.inFlight !== undefined;
  }

  /** Resolves when no request of this form is running. */
  async whenIdle(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  /**
   * Runs `op` unless another one is running: a second submit (double click, a second message) is
   * refused here even if the page failed to disable its button.
   */
  protected async once(what: string, op: () => Promise<void>): Promise<void> {
    if (this.inFlight) {
      this.log.warn(`${this.name} form: ignored "${what}" while another request is running`);
      return;
    }
    const running = op();
    this.inFlight = running.then(
      () => undefined,
      () => undefined,
    );
    try {
      await running;
    } finally {
      this.inFlight = undefined;
    }
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    this.disposed = true;
    this.abort.abort();
  }
}
