// What every form's host side shares: every webview message is parsed with the form's zod schema and a
// malformed one is refused and logged (never acted on); one request at a time (the in-flight guard).
// No vscode import: the controllers are tested in plain Node against the sandbox.
import type { z } from 'zod';
import { describeRefusal } from '../../webview/protocol/messages';

export interface FormLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export abstract class FormController<In, Out> {
  private inFlight: Promise<void> | undefined;
  private disposed = false;
  /** Aborted when the panel closes, so a request in flight does not outlive its form. */
  protected readonly abort = new AbortController();

  protected constructor(
    private readonly name: string,
    private readonly schema: z.ZodType<In>,
    private readonly sink: (message: Out) => void,
    protected readonly log: FormLog,
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
      this.log.error(`${this.name} form: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  protected abstract handle(message: In): Promise<void>;

  protected post(message: Out): void {
    if (!this.disposed) this.sink(message);
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
