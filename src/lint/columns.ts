// The columns a trigger's query names, checked against the dataset's columns as the service lists them
// (given in LintOptions.columns). Only datasets whose columns are given are checked: an unknown list is
// skipped, never guessed. Nearest names are found with a bounded edit distance, at most a fixed number
// of times per lint, so the work stays linear in the file.
import * as l10n from '@vscode/l10n';
import type { Finding } from './issues';
import type { DatasetColumns, JsonPath } from './types';
import { nearestName } from './nearest';
import { isRecord } from './util';
import type { LintRun } from './run';

/** The key of the environment-wide column list (every dataset's columns). */
const ENVIRONMENT_COLUMNS = '__all__';

interface Known {
  names: Set<string>;
  hidden: Set<string>;
  list: readonly string[];
  nearest: Map<string, string | undefined>;
}

// Options cross a thread boundary as copies: the sets are built once per options object.
const prepared = new WeakMap<DatasetColumns, Known>();

function known(columns: DatasetColumns): Known {
  let k = prepared.get(columns);
  if (k === undefined) {
    k = {
      names: new Set(columns.names),
      hidden: new Set(columns.hidden ?? []),
      list: columns.names,
      nearest: new Map(),
    };
    prepared.set(columns, k);
  }
  return k;
}

/** The columns of a trigger's dataset (`all` and `__all__` mean the environment's). */
function columnsFor(slug: unknown, columns: Readonly<Record<string, DatasetColumns>>): DatasetColumns | undefined {
  if (typeof slug !== 'string' || slug === '') return undefined;
  const key = slug === 'all' ? ENVIRONMENT_COLUMNS : slug;
  return Object.hasOwn(columns, key) ? columns[key] : undefined;
}

/** Nearest-name searches per lint: past it unknown columns get no suggestion (a file may name a million). */
export const MAX_SUGGESTION_SEARCHES = 200;

/** The nearest known name, if one is near; a search spends one of the lint's searches left. */
function suggestion(name: string, k: Known, run: LintRun): string | undefined {
  if (k.nearest.has(name)) return k.nearest.get(name);
  if (run.searchesLeft <= 0) return undefined;
  run.searchesLeft--;
  const best = nearestName(name, k.list, { skip: (candidate) => k.hidden.has(candidate) });
  k.nearest.set(name, best);
  return best;
}

const shown = (name: string) => JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}...` : name);

/** The message of a column its dataset (undefined: the environment) does not have, with the nearest name if one is near. */
function unknownColumnMessage(name: string, dataset: string | undefined, nearest: string | undefined): string {
  if (dataset === undefined) {
    return nearest === undefined
      ? l10n.t(
          '{0} is not a column of any dataset of the environment as the service lists them (derived columns are not in that list: if it is one, ignore this)',
          name,
        )
      : l10n.t(
          '{0} is not a column of any dataset of the environment as the service lists them; did you mean {1}? (derived columns are not in that list: if it is one, ignore this)',
          name,
          nearest,
        );
  }
  return nearest === undefined
    ? l10n.t(
        '{0} is not a column of {1} as the service lists them (derived columns are not in that list: if it is one, ignore this)',
        name,
        dataset,
      )
    : l10n.t(
        '{0} is not a column of {1} as the service lists them; did you mean {2}? (derived columns are not in that list: if it is one, ignore this)',
        name,
        dataset,
        nearest,
      );
}

/** The findings of the columns a trigger's query names, against its dataset's columns if they are known; `run` is the lint's. */
export function columnFindings(
  trigger: Record<string, unknown>,
  prefix: JsonPath,
  all: Readonly<Record<string, DatasetColumns>>,
  run: LintRun,
): Finding[] {
  const query = trigger.query;
  const columns = columnsFor(trigger.dataset_slug, all);
  if (columns === undefined || !isRecord(query)) return [];
  const k = known(columns);
  // The environment's columns (`all`) are named by words, a dataset's by its slug: each has its own sentences.
  const environment = trigger.dataset_slug === 'all' || trigger.dataset_slug === ENVIRONMENT_COLUMNS;
  const dataset = String(trigger.dataset_slug);
  const calculated = new Set<string>();
  if (Array.isArray(query.calculated_fields))
    for (const f of query.calculated_fields) if (isRecord(f) && typeof f.name === 'string') calculated.add(f.name);
  const out: Finding[] = [];
  const check = (name: unknown, path: JsonPath) => {
    if (typeof name !== 'string' || name === '' || calculated.has(name)) return;
    const at = [...prefix, 'query', ...path];
    const inTrigger = path.length + 1;
    if (k.hidden.has(name)) {
      const message = environment
        ? l10n.t(
            '{0} is a hidden column of any dataset of the environment: the query still reads it, but autocomplete and field lists leave it out',
            shown(name),
          )
        : l10n.t(
            '{0} is a hidden column of {1}: the query still reads it, but autocomplete and field lists leave it out',
            shown(name),
            dataset,
          );
      out.push({ rule: 'query/hidden-column', at, inTrigger, message });
      return;
    }
    if (k.names.has(name)) return;
    const nearest = suggestion(name, k, run);
    out.push({
      rule: 'query/unknown-column',
      at,
      inTrigger,
      message: unknownColumnMessage(
        shown(name),
        environment ? undefined : dataset,
        nearest === undefined ? undefined : shown(nearest),
      ),
      ...(nearest === undefined ? {} : { params: { rule: 'query/unknown-column' as const, replaceText: nearest } }),
    });
  };
  const filters = (list: unknown, path: JsonPath) => {
    if (Array.isArray(list)) list.forEach((f, j) => isRecord(f) && check(f.column, [...path, j, 'column']));
  };
  if (Array.isArray(query.calculations)) {
    query.calculations.forEach((c, i) => {
      if (!isRecord(c)) return;
      check(c.column, ['calculations', i, 'column']);
      filters(c.filters, ['calculations', i, 'filters']);
    });
  }
  filters(query.filters, ['filters']);
  if (Array.isArray(query.breakdowns)) query.breakdowns.forEach((b, i) => check(b, ['breakdowns', i]));
  // Without calculate_op a having's column names a calculation or formula, not a column.
  if (Array.isArray(query.havings))
    query.havings.forEach(
      (h, i) =>
        isRecord(h) &&
        h.calculate_op !== undefined &&
        h.calculate_op !== null &&
        check(h.column, ['havings', i, 'column']),
    );
  return out;
}

/** The dataset slugs a file's triggers name, as column lists are keyed (`__all__` for environment-wide), sorted. */
export function datasetsNamed(value: unknown): string[] {
  const out = new Set<string>();
  if (Array.isArray(value)) value.forEach((t) => addDatasetOf(t, out));
  else addDatasetOf(value, out);
  return [...out].sort();
}

/** Adds the dataset a trigger names (as datasetsNamed keys it) to `out`; nothing for one that names none. */
export function addDatasetOf(t: unknown, out: Set<string>): void {
  if (!isRecord(t) || typeof t.dataset_slug !== 'string' || t.dataset_slug === '') return;
  out.add(t.dataset_slug === 'all' ? ENVIRONMENT_COLUMNS : t.dataset_slug);
}
