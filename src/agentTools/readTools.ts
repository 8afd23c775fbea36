// The list tools: datasets, columns, triggers, SLOs and burn alerts, each one service call, answered as a
// bounded list of named fields (shape.ts), with its output schema.
import * as z from 'zod';
import { LIMITS } from './answer';
import type { ToolHost } from './context';
import { notFound } from './failures';
import type { ToolInputs } from './inputs';
import {
  BurnAlertRow,
  burnAlertSummary,
  ColumnRow,
  columnSummary,
  containsText,
  DatasetRow,
  datasetSummary,
  listAnswer,
  listOutput,
  SloRow,
  sloSummary,
  TriggerRow,
  triggerSummary,
} from './shape';

const byName =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) =>
    key(a).localeCompare(key(b));

export const ListDatasetsOutput = listOutput('datasets', DatasetRow);

export async function listDatasetsTool(
  input: ToolInputs['obs_list_datasets'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof ListDatasetsOutput>> {
  const service = await host.service();
  const all = [...(await service.listDatasets({ signal })).data].sort(byName((d) => d.slug));
  return listAnswer(
    'datasets',
    all,
    (d) => containsText(d.slug, input.contains) || containsText(d.name, input.contains),
    datasetSummary,
    input.limit ?? LIMITS.listRows,
  );
}

export const ListColumnsOutput = listOutput('columns', ColumnRow).extend({ dataset: z.string() });

export async function listColumnsTool(
  input: ToolInputs['obs_list_columns'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof ListColumnsOutput>> {
  const service = await host.service();
  let columns;
  try {
    columns = (await service.listColumns(input.dataset, { signal })).data;
  } catch (e) {
    throw notFound(e, `dataset ${JSON.stringify(input.dataset)}`);
  }
  const all = [...columns].sort(byName((c) => c.key_name));
  return {
    dataset: input.dataset,
    ...listAnswer(
      'columns',
      all,
      (c) => containsText(c.key_name, input.contains),
      columnSummary,
      input.limit ?? LIMITS.listRows,
    ),
  };
}

export const ListTriggersOutput = listOutput('triggers', TriggerRow).extend({ dataset: z.string() });

export async function listTriggersTool(
  input: ToolInputs['obs_list_triggers'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof ListTriggersOutput>> {
  const service = await host.service();
  let triggers;
  try {
    triggers = (await service.listTriggers(input.dataset, { signal })).data;
  } catch (e) {
    throw notFound(e, `dataset ${JSON.stringify(input.dataset)}`);
  }
  const all = [...triggers].sort(byName((t) => t.name));
  return {
    dataset: input.dataset,
    ...listAnswer(
      'triggers',
      all,
      (t) => containsText(t.name, input.contains),
      triggerSummary,
      input.limit ?? LIMITS.listRows,
    ),
  };
}

export const ListSlosOutput = listOutput('slos', SloRow).extend({ dataset: z.string() });

export async function listSlosTool(
  input: ToolInputs['obs_list_slos'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof ListSlosOutput>> {
  const service = await host.service();
  let slos;
  try {
    slos = (await service.listSlos(input.dataset, { signal })).data;
  } catch (e) {
    throw notFound(e, `dataset ${JSON.stringify(input.dataset)}`);
  }
  return {
    dataset: input.dataset,
    ...listAnswer('slos', slos, () => true, sloSummary, input.limit ?? LIMITS.listRows),
  };
}

export const ListBurnAlertsOutput = listOutput('burn_alerts', BurnAlertRow).extend({
  dataset: z.string(),
  slo_id: z.string(),
});

export async function listBurnAlertsTool(
  input: ToolInputs['obs_list_burn_alerts'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof ListBurnAlertsOutput>> {
  const service = await host.service();
  let alerts;
  try {
    alerts = (await service.listBurnAlerts(input.dataset, input.slo_id, { signal })).data;
  } catch (e) {
    throw notFound(e, `dataset ${JSON.stringify(input.dataset)} or SLO ${JSON.stringify(input.slo_id)}`);
  }
  return {
    dataset: input.dataset,
    slo_id: input.slo_id,
    ...listAnswer('burn_alerts', alerts, () => true, burnAlertSummary, input.limit ?? LIMITS.listRows),
  };
}
