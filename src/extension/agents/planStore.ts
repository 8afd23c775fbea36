// The plans obs_plan made for the apply tool, by a random id. The apply tool applies exactly the plan the user
// is shown, once: its id is taken when the apply runs, it expires, and it belongs to the connection it was
// made against. Kept in memory only (a plan holds no key). No vscode import.
import { randomBytes } from 'node:crypto';
import type { PlanWithNotes } from '../../agentTools';

export interface StoredPlan<S = unknown> extends PlanWithNotes {
  id: string;
  /** Where the plan's files were read: the apply checks them and writes created ids into them. */
  sources: S;
  /** The connection the plan was made against (its profile id and name). */
  connectionId: string;
  connectionName: string;
  madeAt: number;
}

/** A plan older than this is planned again (the service and the files move on). */
export const PLAN_LIFETIME_MS = 30 * 60_000;
/** At most this many plans are kept; the oldest goes first. */
const KEPT = 20;

export class PlanStore<S = unknown> {
  private readonly plans = new Map<string, StoredPlan<S>>();

  constructor(private readonly now: () => number = Date.now) {}

  remember(planned: PlanWithNotes, connection: { id: string; name: string }, sources: S): string {
    this.drop();
    const id = `plan_${randomBytes(9).toString('base64url')}`;
    this.plans.set(id, { ...planned, id, sources, connectionId: connection.id, connectionName: connection.name, madeAt: this.now() });
    while (this.plans.size > KEPT) {
      const oldest = this.plans.keys().next().value;
      if (oldest === undefined) break;
      this.plans.delete(oldest);
    }
    return id;
  }

  /** The plan of an id, still there; undefined when unknown, expired or already applied. */
  peek(id: string): StoredPlan<S> | undefined {
    this.drop();
    return this.plans.get(id);
  }

  /** The plan of an id, removed: it is applied at most once. */
  take(id: string): StoredPlan<S> | undefined {
    const plan = this.peek(id);
    this.plans.delete(id);
    return plan;
  }

  private drop(): void {
    const oldest = this.now() - PLAN_LIFETIME_MS;
    for (const [id, p] of this.plans) if (p.madeAt < oldest) this.plans.delete(id);
  }
}
