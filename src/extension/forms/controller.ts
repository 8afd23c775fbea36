// What every form's host side shares: every webview message is parsed with the form's zod schema and a
// malformed one is refused and logged (never acted on); one request at a time (the in-flight guard); and
// every request shows the form busy while it runs and its failure on the fields it names. A form reaches
// its connection's client anew for every request, so it outlives a client closed under it (the sandbox
// stopped and started again) and says plainly while the connection is gone.
// No vscode import: the controllers are tested in plain Node against the sandbox.
import type { z } from 'zod';
import { describeRefusal, type CommonToWebview } from '../../webview/protocol/messages';
import {
  formProblem,
  problemsFromThrown,
  type FieldResolver,
  type FormProblems,
} from '../../webview/protocol/problems';
import { errorText, isConnectionGone } from '../core/errors';
import type { Logger } from '../core/logger';
import { PANEL_TEXT } from './formText';

export type FormLog = Pick<Logger, 'info' | 'warn' | 'error'>;

/**
 * The client of a form's connection, looked up by the connection's id each time it is asked: a
 * connection removed and added again (the sandbox restarted) has a new client. Rejects with a
 * ConnectionGoneError while the connection is not there.
 */
export type ClientSource<C> = () => Promise<C>;

/** True when a request failed because the form's connection went away: removed, or its client closed under it. */
function isConnectionLost(err: unknown): boolean {
  if (isConnectionGone(err)) return true;
  if (typeof err !== 'object' || err === null) return false;
  const { kind, networkCode } = err as { kind?: unknown; networkCode?: unknown };
  return kind === 'network' && networkCode === 'CLIENT_CLOSED';
}

export abstract class FormController<In, Out extends { type: string }> {
  private inFlight: Promise<void> | undefined;
  private disposed = false;
  /** Whether the form's connection is there, as the panel last said (connectionChanged). */
  private available = true;
  /** The page's unsaved edits as its state (the last `draft` it sent), undefined while it has none. */
  private draft: unknown;
  private shownDirty = false;
  private dirtyListener: ((dirty: boolean) => void) | undefined;
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
    /** The connection's name, as the form names it when the connection is gone. */
    private readonly connectionName: string,
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

  /** A thrown error as this form's problems; a lost connection in plain words, never "the client is closed". */
  protected problemsOf(err: unknown): FormProblems {
    if (isConnectionLost(err)) return formProblem(PANEL_TEXT.connectionUnavailable(this.connectionName));
    return problemsFromThrown(err, this.resolveField);
  }

  /**
   * The panel says whether the form's connection is there (it was removed, or added again). The page says
   * so while it is gone; when it is back, the form carries on with the connection's new client.
   */
  connectionChanged(available: boolean): void {
    if (this.disposed || available === this.available) return;
    this.available = available;
    this.post(
      available
        ? { type: 'connection', available }
        : { type: 'connection', available, message: PANEL_TEXT.connectionUnavailable(this.connectionName) },
    );
    if (available) this.reconnected();
  }

  /** The connection is back: a form that could not load loads now (the user's edits in the page are kept). */
  protected reconnected(): void {
    // Forms that load nothing from the service have nothing to do.
  }

  /** The page's unsaved edits (its state), kept by the panel when it closes; undefined when there are none. */
  get unsavedState(): unknown {
    return this.draft;
  }

  /** Calls `listener` whenever the form turns dirty (unsaved edits, an uncopied secret) or clean again; at once if it is dirty. */
  onDirtyChange(listener: (dirty: boolean) => void): void {
    this.dirtyListener = listener;
    if (this.shownDirty) listener(true);
  }

  /** The page said what it holds unsaved (null: nothing; also what the host says once the edits are sent and done). */
  protected noteDraft(state: unknown): void {
    this.draft = state ?? undefined;
    this.dirtyChanged();
  }

  /** Whether the form holds something not saved; a form with more to lose (a secret) adds it. */
  protected isDirty(): boolean {
    return this.draft !== undefined;
  }

  /** Tells the listener when isDirty() turned. */
  protected dirtyChanged(): void {
    const dirty = this.isDirty();
    if (dirty === this.shownDirty) return;
    this.shownDirty = dirty;
    this.dirtyListener?.(dirty);
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
