// Pull of burn alerts and dataset definitions (docs/SLO-FILES.md): what the service is asked, and where each
// file goes. Burn alerts use the trigger pull's planner (pull.ts) with a kind of their own; a dataset's
// definitions file is found by the dataset it names, else by its name. The writes are applyPull's. No vscode
// import.
import { isServiceNotFound } from '../api/errors';
import { ENVIRONMENT_WIDE } from '../api/schemas/slugs';
import {
  BURN_ALERT_FILE_SUFFIX,
  burnAlertDataset,
  burnAlertFileName,
  burnAlertFileText,
  burnAlertFileValue,
  compareBurnAlerts,
  DEFAULT_BURN_ALERT_TYPE,
  type BurnAlertItem,
} from './burnAlertFile';
import {
  compareDefinitions,
  definitionsFileName,
  definitionsFileText,
  definitionsFileValue,
  type DefinitionsItem,
} from './definitionsFile';
import { nestingProblem } from './depth';
import { datasetFolder, pathKey } from './paths';
import { PullCancelled, type PacedPool, type Paced } from './pool';
import type { LocalEntry, PullAction, PullKind } from './pull';
import type { ExistingFile } from './scan';
import { jsonObjectOf } from './jsonObject';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The calls these pulls make (the client's ServiceClient satisfies it). */
export interface SloReader {
  listSlos(dataset: string, o?: { signal?: AbortSignal }): Promise<Paced & { data: { id: string; name?: string }[] }>;
  listBurnAlerts(
    dataset: string,
    sloId: string,
    o?: { signal?: AbortSignal },
  ): Promise<Paced & { data: (Json & { id: string })[] }>;
  /** One alert with its recipients (beyond the spec: service facts). */
  getBurnAlert(dataset: string, id: string, o?: { signal?: AbortSignal }): Promise<Paced & { data: Json }>;
  /** With an empty body: names no type, so nothing changes and the whole map comes back (spec 4.8). */
  updateDatasetDefinitions(
    dataset: string,
    body: Record<string, never>,
    o?: { signal?: AbortSignal },
  ): Promise<Paced & { data: Json }>;
}

export interface CollectedOf<I> {
  items: I[];
  /** What could not be read, and why (a dataset, an SLO, an alert). */
  failures: { what: string; message: string }[];
}

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const isAborted = (err: unknown, signal?: AbortSignal): boolean =>
  signal?.aborted === true || err instanceof PullCancelled;
const shown = (dataset: string): string => (dataset === ENVIRONMENT_WIDE ? 'the environment' : dataset);

/** A failure's words, or a rethrow when the caller gave up. */
function failure(err: unknown, what: string, signal?: AbortSignal): { what: string; message: string } {
  if (isAborted(err, signal)) throw new PullCancelled();
  return { what, message: isServiceNotFound(err) ? 'the service does not have it' : describe(err) };
}

/** One alert read whole, recipients included; a failed read rejects (the caller reports the alert not pulled). */
async function wholeAlert(
  api: SloReader,
  pool: PacedPool,
  dataset: string,
  listed: Json & { id: string },
  signal?: AbortSignal,
): Promise<Json & { id: string }> {
  const one = await pool.run((s) => api.getBurnAlert(dataset, listed.id, { signal: s }), signal);
  return { ...listed, ...one.data, id: listed.id };
}

/**
 * Every burn alert of every SLO of the datasets (`__all__`: the environment's SLOs), each read whole with its
 * recipients. Sorted by dataset, SLO name, alert type and id.
 */
export async function collectBurnAlerts(
  api: SloReader,
  datasets: readonly string[],
  pool: PacedPool,
  signal?: AbortSignal,
): Promise<CollectedOf<BurnAlertItem>> {
  const items: BurnAlertItem[] = [];
  const failures: CollectedOf<BurnAlertItem>['failures'] = [];
  const perDataset = async (dataset: string): Promise<void> => {
    let slos: { id: string; name?: string }[];
    try {
      slos = (await pool.run((s) => api.listSlos(dataset, { signal: s }), signal)).data;
    } catch (err) {
      return void failures.push(failure(err, `the SLOs of ${shown(dataset)}`, signal));
    }
    await Promise.all(slos.map((slo) => perSlo(dataset, { id: slo.id, name: slo.name ?? slo.id })));
  };
  const perSlo = async (dataset: string, slo: BurnAlertItem['slo']): Promise<void> => {
    let alerts: (Json & { id: string })[];
    try {
      alerts = (await pool.run((s) => api.listBurnAlerts(dataset, slo.id, { signal: s }), signal)).data;
    } catch (err) {
      return void failures.push(failure(err, `the burn alerts of the SLO "${slo.name}" (${slo.id})`, signal));
    }
    await Promise.all(
      alerts.map(async (listed) => {
        try {
          items.push({ dataset, slo, alert: await wholeAlert(api, pool, dataset, listed, signal) });
        } catch (err) {
          failures.push(failure(err, `the burn alert ${listed.id} with its recipients`, signal));
        }
      }),
    );
  };
  await Promise.all([...new Set(datasets.map(burnAlertDataset))].map(perDataset));
  if (signal?.aborted === true) throw new PullCancelled();
  const key = (i: BurnAlertItem) => [i.dataset, i.slo.name, String(i.alert.alert_type), i.alert.id];
  items.sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return ka.reduce((c, v, n) => c || v.localeCompare(kb[n] ?? ''), 0);
  });
  failures.sort((a, b) => a.what.localeCompare(b.what));
  return { items, failures };
}

