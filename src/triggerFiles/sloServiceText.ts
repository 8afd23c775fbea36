// The service's canonical text of a burn alert or definitions file (Compare with Service): what a pull would
// write now for the object the file names by its `id` and `dataset_slug`. No vscode import.
import type { Outcome } from '../result';
import { burnAlertDataset, burnAlertFileText, burnAlertFileValue } from './burnAlertFile';
import { definitionsFileText, definitionsFileValue } from './definitionsFile';
import type { SloReader } from './sloPull';
import { jsonObjectOf } from './jsonObject';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why a file cannot be compared: it is not one JSON object, or it lacks what names the service's object. */
export type NotComparable = 'not-an-object' | 'no-id' | 'no-dataset';

/** What Compare with Service shows on the service's side: the canonical text a pull would write now. */
export type ServiceText = Outcome<{ text: string; dataset: string }, NotComparable>;

/**
 * The service's canonical burn alert file for a local one: the alert read whole (with its recipients). The
 * SLO's name is the file's own note (a comparison goes by the SLO's id), so it is kept as the file has it.
 */
export async function burnAlertServiceText(
  api: SloReader,
  fileText: string,
  signal?: AbortSignal,
): Promise<ServiceText> {
  const local = jsonObjectOf(fileText);
  if (local === undefined) return { ok: false, reason: 'not-an-object' };
  if (typeof local.id !== 'string' || local.id === '') return { ok: false, reason: 'no-id' };
  if (typeof local.dataset_slug !== 'string' || local.dataset_slug === '') return { ok: false, reason: 'no-dataset' };
  const dataset = burnAlertDataset(local.dataset_slug);
  const alert = (await api.getBurnAlert(dataset, local.id, signal === undefined ? {} : { signal })).data;
  const sloId = isRecord(alert.slo) && typeof alert.slo.id === 'string' ? alert.slo.id : '';
  const localSlo = isRecord(local.slo) ? local.slo : {};
  const name = localSlo.id === sloId && typeof localSlo.name === 'string' ? localSlo.name : sloId;
  const item = { dataset, slo: { id: sloId, name }, alert: { ...alert, id: local.id } };
  return { ok: true, dataset, text: burnAlertFileText(burnAlertFileValue(item)) };
}

/**
 * The service's canonical definitions file for a local one. The service has no read of definitions: it is
 * asked with an update naming no definition, which changes nothing and answers the whole map (as pull does).
 */
export async function definitionsServiceText(
  api: SloReader,
  fileText: string,
  signal?: AbortSignal,
): Promise<ServiceText> {
  const local = jsonObjectOf(fileText);
  if (local === undefined) return { ok: false, reason: 'not-an-object' };
  const dataset = local.dataset_slug;
  if (typeof dataset !== 'string' || dataset === '') return { ok: false, reason: 'no-dataset' };
  const map = (await api.updateDatasetDefinitions(dataset, {}, signal === undefined ? {} : { signal })).data;
  return { ok: true, dataset, text: definitionsFileText(definitionsFileValue({ dataset, definitions: map })) };
}
