// Burn alert and dataset definitions files (docs/SLO-FILES.md): the canonical text, a stable round trip,
// file names, collisions, and pull never overwriting a file edited locally.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFileSystem } from '../../src/triggerFiles/nodeFs';
import {
  applyPull,
  BURN_ALERT_PULL,
  burnAlertFileText,
  definitionsFileText,
  normalizeBurnAlert,
  normalizeDefinitions,
  planDefinitionsPull,
  planKindPull,
  type BurnAlertItem,
  type DefinitionsItem,
  type PullFileSystem,
} from '../../src/triggerFiles';
import { compareBurnAlerts, burnAlertFileValue } from '../../src/triggerFiles/burnAlertFile';
import { compareDefinitions } from '../../src/triggerFiles/definitionsFile';
import { DEFINITION_TYPE_NAMES } from '../../src/api/schemas/definitionTypes';

const alertItem = (over: Record<string, unknown> = {}, slo = { id: 'slo_a', name: 'Checkout availability' }) =>
  ({
    dataset: 'checkout',
    slo,
    alert: {
      id: 'ba_1',
      alert_type: 'exhaustion_time',
      exhaustion_minutes: 240,
      description: 'Budget gone within four hours.',
      triggered: true,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-02T00:00:00Z',
      slo: { id: slo.id },
      auto_investigate: true,
      recipients: [{ id: 'rcp_b', type: 'email', target: 'b@example.com' }, { id: 'rcp_a' }],
      ...over,
    },
  }) satisfies BurnAlertItem;

test('a pulled burn alert file holds its id, dataset, SLO and what the update writes, in a fixed order', () => {
  assert.equal(
    burnAlertFileText(burnAlertFileValue(alertItem())),
    `${JSON.stringify(
      {
        id: 'ba_1',
        dataset_slug: 'checkout',
        slo: { id: 'slo_a', name: 'Checkout availability' },
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 240,
        description: 'Budget gone within four hours.',
        recipients: [{ id: 'rcp_a' }, { id: 'rcp_b', type: 'email', target: 'b@example.com' }],
      },
      null,
      2,
    )}\n`,
  );
});

test('an alert without alert_type is the exhaustion_time alert the service makes of it, and an empty description is left out', () => {
  assert.deepEqual(normalizeBurnAlert({ id: 'x', exhaustion_minutes: 5, description: '' }), {
    id: 'x',
    alert_type: 'exhaustion_time',
    exhaustion_minutes: 5,
  });
});

const recipient = fc.oneof(
  fc.record({ id: fc.constantFrom('rcp_a', 'rcp_b', 'rcp_c') }),
  fc.record({ id: fc.constantFrom('rcp_d', 'rcp_e'), type: fc.constant('email'), target: fc.emailAddress() }),
);
const serviceAlert = fc.record(
  {
    id: fc.string({ minLength: 1, maxLength: 8 }),
    alert_type: fc.constantFrom('exhaustion_time', 'budget_rate', null),
    exhaustion_minutes: fc.integer({ min: 0, max: 10_000 }),
    budget_rate_window_minutes: fc.integer({ min: 60, max: 40_320 }),
    budget_rate_decrease_threshold_per_million: fc.integer({ min: 1, max: 1_000_000 }),
    description: fc.oneof(fc.constant(''), fc.constant(null), fc.string({ maxLength: 30 })),
    triggered: fc.boolean(),
    recipients: fc.array(recipient, { minLength: 1, maxLength: 4 }),
    auto_investigate: fc.boolean(),
  },
  { requiredKeys: ['id', 'recipients'] },
);

test('pull -> parse -> canonical text is the same text, and the file is in sync with the alert it came from', () => {
  fc.assert(
    fc.property(serviceAlert, fc.string({ minLength: 1, maxLength: 12 }), (alert, sloName) => {
      const item: BurnAlertItem = { dataset: 'checkout', slo: { id: 'slo_1', name: sloName }, alert };
      const text = burnAlertFileText(burnAlertFileValue(item));
      const parsed: unknown = JSON.parse(text);
      assert.equal(burnAlertFileText(parsed), text);
      assert.deepEqual(compareBurnAlerts(parsed, burnAlertFileValue(item)), []);
    }),
  );
});

