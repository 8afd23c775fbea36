// What changed on the service since trigger files were applied (src/triggerFiles/changedSince.ts), the gate of
// a CI before it applies newer files: a trigger the service holds as the files last applied or as the files
// wanted now is no one else's change; anything else is reported against the files last applied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  differenceText,
  readTriggerFile,
  serviceChangesSince,
  ServiceIndex,
  withoutIds,
  type LocalFile,
  type ServiceTrigger,
} from '../../src/triggerFiles';
import { serviceTrigger } from './serviceTriggers';

/** A trigger file as pulled: the service's trigger of that name and threshold, by name (no id). */
const trigger = (name: string, value: number, dataset = 'api') => ({
  dataset_slug: dataset,
  name,
  threshold: { op: '>', value },
  frequency: 300,
  query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
});

function files(...triggers: ReturnType<typeof trigger>[]): Map<string, LocalFile> {
  return new Map(triggers.map((t) => [`${t.dataset_slug}/${t.name}.trigger.json`, readTriggerFile(JSON.stringify(t))]));
}

function index(...triggers: ServiceTrigger[]): ServiceIndex {
  const i = new ServiceIndex();
  for (const dataset of new Set(triggers.map((t) => String(t.dataset_slug))))
    i.add(dataset, { state: 'listed', triggers: triggers.filter((t) => t.dataset_slug === dataset) });
  return i;
}

/** Each trigger reported, as `file: status` with its differences, and the service's triggers no file holds. */
function reported(applied: Map<string, LocalFile>, current: Map<string, LocalFile>, service: ServiceIndex): string[] {
  const changes = serviceChangesSince(applied, current, service);
  const files = changes.files.flatMap((f) =>
    f.triggers
      .filter((t) => t.status !== 'in-sync')
      .map((t) => [`${f.file}: ${t.status}`, ...t.differences.map((d) => differenceText(d))].join('; ')),
  );
  return [...files, ...changes.onlyOnService.map((t) => `only on the service: ${t.name} (${t.id})`)];
}

test('a trigger the service holds as last applied is no change, whatever the files now want of it', () => {
  const applied = files(trigger('Errors', 5));
  assert.deepEqual(reported(applied, files(trigger('Errors', 9)), index(serviceTrigger('t1', 'Errors', 'api', 5))), []);
});

test('a trigger changed on the service to what neither the files applied nor the files now hold is reported against the files applied', () => {
  const applied = files(trigger('Errors', 5), trigger('Latency', 100));
  const service = index(serviceTrigger('t1', 'Errors', 'api', 7), serviceTrigger('t2', 'Latency', 'api', 100));
  assert.deepEqual(reported(applied, files(trigger('Errors', 9), trigger('Latency', 100)), service), [
    'api/Errors.trigger.json: differs; threshold.value: 7 -> 5',
  ]);
});

test('a trigger the service already holds as the files now want (an apply stopped halfway) is no change', () => {
  const applied = files(trigger('Errors', 5));
  assert.deepEqual(reported(applied, files(trigger('Errors', 9)), index(serviceTrigger('t1', 'Errors', 'api', 9))), []);
});

test('a trigger gone from the service that the files still hold is reported; one the files now delete too is not', () => {
  const applied = files(trigger('Errors', 5), trigger('Latency', 100), trigger('Kept', 1));
  const current = files(trigger('Errors', 5), trigger('Kept', 1));
  const service = index(serviceTrigger('t3', 'Kept', 'api', 1));
  assert.deepEqual(reported(applied, current, service), ['api/Errors.trigger.json: local-only']);
});

test("a trigger created on the service in either set's datasets is reported, unless the files now hold it as the service does", () => {
  const applied = files(trigger('Errors', 5));
  const current = files(trigger('Errors', 5), trigger('New', 3), trigger('Hosts', 2, 'metrics'));
  const service = index(
    serviceTrigger('t1', 'Errors', 'api', 5),
    serviceTrigger('t2', 'New', 'api', 3),
    serviceTrigger('t3', 'Made in the UI', 'api', 1),
    serviceTrigger('t4', 'Also in the UI', 'metrics', 1),
  );
  assert.deepEqual(reported(applied, current, service), [
    'only on the service: Made in the UI (t3)',
    'only on the service: Also in the UI (t4)',
  ]);
});

test('a trigger created on the service under a name the files now create otherwise is reported: the apply would overwrite it', () => {
  const applied = files(trigger('Errors', 5));
  const current = files(trigger('Errors', 5), trigger('New', 3));
  const service = index(serviceTrigger('t1', 'Errors', 'api', 5), serviceTrigger('t2', 'New', 'api', 8));
  assert.deepEqual(reported(applied, current, service), ['only on the service: New (t2)']);
});

test("files matched by name: ids of another environment's files name nothing, and a changed trigger is found by its name", () => {
  const withId = (t: ReturnType<typeof trigger>, id: string) => readTriggerFile(JSON.stringify({ id, ...t }));
  const applied = new Map([['api/Errors.trigger.json', withoutIds(withId(trigger('Errors', 5), 'staging_1'))]]);
  const current = new Map([['api/Errors.trigger.json', withoutIds(withId(trigger('Errors', 9), 'staging_1'))]]);
  assert.deepEqual(reported(applied, current, index(serviceTrigger('prod_1', 'Errors', 'api', 6))), [
    'api/Errors.trigger.json: differs; threshold.value: 6 -> 5',
  ]);
  assert.deepEqual(reported(applied, current, index(serviceTrigger('prod_1', 'Errors', 'api', 5))), []);
});
