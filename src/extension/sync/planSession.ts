// One plan in the plan view, from the review to its outcome: which changes the user left out of this apply,
// the decision (Apply, Cancel, the view closed, a newer plan shown instead) and what the view shows at each
// step. The page's messages are checked here against what the view showed: an Apply is taken only for this
// review, with the exclusions the page drew and, for a connection that looks like production, its name typed
// exactly; anything else is refused and nothing is decided. No vscode import.
import { changeKey, type ChangeResult, type PlannedChange } from '../../triggerFiles';
import type { PlanFromWebview, PlanPhase, PlanViewModel } from '../../webview/protocol/planView';
import { countKept, planViewModel, type ReviewedPlan } from './planViewModel';

export type ReviewDecision =
  /** Apply the plan less the changes left out (by changeKey). */
  | { kind: 'apply'; excluded: ReadonlySet<string> }
  | { kind: 'cancel' }
  /** The view was closed, or a newer plan took its place: nothing is written. */
  | { kind: 'closed' }
  | { kind: 'replaced' };

/** What a message of the page asks of the host. */
export type SessionEffect =
  | { kind: 'redraw' }
  | { kind: 'open'; change: PlannedChange }
  | { kind: 'compare'; change: Extract<PlannedChange, { action: 'update' }> }
  | { kind: 'planAgain' }
  /** Not for this review, or not allowed now: nothing happens (the line is for the log). */
  | { kind: 'refused'; logLine: string }
  | { kind: 'none' };

const setsEqual = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean =>
  a.size === b.size && [...a].every((k) => b.has(k));

export class PlanSession {
  private readonly excluded = new Set<string>();
  private phase: PlanPhase = 'review';
  private results: readonly ChangeResult[] | undefined;
  private stopped: { text: string; differences: readonly string[] } | undefined;
  private busy: string | null = null;
  private decide: ((d: ReviewDecision) => void) | undefined;
  /** Settles once: Apply, Cancel, the view closed, or a newer plan shown. */
  readonly decision: Promise<ReviewDecision>;
  private readonly byKey: ReadonlyMap<string, PlannedChange>;

  /** `leftOut`: the changes left out of the review this one plans again; those the new plan holds stay left out. */
  constructor(
    readonly review: number,
    readonly reviewed: ReviewedPlan,
    leftOut: ReadonlySet<string> = new Set(),
  ) {
    this.decision = new Promise((resolve) => (this.decide = resolve));
    this.byKey = new Map(reviewed.plan.changes.map((c) => [changeKey(c), c]));
    for (const key of leftOut) if (this.byKey.has(key)) this.excluded.add(key);
  }

  /** The changes left out now. */
  get leftOut(): ReadonlySet<string> {
    return new Set(this.excluded);
  }

  model(): PlanViewModel {
    return planViewModel(this.reviewed, {
      review: this.review,
      phase: this.phase,
      excluded: this.excluded,
      ...(this.results === undefined ? {} : { results: this.results }),
      ...(this.stopped === undefined ? {} : { stopped: this.stopped }),
      busy: this.busy,
      canPlanAgain: this.phase === 'applied' || this.phase === 'not-applied',
    });
  }

  /** Still waiting for the user's decision. */
  get open(): boolean {
    return this.decide !== undefined;
  }

  /** Ends the review without a write (the view closed, a newer plan took its place); said in the view. */
  end(kind: 'closed' | 'replaced', text: string): void {
    if (!this.settle({ kind })) return;
    this.phase = 'not-applied';
    this.stopped = { text, differences: [] };
  }

  /** The apply runs: the plan is made again and compared, then written. */
  applying(busy: string | null): void {
    this.phase = 'applying';
    this.busy = busy;
  }

  /** Written: each change's outcome (the changes left out are said as such). */
  applied(results: readonly ChangeResult[]): void {
    this.phase = 'applied';
    this.results = results;
    this.busy = null;
  }

  /** Nothing was written: why, and what changed since the plan was shown, one line each. */
  notApplied(text: string, differences: readonly string[] = []): void {
    this.settle({ kind: 'cancel' });
    this.phase = 'not-applied';
    this.stopped = { text, differences };
    this.busy = null;
  }

  /** A message of the page. */
  receive(m: PlanFromWebview): SessionEffect {
    if (m.type === 'ready') return { kind: 'redraw' };
    if (m.review !== this.review)
      return { kind: 'refused', logLine: `a message for review ${m.review}, while ${this.review} is shown` };
    switch (m.type) {
      case 'exclude':
        return this.exclude(m.key, m.excluded);
      case 'apply':
        return this.apply(new Set(m.excluded), m.typed);
      case 'cancel':
        return this.settle({ kind: 'cancel' })
          ? { kind: 'none' }
          : { kind: 'refused', logLine: 'cancel after the decision' };
      case 'open':
      case 'compare':
        return this.changeAction(m.type, m.key);
      case 'planAgain':
        return this.phase === 'applied' || this.phase === 'not-applied'
          ? { kind: 'planAgain' }
          : { kind: 'refused', logLine: `plan again while ${this.phase}` };
    }
  }

  private exclude(key: string, excluded: boolean): SessionEffect {
    if (this.phase !== 'review' || !this.open) return { kind: 'refused', logLine: `an exclusion while ${this.phase}` };
    if (!this.byKey.has(key)) return { kind: 'refused', logLine: 'an exclusion of a change the plan does not hold' };
    if (excluded) this.excluded.add(key);
    else this.excluded.delete(key);
    return { kind: 'redraw' };
  }

  private apply(excluded: ReadonlySet<string>, typed: string): SessionEffect {
    if (this.phase !== 'review' || !this.open) return { kind: 'refused', logLine: `apply while ${this.phase}` };
    if (!setsEqual(excluded, this.excluded))
      return { kind: 'refused', logLine: 'apply with other exclusions than the view showed' };
    const name = this.reviewed.plan.target.connection ?? this.reviewed.plan.target.baseUrl;
    if (this.reviewed.production && typed !== name)
      return { kind: 'refused', logLine: 'apply to a production-like connection without its name typed' };
    if (countKept(this.reviewed.plan, excluded) === 0)
      return { kind: 'refused', logLine: 'apply with every change left out' };
    this.settle({ kind: 'apply', excluded: new Set(excluded) });
    return { kind: 'none' };
  }

  private changeAction(kind: 'open' | 'compare', key: string): SessionEffect {
    const change = this.byKey.get(key);
    if (change === undefined) return { kind: 'refused', logLine: `${kind} of a change the plan does not hold` };
    if (kind === 'open')
      return !this.reviewed.idsIgnored || change.action !== 'delete'
        ? { kind: 'open', change }
        : { kind: 'refused', logLine: "open a delete's trigger of another connection" };
    return change.action === 'update' && !this.reviewed.idsIgnored
      ? { kind: 'compare', change }
      : { kind: 'refused', logLine: 'compare of a change that has none' };
  }

  /** Settles the decision once; false when it was settled before. */
  private settle(d: ReviewDecision): boolean {
    const decide = this.decide;
    if (decide === undefined) return false;
    this.decide = undefined;
    decide(d);
    return true;
  }
}