test('a burn alert file differs from the service by the member changed, and not by the SLO name', () => {
  const file = JSON.parse(burnAlertFileText(burnAlertFileValue(alertItem()))) as Record<string, unknown>;
  const renamedSlo = { ...file, slo: { id: 'slo_a', name: 'Another name' }, exhaustion_minutes: 60 };
  assert.deepEqual(compareBurnAlerts(renamedSlo, burnAlertFileValue(alertItem())), [
    { path: 'exhaustion_minutes', member: 'exhaustion_minutes', service: 240, local: 60 },
  ]);
});

const definitionsMap = fc.dictionary(
  fc.constantFrom(...DEFINITION_TYPE_NAMES),
  fc.oneof(
    fc.constant(null),
    fc.record({ name: fc.string({ maxLength: 12 }), column_type: fc.constantFrom('column', 'derived_column') }),
  ),
);

test('a definitions file holds every type in the spec order, unset ones null, and round trips to the same text', () => {
  fc.assert(
    fc.property(definitionsMap, (definitions) => {
      const text = definitionsFileText({ dataset_slug: 'checkout', definitions });
      const parsed = JSON.parse(text) as { definitions: Record<string, unknown> };
      assert.deepEqual(Object.keys(parsed.definitions), DEFINITION_TYPE_NAMES);
      assert.equal(definitionsFileText(parsed), text);
      assert.deepEqual(compareDefinitions(parsed, { dataset_slug: 'checkout', definitions }), []);
    }),
  );
});

test('in a definitions file a cleared column (name "") is null, and column_type is left to the service', () => {
  const file = normalizeDefinitions({
    dataset_slug: 'd',
    definitions: { route: { name: '' }, user: { name: 'user.id', column_type: 'column' }, nonsense: { name: 'x' } },
  }) as { definitions: Record<string, unknown> };
  assert.deepEqual(
    [file.definitions.route, file.definitions.user, file.definitions.nonsense],
    [null, { name: 'user.id' }, undefined],
  );
});

test('a definitions file differs from the service by each definition changed', () => {
  const service = { dataset_slug: 'd', definitions: { route: { name: 'http.route' }, user: null } };
  const local = { dataset_slug: 'd', definitions: { route: null, user: { name: 'user.email' } } };
  assert.deepEqual(
    compareDefinitions(local, service).map((d) => [d.path, d.service, d.local]),
    [
      ['definitions.route', { name: 'http.route' }, null],
      ['definitions.user', null, { name: 'user.email' }],
    ],
  );
});

test('a burn alert file is named by dataset, SLO name, kind and threshold, in safe characters', () => {
  const plan = planKindPull(
    BURN_ALERT_PULL,
    [
      alertItem({}, { id: 'slo_a', name: 'Checkout: p99 < 300 ms / "fast"' }),
      alertItem(
        {
          id: 'ba_2',
          alert_type: 'budget_rate',
          exhaustion_minutes: undefined,
          budget_rate_window_minutes: 60,
          budget_rate_decrease_threshold_per_million: 10_000,
        },
        { id: 'slo_b', name: 'CON' },
      ),
      { ...alertItem({ id: 'ba_3' }), dataset: '__all__' },
    ],
    [],
  );
  assert.deepEqual(
    plan.map((a) => a.path),
    [
      '__all__/Checkout-availability.exhaustion-240min.burn-alert.json',
      'checkout/Checkout-p99-300-ms-fast.exhaustion-240min.burn-alert.json',
      'checkout/slo_b.budget-rate-60min-10000ppm.burn-alert.json',
    ],
  );
});

test('two alerts of one SLO with the same kind and threshold get two files: the second named with its id', () => {
  const plan = planKindPull(BURN_ALERT_PULL, [alertItem(), alertItem({ id: 'ba_2' })], []);
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path]),
    [
      ['create', 'checkout/Checkout-availability.exhaustion-240min-ba_2.burn-alert.json'],
      ['create', 'checkout/Checkout-availability.exhaustion-240min.burn-alert.json'],
    ],
  );
});

test("a file on disk whose name differs only in letter case takes the alert's name: the alert gets its id in the name", () => {
  const other = burnAlertFileText(burnAlertFileValue(alertItem({ id: 'ba_other' }, { id: 's9', name: 'x' })));
  const plan = planKindPull(
    BURN_ALERT_PULL,
    [alertItem()],
    [{ path: 'checkout/checkout-AVAILABILITY.exhaustion-240min.burn-alert.json', text: other }],
  );
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path]),
    [['create', 'checkout/Checkout-availability.exhaustion-240min-ba_1.burn-alert.json']],
  );
});

