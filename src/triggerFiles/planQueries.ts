// The query_id gate of a plan. The service refuses a trigger whose query_id names no saved query of its
// dataset, or whose saved query breaks the trigger query rules (spec 2.6.1); the file alone cannot show
// either. So each saved query the triggers to be written name (query_id, no inline query) is read once, and
// held to the rules by the linter itself: the trigger is linted with the saved query put inline, and the
// query's errors are the reasons (the rules keep one home). No vscode import.
import type { Diagnostic } from '../lint/types';
import { listingSegment } from './listing';
import type { PlanFile } from './plan';
import type { PacedPool } from './pool';

type Json = Record<string, unknown>;

/** The read this gate makes (the client's ServiceClient satisfies it): GET /1/queries/<dataset>/<id>. */
interface SavedQueryReader {
  getQuery(
    dataset: string,
    queryId: string,
    o?: { signal?: AbortSignal },
  ): Promise<{ data: Json; rateLimit?: { remaining: number; resetSeconds: number } }>;
}

export interface SavedQueryGate {
  service: SavedQueryReader;
  /** Lints one trigger's text (no columns: the rules of the query, not the dataset's columns). */
  /** Lints a trigger's text as the file it comes from. */
  lint: (text: string, file: string) => Promise<readonly Diagnostic[]>;
  pool: PacedPool;
  notes: string[];
  signal?: AbortSignal;
}

/** A write of the plan: where its trigger is, and its dataset. */
interface Write {
  file: string;
  index: number;
  dataset: string;
}

/** What reading a saved query found. */
type Read = { query: Json } | { missing: string };

/**
 * Statuses of a read the service does not serve to this key: the check is skipped, and said. Not 404: the
 * trigger's dataset was just listed, so a 404 on the read names the saved query (the service answers 404 for
 * "unknown dataset or object").
 */
const NOT_SERVED = new Set([401, 403, 405]);
/** How many of a saved query's problems a reason names before it counts the rest (as the linter's gate). */
const NAMED = 3;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
// Read as the pipeline reads its other failures: by shape, whichever client (or thread) threw them.
const memberOf = (e: unknown, m: 'status' | 'kind'): unknown =>
  typeof e === 'object' && e !== null ? (e as Record<string, unknown>)[m] : undefined;
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const signalArg = (s: AbortSignal | undefined) => (s === undefined ? {} : { signal: s });
/** A saved query by its trigger's dataset (canonical: `all` for environment-wide) and its id. */
const keyOf = (dataset: string, id: string) => `${dataset}\u0000${id}`;

/** The trigger of a write that names a saved query, with that query's id; undefined for an inline query. */
function namingSavedQuery(files: readonly PlanFile[], w: Write): { value: Json; queryId: string } | undefined {
  const f = files.find((x) => x.file === w.file);
  const t = f?.read.ok === true ? f.read.triggers.find((x) => x.index === w.index) : undefined;
  if (t === undefined || isRecord(t.value.query) || typeof t.value.query_id !== 'string' || t.value.query_id === '')
    return undefined;
  return { value: t.value, queryId: t.value.query_id };
}

async function readOne(g: SavedQueryGate, dataset: string, id: string): Promise<Read> {
  try {
    const res = await g.pool.run((s) => g.service.getQuery(listingSegment(dataset), id, signalArg(s)), g.signal);
    return { query: res.data };
  } catch (e) {
    const missing = `query_id ${JSON.stringify(id)} names no saved query of ${dataset}`;
    if (memberOf(e, 'status') === 404) return { missing };
    // The client refuses to ask for an id no path may hold ("." or ".."): no saved query has it.
    if (memberOf(e, 'kind') === 'request-validation') return { missing: `${missing} (${messageOf(e)})` };
    throw e;
  }
}

/** Each saved query named, read once; undefined (and a note) when the service does not serve the read to this key. */
async function readAll(
  g: SavedQueryGate,
  named: readonly { dataset: string; queryId: string }[],
): Promise<Map<string, Read> | undefined> {
  const wanted = new Map(named.map((n) => [keyOf(n.dataset, n.queryId), n]));
  const out = new Map<string, Read>();
  try {
    await Promise.all([...wanted].map(async ([key, n]) => out.set(key, await readOne(g, n.dataset, n.queryId))));
  } catch (e) {
    if (!NOT_SERVED.has(memberOf(e, 'status') as number)) throw e;
    g.notes.push(`the saved queries named by query_id were not checked: ${messageOf(e)}`);
    return undefined;
  }
  return out;
}

/** The saved query's rule errors for this trigger: the trigger linted with the query inline, instead of its query_id. */
async function ruleReasons(
  g: SavedQueryGate,
  n: { file: string; value: Json; queryId: string },
  saved: Json,
): Promise<string[]> {
  const { value, queryId } = n;
  // The answer holds the query's id, and may hold null for a member it leaves unset: neither is the query's.
  const query = Object.fromEntries(
    Object.entries(saved).filter(([k, v]) => k !== 'id' && v !== null && v !== undefined),
  );
  const { query_id: _named, ...rest } = value;
  const diagnostics = await g.lint(JSON.stringify({ ...rest, query }), n.file);
  const found = diagnostics.filter((d) => d.severity === 'error' && d.path[0] === 'query');
  const head = `query_id ${JSON.stringify(queryId)} names a saved query a trigger may not use`;
  const named = found.slice(0, NAMED).map((d) => `${head}: ${d.rule}: ${d.message}`);
  const more = found.length - named.length;
  return more > 0 ? [...named, `${head}: and ${more} more ${more === 1 ? 'problem' : 'problems'} of its query`] : named;
}

/**
 * Why each trigger to be written may not be, by file and place, for its query_id: its saved query is not one
 * of its dataset's, or breaks the trigger query rules. Rejects only when a read fails otherwise than as said.
 */
export async function savedQueryReasons(
  g: SavedQueryGate,
  files: readonly PlanFile[],
  writes: readonly Write[],
): Promise<(file: string, index: number) => string[]> {
  const named = writes.flatMap((w) => {
    const n = namingSavedQuery(files, w);
    return n === undefined ? [] : [{ ...w, ...n }];
  });
  const reasons = new Map<string, string[]>();
  const reads = named.length === 0 ? undefined : await readAll(g, named);
  if (reads === undefined) return () => [];
  for (const n of named) {
    const read = reads.get(keyOf(n.dataset, n.queryId));
    if (read === undefined) continue;
    const why = 'missing' in read ? [read.missing] : await ruleReasons(g, n, read.query);
    if (why.length > 0) reasons.set(`${n.file}\u0000${n.index}`, why);
  }
  return (file, index) => reasons.get(`${file}\u0000${index}`) ?? [];
}
