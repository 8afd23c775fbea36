// The drift of the workspace's burn alert and definitions files (docs/SLO-FILES.md, "Drift"), beside the trigger
// files' (driftModel.ts): each file compared with the service exactly as `obs drift` compares it (the plan's
// comparison, triggerFiles/sloPlan.ts, said by sloFileDrift). Each file is compared on its own and kept so;
// files that hold one alert or one dataset's definitions are then settled together by the plan's own rule
// (withoutAmbiguity), so a changed file costs its own comparison and that of the files sharing its object,
// however many files the workspace has. The service's reads are kept per connection (KeptSloReads): a file
// saved again reads nothing the drift read before. No vscode import.
import {
  compareEachSloFile,
  kindOfFile,
  PacedPool,
  sloFileDrift,
  sloObjectKey,
  withoutAmbiguity,
  type SloCompared,
  type SloFileDrift,
  type SloPlanFile,
  type SloReads,
  type TeamRecipients,
} from '../../triggerFiles';
import type { Environment } from '../../triggerFiles/environments';
import { sloFileAsSeenBy } from '../../triggerFiles/environmentPlan';
import { FileOrder, type SloDriftCounts } from './driftSnapshot';

/**
 * Compares the files (uri and saved text) each on its own, as a plan does; nothing is kept yet. A file for which
 * the connection is an environment other than the home (`environmentOf`) is compared as that environment sees it
 * (its dataset and recipients mapped), matched by name: its ids are the home's.
 */
export async function compareSloAlone(
  texts: ReadonlyMap<string, string>,
  reads: SloReads,
  concurrency: number,
  environmentOf?: (uri: string) => { overlay: Environment } | undefined,
): Promise<SloCompared[]> {
  const away = new Set<string>();
  const files = [...texts].flatMap(([file, text]): SloPlanFile[] => {
    const kind = kindOfFile(file);
    if (kind === 'trigger') return [];
    const env = environmentOf?.(file);
    if (env === undefined) return [{ file, kind, text }];
    away.add(file);
    return [sloFileAsSeenBy({ file, kind, text }, env.overlay)];
  });
  const byName = files.filter((f) => away.has(f.file));
  const byId = files.filter((f) => !away.has(f.file));
  const pool = new PacedPool({ concurrency: Math.max(1, concurrency) });
  const compared = await Promise.all([
    compareEachSloFile(byId, reads, pool, { matchByName: false }),
    compareEachSloFile(byName, reads, pool, { matchByName: true }),
  ]);
  return compared.flat();
}

export class SloDriftFiles {
  /** Each file as compared on its own. */
  private readonly alone = new Map<string, SloCompared>();
  /** Each file's drift, with the files of one object settled together. */
  private readonly drift = new Map<string, SloFileDrift>();
  /** The files holding each object of the service (sloObjectKey). */
  private readonly holders = new Map<string, Set<string>>();
  private readonly order = new FileOrder();
  /** The list of every file's drift, made when first asked after a change. */
  private listed: SloFileDrift[] | undefined;
  private readonly counts: SloDriftCounts = { inSync: 0, differs: 0, missing: 0, unknown: 0 };
  /**
   * The team a burn alert's recipients named by type and target are resolved in, once a file names one (undefined
   * inside: the list could not be read); before that, recipients are compared as the service names them.
   */
  private resolving: { team: TeamRecipients | undefined } | undefined;

  /** `nameOf`: how a reason names another file (by uri here) to a person. */
  constructor(private readonly nameOf?: (uri: string) => string) {}

  /** Every file compared anew (a full comparison): what was kept is dropped. */
  reset(compared: readonly SloCompared[], resolving?: { team: TeamRecipients | undefined }): void {
    this.resolving = resolving;
    this.alone.clear();
    this.drift.clear();
    this.holders.clear();
    this.order.reset();
    this.listed = undefined;
    Object.assign(this.counts, { inSync: 0, differs: 0, missing: 0, unknown: 0 });
    this.apply(compared, [], resolving);
  }

  /**
   * Files compared again and files gone: each leaves with its old entries and comes back with its new ones; the
   * other files of the objects they held or hold now are settled again. Returns every file whose drift changed.
   * `resolving`: the team, given once the files compared name a recipient by type and target.
   */
  apply(
    compared: readonly SloCompared[],
    deleted: readonly string[],
    resolving?: { team: TeamRecipients | undefined },
  ): string[] {
    if (resolving !== undefined) this.resolving = resolving;
    const touched = new Set<string>();
    const keys = new Set<string>();
    const leave = (file: string): void => {
      const before = this.alone.get(file);
      if (before === undefined) return;
      const key = sloObjectKey(before);
      if (key !== undefined) {
        keys.add(key);
        this.holders.get(key)?.delete(file);
        if (this.holders.get(key)?.size === 0) this.holders.delete(key);
      }
      this.alone.delete(file);
      this.setDrift(file, undefined);
      touched.add(file);
    };
    for (const file of deleted) leave(file);
    for (const c of compared) {
      leave(c.file);
      this.alone.set(c.file, c);
      touched.add(c.file);
      const key = sloObjectKey(c);
      if (key === undefined) continue;
      keys.add(key);
      const files = this.holders.get(key);
      if (files === undefined) this.holders.set(key, new Set([c.file]));
      else files.add(c.file);
    }
    const settle = new Set(compared.map((c) => c.file));
    for (const key of keys) for (const file of this.holders.get(key) ?? []) settle.add(file);
    const group = [...settle].flatMap((file) => this.alone.get(file) ?? []);
    for (const c of withoutAmbiguity(group, this.nameOf)) {
      this.setDrift(c.file, sloFileDrift(c, this.resolving));
      touched.add(c.file);
    }
    return [...touched];
  }

  /** A file's drift, or undefined when it is not a burn alert or definitions file compared. */
  get(file: string): SloFileDrift | undefined {
    return this.drift.get(file);
  }

  /** Every file's drift, in the order of their uris. */
  list(): readonly SloFileDrift[] {
    if (this.listed !== undefined) return this.listed;
    const files = this.drift.size === 0 ? [] : this.order.list(() => this.drift.keys());
    this.listed = files.flatMap((file) => this.drift.get(file) ?? []);
    return this.listed;
  }

  countsNow(): SloDriftCounts {
    return { ...this.counts };
  }

  private setDrift(file: string, after: SloFileDrift | undefined): void {
    this.listed = undefined;
    const before = this.drift.get(file);
    if (before !== undefined) this.count(before, -1);
    if (after === undefined) {
      if (before !== undefined) this.order.placed(file, false);
      this.drift.delete(file);
      return;
    }
    if (before === undefined) this.order.placed(file, true);
    this.drift.set(file, after);
    this.count(after, 1);
  }

  private count(d: SloFileDrift, by: 1 | -1): void {
    if (d.status === 'in-sync') this.counts.inSync += by;
    else if (d.status === 'differs') this.counts.differs += by;
    else if (d.missing === true) this.counts.missing += by;
    else this.counts.unknown += by;
  }
}