test('an alert whose file was renamed and edited is found by its id and offered as an update, never created again', () => {
  const edited = burnAlertFileText({ ...burnAlertFileValue(alertItem()), exhaustion_minutes: 30 });
  const plan = planKindPull(BURN_ALERT_PULL, [alertItem()], [{ path: 'checkout/mine.burn-alert.json', text: edited }]);
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path, a.kind === 'update' ? a.differences.map((d) => d.path) : []]),
    [['update', 'checkout/mine.burn-alert.json', ['exhaustion_minutes']]],
  );
});

test('a burn alert file without an id is matched by its SLO name and alert type', () => {
  const { id: _id, ...noId } = burnAlertFileValue(alertItem());
  const plan = planKindPull(
    BURN_ALERT_PULL,
    [alertItem()],
    [{ path: 'checkout/hand-written.burn-alert.json', text: burnAlertFileText(noId) }],
  );
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path]),
    [['unchanged', 'checkout/hand-written.burn-alert.json']],
  );
});

/** A file system of plain text files, recording what was written. */
function memoryFs(files: Record<string, string>): PullFileSystem & { writes: string[] } {
  const writes: string[] = [];
  return {
    writes,
    list: () => Promise.resolve(undefined),
    read: (path) => Promise.resolve(files[path]),
    create: (path, text) => {
      writes.push(path);
      files[path] = text;
      return Promise.resolve();
    },
    replace: (path, text) => {
      writes.push(path);
      files[path] = text;
      return Promise.resolve();
    },
  };
}

test('pull leaves a burn alert file edited locally as it is unless the overwrite is approved', async () => {
  const edited = burnAlertFileText({ ...burnAlertFileValue(alertItem()), description: 'mine' });
  const path = 'checkout/Checkout-availability.exhaustion-240min.burn-alert.json';
  const fs = memoryFs({ [`root/${path}`]: edited });
  const plan = planKindPull(BURN_ALERT_PULL, [alertItem()], [{ path, text: edited }]);
  const report = await applyPull(fs, 'root', plan, { approve: () => Promise.resolve(new Set()) });
  assert.deepEqual([fs.writes, report.skipped], [[], [{ path, reason: 'it differs from the service' }]]);
});

const defs = (dataset: string, route: string | null): DefinitionsItem => ({
  dataset,
  definitions: { route: route === null ? null : { name: route, column_type: 'column' } },
});

test("a dataset's definitions go to the file naming the dataset, wherever it is named, and a changed one is an update", () => {
  const mine = definitionsFileText({ dataset_slug: 'checkout', definitions: { route: { name: 'path' } } });
  const plan = planDefinitionsPull([defs('checkout', 'http.route')], [{ path: 'shop.definitions.json', text: mine }]);
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path, a.kind === 'update' ? a.differences.map((d) => d.path) : []]),
    [['update', 'shop.definitions.json', ['definitions.route.name']]],
  );
});

test("a definitions file name held by another dataset's file (in any letter case) gives the new file a number", () => {
  const other = definitionsFileText({ dataset_slug: 'other', definitions: {} });
  const plan = planDefinitionsPull([defs('Checkout', null)], [{ path: 'checkout.definitions.json', text: other }]);
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path]),
    [['create', 'Checkout-2.definitions.json']],
  );
});

test('a definitions file that differs only in formatting is left alone', () => {
  const same = JSON.stringify({ definitions: { route: { name: 'http.route' } }, dataset_slug: 'checkout' });
  const plan = planDefinitionsPull(
    [defs('checkout', 'http.route')],
    [{ path: 'checkout.definitions.json', text: same }],
  );
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path]),
    [['unchanged', 'checkout.definitions.json']],
  );
});

test('a pull of definitions removes the stale temporary files an interrupted pull left in the folder, and only those', async () => {
  const root = mkdtempSync(join(tmpdir(), 'obs-defs-'));
  try {
    const stale = 'checkout.definitions.json.0123abcd.tmp';
    const old = new Date(Date.now() - 10 * 60 * 1000);
    for (const name of [stale, 'notes.tmp']) {
      writeFileSync(join(root, name), '{');
      utimesSync(join(root, name), old, old);
    }
    const plan = planDefinitionsPull([defs('checkout', 'http.route')], []);
    const report = await applyPull(nodeFileSystem, root, plan, { approve: () => Promise.resolve(new Set()) });
    assert.deepEqual(
      [report.removed, report.created, readdirSync(root).sort()],
      [[stale], ['checkout.definitions.json'], ['checkout.definitions.json', 'notes.tmp']],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
