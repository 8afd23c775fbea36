// The plan view as the editor's Apply sees it (PlanViewSurface), for tests in the fake editor: it keeps every
// model shown, and the test answers as a user would, by sending the page's messages (checked with the same zod
// schema the activation bundle checks them with). `onReview` runs each time a plan is shown for review.
import type { ViewColumn } from 'vscode';
import { vscode } from './vscode-fake';
import type { PlanViewSurface } from '../../src/extension/sync/planPanel';
import { parsePlanMessage, PlanViewModel, type PlanFromWebview } from '../../src/webview/protocol/planView';

type Listener<T> = (value: T) => void;

export class FakePlanView implements PlanViewSurface {
  /** Every model shown, in order (each checked as the page checks it). */
  readonly models: PlanViewModel[] = [];
  /** Whether each show asked to bring the view to the front. */
  readonly reveals: boolean[] = [];
  private open = false;
  private readonly messageListeners = new Set<Listener<PlanFromWebview>>();
  private readonly closeListeners = new Set<() => void>();
  /** What the user does when a plan is shown for review (nothing: it stays open). */
  onReview: (model: PlanViewModel, view: FakePlanView) => void = () => undefined;

  show(model: PlanViewModel, reveal: boolean): void {
    this.models.push(PlanViewModel.parse(model));
    this.reveals.push(reveal);
    this.open = true;
    // The user acts once the view is drawn, after the host's call returned.
    if (model.phase === 'review' && reveal) void Promise.resolve().then(() => this.onReview(model, this));
  }

  isOpen(): boolean {
    return this.open;
  }

  onMessage(listener: Listener<PlanFromWebview>): { dispose(): void } {
    this.messageListeners.add(listener);
    return { dispose: () => this.messageListeners.delete(listener) };
  }

  onClosed(listener: () => void): { dispose(): void } {
    this.closeListeners.add(listener);
    return { dispose: () => this.closeListeners.delete(listener) };
  }

  besideColumn(): ViewColumn {
    return vscode.ViewColumn.One;
  }

  /** The last model shown. */
  get last(): PlanViewModel {
    const m = this.models.at(-1);
    if (m === undefined) throw new Error('no plan was shown');
    return m;
  }

  /** A message of the page, checked as the activation bundle checks it. */
  send(raw: unknown): void {
    const parsed = parsePlanMessage(raw);
    if (!parsed.ok) throw new Error(`the page would not send this: ${parsed.reason}`);
    for (const l of [...this.messageListeners]) l(parsed.message);
  }

  /** Apply as the page sends it: the exclusions it shows, and the connection's name typed when asked for. */
  apply(model: PlanViewModel = this.last, typed?: string): void {
    const excluded = model.groups.flatMap((g) => g.changes.filter((c) => c.excluded).map((c) => c.key));
    this.send({ type: 'apply', review: model.review, excluded, typed: typed ?? model.confirm?.typeName ?? '' });
  }

  /** The user closes the view. */
  close(): void {
    this.open = false;
    for (const l of [...this.closeListeners]) l();
  }
}
