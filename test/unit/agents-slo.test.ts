// The agents' drift and plan tools over burn alert and definitions files, against the sandbox right after a pull
// of every kind: each change and blocked entry says its kind and the members that differ, drift compares these
// files as `obs drift` does, the editor's apply tool writes them after its dialog, and `obs mcp`'s own host finds
// them under its folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool, type PlanWithNotes, type SourceFile, type ToolHost } from '../../src/agentTools';
import { ServiceClient } from '../../src/api';
import { mcpHost } from '../../src/cli/mcpHost';
import { runApply, type AppliedConnection, type PlanSources } from '../../src/extension/agents/applyTool';
import { PlanStore } from '../../src/extension/agents/planStore';
import { ApplyLocks } from '../../src/extension/core/applyLocks';
import { DEMO } from '../../src/sandbox';
import { sandboxToolHost, type SandboxHostOptions } from './agents-sandbox-host';
import { DEFINITIONS, EXHAUSTION, GATEWAY, sloWorkspace } from './slo-workspace';

const ws = sloWorkspace('obs-agents-slo-');
const BUDGET_RATE = `burn-alerts/${GATEWAY}/Gateway-availability.budget-rate-60min-10000ppm.burn-alert.json`;
const THRESHOLD = 'budget_rate_decrease_threshold_per_million';
const signal = new AbortController().signal;

/** The pulled file's text with some members changed. */
const edited = (file: string, members: Record<string, unknown>): string =>
  `${JSON.stringify({ ...ws.readJson(file), ...members }, null, 2)}\n`;

/** The budget rate alert's threshold doubled, and the gateway's route definition cleared. */
const twoEdits = (): Record<string, string> => {
  const definitions = ws.readJson(DEFINITIONS).definitions as Record<string, unknown>;
  return {
    [BUDGET_RATE]: edited(BUDGET_RATE, { [THRESHOLD]: 20_000 }),
    [DEFINITIONS]: edited(DEFINITIONS, { definitions: { ...definitions, route: null } }),
  };
};

/** Runs a tool over the sandbox with the given files; the answer must be a success. */
async function answer(
  name: string,
  files: Record<string, string>,
  o: SandboxHostOptions & { client?: ServiceClient } = {},
): Promise<Record<string, unknown>> {
  const client = o.client ?? new ServiceClient({ baseUrl: ws.sandbox().base, configKey: configKey() });
  try {
    const r = await runTool(name, {}, sandboxToolHost(client, ws.sandbox().base, files, o), signal);
    assert.ok(r.ok, r.ok ? '' : r.reason);
    return r.result;
  } finally {
    if (o.client === undefined) await client.close();
  }
}
const configKey = () => ws.sandbox().handle.info.configKey;

/** An update as obs_plan answers it. */
interface UpdateRow {
  kind: string;
  action: string;
  dataset: string;
  name: string;
  id: string;
  file: string;
  matched_by: string;
  differences: string[];
}

const BUDGET_RATE_CHANGE: UpdateRow = {
  kind: 'burn-alert',
  action: 'update',
  dataset: GATEWAY,
  name: 'Gateway availability, budget rate 60 min 20000 ppm',
  id: DEMO.burnAlerts.gwBudgetRate,
  file: BUDGET_RATE,
  matched_by: 'id',
  differences: [`${THRESHOLD}: 10000 -> 20000`],
};
const DEFINITIONS_CHANGE: UpdateRow = {
  kind: 'definitions',
  action: 'update',
  dataset: GATEWAY,
  name: `definitions of ${GATEWAY}`,
  id: GATEWAY,
  file: DEFINITIONS,
  matched_by: 'id',
  differences: ['definitions.route: {"name":"http.route"} -> null'],
};

test("obs_plan answers a burn alert's threshold change and a definitions change, each with its kind and the member that differs", async () => {
  const r = await answer('obs_plan', twoEdits());
  assert.deepEqual(r.counts, { create: 0, update: 2, delete: 0, blocked: 0, unchanged: 0 });
  assert.deepEqual(r.changes, [BUDGET_RATE_CHANGE, DEFINITIONS_CHANGE]);
});

test('obs_plan blocks a burn alert file naming an alert the service does not have, with its kind and why', async () => {
  const r = await answer('obs_plan', { [EXHAUSTION]: edited(EXHAUSTION, { id: 'ba_nowhere' }) });
  assert.deepEqual(r.counts, { create: 0, update: 0, delete: 0, blocked: 1, unchanged: 0 });
  assert.deepEqual(r.blocked, [
    {
      kind: 'burn-alert',
      file: EXHAUSTION,
      dataset: GATEWAY,
      reasons: ['the service has no burn alert ba_nowhere: burn alerts cannot be created from files'],
    },
  ]);
});

test('obs_drift finds a burn alert file and a definitions file right after the pull in sync', async () => {
  const files = { [BUDGET_RATE]: ws.text(BUDGET_RATE), [DEFINITIONS]: ws.text(DEFINITIONS) };
  const r = await answer('obs_drift', files);
  assert.deepEqual(r.counts, { inSync: 2, differs: 0, localOnly: 0, serviceOnly: 0, unknown: 0 });
  assert.deepEqual([r.files_read, r.files], [2, []]);
});

