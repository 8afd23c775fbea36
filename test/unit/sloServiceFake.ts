// The service's burn alerts and definitions as the editor's drift reads them (SloReads), for the tests of the
// drift model: alerts by dataset and id, definitions by dataset; what it does not hold answers 404 as the
// service does. Counts every read it answered, so a test sees what a comparison cost.
import type { SloReads } from '../../src/triggerFiles';

type Json = Record<string, unknown>;

export interface SloServiceFake extends SloReads {
  /** Every read asked, in order: `alert api/ba_1`, `definitions api`, `slos api`, `alerts api/slo_1`. */
  readonly calls: string[];
  /** The alerts, by `<dataset>/<id>`, and the definitions, by dataset: change them to change the service. */
  readonly alerts: Map<string, Json>;
  readonly definitions: Map<string, Json>;
}

const notFound = (): Promise<never> =>
  Promise.reject(Object.assign(new Error('not found'), { status: 404, bodyShape: 'problem' }));

export function sloServiceFake(
  alerts: Record<string, Json> = {},
  definitions: Record<string, Json> = {},
): SloServiceFake {
  const fake: SloServiceFake = {
    calls: [],
    alerts: new Map(Object.entries(alerts)),
    definitions: new Map(Object.entries(definitions)),
    listSlos(dataset) {
      fake.calls.push(`slos ${dataset}`);
      return notFound();
    },
    listBurnAlerts(dataset, sloId) {
      fake.calls.push(`alerts ${dataset}/${sloId}`);
      return notFound();
    },
    getBurnAlert(dataset, id) {
      fake.calls.push(`alert ${dataset}/${id}`);
      const alert = fake.alerts.get(`${dataset}/${id}`);
      return alert === undefined ? notFound() : Promise.resolve({ data: structuredClone(alert) });
    },
    updateDatasetDefinitions(dataset) {
      fake.calls.push(`definitions ${dataset}`);
      const map = fake.definitions.get(dataset);
      return map === undefined ? notFound() : Promise.resolve({ data: structuredClone(map) });
    },
  };
  return fake;
}