/** The definitions of each dataset (environment-wide has none: spec 4.8 takes a dataset slug only). */
export async function collectDefinitions(
  api: SloReader,
  datasets: readonly string[],
  pool: PacedPool,
  signal?: AbortSignal,
): Promise<CollectedOf<DefinitionsItem>> {
  const items: DefinitionsItem[] = [];
  const failures: CollectedOf<DefinitionsItem>['failures'] = [];
  const wanted = [...new Set(datasets)].filter((d) => burnAlertDataset(d) !== ENVIRONMENT_WIDE);
  await Promise.all(
    wanted.map(async (dataset) => {
      try {
        const read = await pool.run((s) => api.updateDatasetDefinitions(dataset, {}, { signal: s }), signal);
        items.push({ dataset, definitions: read.data });
      } catch (err) {
        failures.push(failure(err, `the definitions of ${dataset}`, signal));
      }
    }),
  );
  if (signal?.aborted === true) throw new PullCancelled();
  items.sort((a, b) => a.dataset.localeCompare(b.dataset));
  failures.sort((a, b) => a.what.localeCompare(b.what));
  return { items, failures };
}

/** What matches a burn alert file without an id: its SLO's name and its alert type. */
const burnAlertName = (sloName: unknown, alertType: unknown): string =>
  `${String(sloName)}\u0000${String(alertType ?? DEFAULT_BURN_ALERT_TYPE)}`;

function readBurnAlertFile(text: string): LocalEntry | undefined {
  const value = jsonObjectOf(text);
  if (value === undefined) return undefined;
  const entry: LocalEntry = { value };
  if (typeof value.id === 'string' && value.id !== '') entry.id = value.id;
  if (typeof value.dataset_slug === 'string') entry.dataset = burnAlertDataset(value.dataset_slug);
  if (isRecord(value.slo) && typeof value.slo.name === 'string')
    entry.name = burnAlertName(value.slo.name, value.alert_type);
  return entry;
}

/** Burn alert files: `<dataset>/<slo name>.<kind and threshold>.burn-alert.json`. */
export const BURN_ALERT_PULL: PullKind<BurnAlertItem> = {
  suffix: BURN_ALERT_FILE_SUFFIX,
  folderOf: (item) => datasetFolder(item.dataset),
  fileName: (item, n) =>
    burnAlertFileName(item, n === 0 ? undefined : n === 1 ? item.alert.id : `${item.alert.id}-${n}`),
  idOf: (item) => item.alert.id,
  nameOf: (item) => burnAlertName(item.slo.name, item.alert.alert_type),
  datasetOf: (item) => burnAlertDataset(item.dataset),
  read: readBurnAlertFile,
  compare: (local, item) => compareBurnAlerts(local, burnAlertFileValue(item)),
  text: (item) => burnAlertFileText(burnAlertFileValue(item)),
  serviceValue: (item) => item.alert,
  serviceLabel: "the service's burn alert",
};

/**
 * Decides each dataset's definitions file under the definitions folder: the file naming the dataset, else a
 * new `<dataset>.definitions.json` (`<dataset>-2...` when another file holds that name in any letter case).
 */
export function planDefinitionsPull(
  items: readonly DefinitionsItem[],
  existing: readonly ExistingFile[],
): PullAction<DefinitionsItem>[] {
  const taken = new Set(
    existing.flatMap((f) => [pathKey(f.path), ...(f.linkTo === undefined ? [] : [pathKey(f.linkTo)])]),
  );
  const byDataset = new Map<string, ExistingFile & { value: Json }>();
  for (const f of existing) {
    const value = f.text === undefined ? undefined : jsonObjectOf(f.text);
    if (value === undefined || typeof value.dataset_slug !== 'string' || byDataset.has(value.dataset_slug)) continue;
    byDataset.set(value.dataset_slug, { ...f, value });
  }
  const actions: PullAction<DefinitionsItem>[] = [];
  for (const item of items) {
    const file = byDataset.get(item.dataset);
    const text = definitionsFileText(definitionsFileValue(item));
    if (file === undefined) {
      const plain = existing.find((f) => pathKey(f.path) === pathKey(definitionsFileName(item.dataset)));
      if (plain?.refused !== undefined) {
        actions.push({ kind: 'refused', path: plain.path, item, reason: plain.refused });
        continue;
      }
      let path = definitionsFileName(item.dataset);
      for (let n = 2; taken.has(pathKey(path)); n++) path = definitionsFileName(item.dataset, String(n));
      taken.add(pathKey(path));
      actions.push({ kind: 'create', path, text, item });
      continue;
    }
    const tooDeep = nestingProblem(file.value, `the file ${file.path}`);
    const differences = tooDeep === undefined ? compareDefinitions(file.value, definitionsFileValue(item)) : [];
    if (tooDeep !== undefined) actions.push({ kind: 'refused', path: file.path, item, reason: tooDeep });
    else if (differences.length === 0) actions.push({ kind: 'unchanged', path: file.path, item });
    else
      actions.push({
        kind: 'update',
        path: file.path,
        text,
        item,
        differences,
        ...(file.linkTo === undefined ? {} : { linkTo: file.linkTo }),
      });
  }
  return actions.sort((a, b) => a.path.localeCompare(b.path));
}