test('obs_drift names the burn alert file and the definitions file that differ, by kind, service value -> file value', async () => {
  const r = await answer('obs_drift', twoEdits());
  assert.deepEqual(r.counts, { inSync: 0, differs: 2, localOnly: 0, serviceOnly: 0, unknown: 0 });
  const row = ({ kind, file, dataset, name, id, differences }: UpdateRow) => ({
    kind,
    file,
    status: 'differs',
    dataset,
    name,
    id,
    differences,
  });
  assert.deepEqual(r.files, [row(BUDGET_RATE_CHANGE), row(DEFINITIONS_CHANGE)]);
});

test('obs_drift says a burn alert file naming an alert the service does not have cannot be compared, and why', async () => {
  const r = await answer('obs_drift', { [EXHAUSTION]: edited(EXHAUSTION, { id: 'ba_nowhere' }) });
  assert.deepEqual(r.counts, { inSync: 0, differs: 0, localOnly: 0, serviceOnly: 0, unknown: 1 });
  assert.deepEqual(r.files, [
    {
      kind: 'burn-alert',
      file: EXHAUSTION,
      status: 'unknown',
      reason: 'the service has no burn alert ba_nowhere: burn alerts cannot be created from files',
      dataset: GATEWAY,
      differences: [],
    },
  ]);
});

test("obs_apply_plan writes a planned burn alert and definitions change after the user's yes in the dialog, as the editor's Apply does", async () => {
  const files = twoEdits();
  const client = new ServiceClient({ baseUrl: ws.sandbox().base, configKey: configKey() });
  try {
    const plans = new PlanStore<PlanSources>();
    const sources = Object.entries(files).map(([file, text]): SourceFile => ({ file, text }));
    const noEdits: PlanSources = {
      readAgain: async () => sources,
      state: async () => assert.fail('no id is written into these files'),
      editAndSave: async () => assert.fail('no id is written into these files'),
    };
    const active: AppliedConnection = { profile: { id: 'sb', name: 'Sandbox', baseUrl: ws.sandbox().base }, client };
    const remember = (p: PlanWithNotes) => plans.remember(p, { ...active.profile, client }, noEdits);
    const planned = await answer('obs_plan', files, { client, remember });
    const host: ToolHost = sandboxToolHost(client, ws.sandbox().base, files);
    const asked: string[] = [];
    const applied = await runApply(
      { plan_id: planned.plan_id },
      {
        plans,
        active,
        locks: new ApplyLocks(),
        confirm: async (q) => (asked.push(q.detail), true),
        replan: (_c, again, prune, s) => host.files.plan(again, prune, s),
        recipients: () => undefined,
        onWritten: () => undefined,
        log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
      },
      signal,
    );
    assert.deepEqual(asked[0]?.split('\n').slice(3), [
      'Burn alerts to update:',
      `~ ${GATEWAY} "${BUDGET_RATE_CHANGE.name}" (${DEMO.burnAlerts.gwBudgetRate})`,
      'Definitions to update:',
      `~ definitions of ${GATEWAY}`,
    ]);
    assert.deepEqual((JSON.parse(applied) as { counts: Record<string, number> }).counts, {
      applied: 2,
      skipped: 0,
      refused: 0,
      failed: 0,
      outcome_unknown: 0,
      written_not_verified: 0,
    });
    const alert = await client.getBurnAlert(GATEWAY, DEMO.burnAlerts.gwBudgetRate);
    assert.equal((alert.data as Record<string, unknown>)[THRESHOLD], 20_000);
    assert.deepEqual((await answer('obs_drift', files, { client })).counts, {
      inSync: 2,
      differs: 0,
      localOnly: 0,
      serviceOnly: 0,
      unknown: 0,
    });
  } finally {
    await client.close();
  }
});

test("obs mcp's host finds the burn alert and definitions files under its folder and plans an edited burn alert", async () => {
  ws.writeJson(EXHAUSTION, { ...ws.readJson(EXHAUSTION), exhaustion_minutes: 300 });
  const host = mcpHost({ cwd: ws.dir(), env: { OBS_BASE_URL: ws.sandbox().base, OBS_CONFIG_KEY: configKey() } });
  try {
    const r = await runTool('obs_plan', { paths: ['burn-alerts', 'definitions'] }, host, signal);
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.deepEqual(r.result.counts, { create: 0, update: 1, delete: 0, blocked: 0, unchanged: 7 });
    assert.deepEqual(r.result.changes, [
      {
        kind: 'burn-alert',
        action: 'update',
        dataset: GATEWAY,
        name: 'Gateway availability, exhaustion 300 min',
        id: DEMO.burnAlerts.gwExhaustion,
        file: EXHAUSTION,
        matched_by: 'id',
        differences: ['exhaustion_minutes: 240 -> 300'],
      },
    ]);
  } finally {
    await host.close();
  }
});
