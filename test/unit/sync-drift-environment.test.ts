// The editor's drift when the active connection is an environment other than the home one (docs/ENVIRONMENTS.md):
// each trigger file is compared as that environment sees it (its overrides and dataset slugs applied, matched
// by dataset and name, since the files' ids are the home's), as `obs drift --env` compares it; a file of a
// folder the connection is no environment of is compared as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { triggerFileText, type ServiceTrigger } from '../../src/triggerFiles';
import type { Environment } from '../../src/triggerFiles/environments';
import { DriftModel, type DriftConnection } from '../../src/extension/sync/driftModel';
import { serviceTrigger } from './serviceTriggers';
import { sloServiceFake } from './sloServiceFake';

/** The home's trigger, as its file holds it (staging's id, threshold 5). */
const HOME = serviceTrigger('stg-1', 'Errors', 'checkout', 5);
const FILE = 'file:///w/triggers/checkout/Errors.trigger.json';
const ELSEWHERE = 'file:///other/triggers/checkout/Errors.trigger.json';

/** Production: checkout is "checkout-prod" there, and Errors' threshold 20. */
const PRODUCTION: Environment = {
  datasets: { checkout: 'checkout-prod' },
  triggers: { checkout: { Errors: { threshold: { value: 20 } } } },
};

/** Production's service: its own id for Errors, in its own dataset, with `value`. */
function production(value: number): DriftConnection['api'] & { listed: string[] } {
  const listed: string[] = [];
  return {
    ...sloServiceFake(),
    listed,
    listRecipients: () => Promise.resolve({ data: [] }),
    listTriggers: (dataset: string) => {
      listed.push(dataset);
      const held: ServiceTrigger[] =
        dataset === 'checkout-prod' ? [serviceTrigger('prd-9', 'Errors', 'checkout-prod', value)] : [];
      return Promise.resolve({ data: held });
    },
  };
}

async function driftOf(files: Record<string, string>, connection: DriftConnection) {
  const model = new DriftModel({
    workspace: { list: () => Promise.resolve(Object.keys(files)), read: (uri) => Promise.resolve(files[uri]) },
    connection: () => Promise.resolve(connection),
    concurrency: () => 2,
  });
  await model.refresh(false);
  return model;
}

const onProduction = (api: DriftConnection['api']): DriftConnection => ({
  id: 'prd',
  name: 'Production',
  api,
  environmentOf: (uri) => (uri.startsWith('file:///w/') ? { name: 'production', overlay: PRODUCTION } : undefined),
});

test("a file is in sync with production's trigger when production holds what its override says, found by name", async () => {
  const api = production(20);
  const model = await driftOf({ [FILE]: triggerFileText(HOME) }, onProduction(api));
  const drift = model.fileDrift(FILE);
  assert.deepEqual(
    { status: drift?.status, service: drift?.triggers.map((t) => t.service?.id), listed: api.listed },
    { status: 'in-sync', service: ['prd-9'], listed: ['checkout-prod'] },
  );
});

test("a file differs from production's trigger by the override's value, not the file's own", async () => {
  const model = await driftOf({ [FILE]: triggerFileText(HOME) }, onProduction(production(5)));
  assert.deepEqual(
    model.fileDrift(FILE)?.triggers.map((t) => [t.status, t.differences?.map((d) => [d.path, d.service, d.local])]),
    [['differs', [['threshold.value', 5, 20]]]],
  );
});

test('a file of a folder the connection is no environment of is compared as it is, by its id', async () => {
  const api = production(20);
  const model = await driftOf({ [ELSEWHERE]: triggerFileText(HOME) }, onProduction(api));
  assert.deepEqual(
    { status: model.fileDrift(ELSEWHERE)?.status, listed: api.listed },
    { status: 'local-only', listed: ['checkout'] },
  );
});

test("a definitions file of a mapped dataset is compared with production's definitions under its slug", async () => {
  const DEFINITIONS = 'file:///w/definitions/checkout.definitions.json';
  const held = { service_name: { name: 'service.name' } };
  const api = { ...production(20), ...sloServiceFake({}, { 'checkout-prod': held }) };
  const text = `${JSON.stringify({ dataset_slug: 'checkout', definitions: held }, null, 2)}\n`;
  const model = await driftOf({ [DEFINITIONS]: text }, onProduction(api));
  assert.deepEqual([model.sloFileDrift(DEFINITIONS)?.status, api.calls], ['in-sync', ['definitions checkout-prod']]);
});
