// The plans obs_plan made for the apply tool, by a random id. The apply tool applies a plan at most once: its id
// is taken when the apply runs, it expires, and it is bound to the connection it was made against, at the
// address and with the key of that moment (the client the connection had then). Kept in memory only (a plan
// holds no key). No vscode import.
import { randomBytes } from 'node:crypto';
import type { PlanWithNotes } from '../../agentTools';

/** The connection a plan was made against, as it was then. */
export interface PlanConnection {
  /** Its profile id and name. */
  id: string;
  name: string;
  /** Its address then. */
  baseUrl: string;
  /** Its client then: the connection manager makes a new one when the address, a key or the proxy changes. */
  client: object;
}

export interface StoredPlan<S = unknown> extends PlanWithNotes {
  id: string;
  /** Where the plan's files were read: the apply reads them again and writes created ids into them. */
  sources: S;
  connection: PlanConnection;
  madeAt: number;
}

/** A plan older than this is planned again (the service and the files move on). */
export const PLAN_LIFETIME_MS = 30 * 60_000;
/** At most this many plans are kept; the oldest goes first. */
const KEPT = 20;

export class PlanStore<S = unknown> {
  private readonly plans = new Map<string, StoredPlan<S>>();

  constructor(private readonly now: () => number = Date.now) {}

  remember(planned: PlanWithNotes, connection: PlanConnection, sources: S): string {
    this.drop();
    const id = `plan_${randomBytes(9).toString('base64url')}`;
    this.plans.set(id, { ...planned, id, sources, connection, madeAt: this.now() });
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
