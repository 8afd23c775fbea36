// obs_drift and obs_plan: the trigger, burn alert and definitions files of the host against the service. Drift
// is the comparison of `obs drift` (burn alert and definitions files compared as a plan compares them,
// sloDrift); the plan is the host's (with the gates of `obs plan`). Both answer counts first, then the entries
// that need attention, each with its kind, bounded; member values are given as short texts, a webhook
// variable's value never (hidden.ts).
import { fileAsSeenBy, sloFileAsSeenBy } from '../triggerFiles/environmentPlan';
import * as z from 'zod';
import {
  datasetsOfFiles,
  differenceText,
  driftCounts,
  driftOfFile,
  kindOfFile,
  sloFilesOf,
  listDatasets,
  onlyOnService,
  PacedPool,
  planCounts,
  readTriggerFile,
  ServiceIndex,
  sloDrift,
  withSloCounts,
  type BlockedTrigger,
  type Difference,
  type FileDrift,
  type LocalFile,
  type PlannedChange,
  type SloFileDrift,
} from '../triggerFiles';
import { clip, clipName, defined, firstOf, LIMITS } from './answer';
import type { SourceFile, ToolHost } from './context';
import { shownDifference } from './hidden';
import type { ToolInputs } from './inputs';

/** List calls made at once, as `obs drift` does by default. */
const CONCURRENCY = 4;

function localFileOf(f: SourceFile): LocalFile {
  return f.text === undefined ? { ok: false, reason: f.problem ?? 'it could not be read' } : readTriggerFile(f.text);
}

const differences = (list: readonly Difference[]): { differences: string[]; differences_total?: number } => {
  const { items, truncated } = firstOf(list, LIMITS.differences);
  return {
    differences: items.map((d) => differenceText(shownDifference(d), 120)),
    ...(truncated ? { differences_total: list.length } : {}),
  };
};

const Differences = {
  differences: z.array(z.string()).describe('Each member that differs: "path: service value -> file value".'),
  differences_total: z.number().int().optional().describe('How many members differ, when more than are listed.'),
};
const Problems = z.array(z.string()).optional().describe('Paths that named nothing, or were not read, and why.');
const DRIFT_STATUS = z.enum(['in-sync', 'differs', 'local-only', 'unknown']);
const KIND = z
  .enum(['trigger', 'burn-alert', 'definitions'])
  .describe('The kind of file: a trigger file, a burn alert file or a dataset definitions file.');

const TriggerFileRow = z.object({
  kind: z.literal('trigger'),
  file: z.string(),
  status: DRIFT_STATUS,
  reason: z.string().optional(),
  triggers: z.array(
    z.object({
      index: z.number().int().optional(),
      name: z.string().optional(),
      dataset: z.string().optional(),
      status: DRIFT_STATUS,
      service_id: z.string().optional(),
      reason: z.string().optional(),
      ...Differences,
    }),
  ),
});

/** A burn alert or definitions file: the service can neither create nor delete these, so never local-only. */
const SloFileRow = z.object({
  kind: z.enum(['burn-alert', 'definitions']),
  file: z.string(),
  status: z.enum(['in-sync', 'differs', 'unknown']),
  reason: z.string().optional().describe('Why it could not be compared (status unknown).'),
  dataset: z.string().optional(),
  name: z.string().optional().describe("The burn alert's SLO, type and threshold, or whose definitions."),
  id: z.string().optional().describe("The burn alert's id, or the dataset of the definitions."),
  ...Differences,
});

const FileRow = z.discriminatedUnion('kind', [TriggerFileRow, SloFileRow]);

export const DriftOutput = z.object({
  target: z.string(),
  files_read: z.number().int(),
  counts: z.object({
    inSync: z.number().int(),
    differs: z.number().int(),
    localOnly: z.number().int(),
    serviceOnly: z.number().int(),
    unknown: z.number().int(),
  }),
  files: z.array(FileRow).describe('The files that are not in sync.'),
  files_truncated: z.boolean(),
  only_on_service: z.array(z.object({ dataset: z.string().optional(), id: z.string(), name: z.string().optional() })),
  only_on_service_truncated: z.boolean(),
  listing_failures: z.array(z.object({ dataset: z.string(), message: z.string() })).optional(),
  problems: Problems,
});

function fileSummary(f: FileDrift): z.infer<typeof TriggerFileRow> {
  const triggers = f.triggers.filter((t) => t.status !== 'in-sync');
  return defined({
    kind: 'trigger' as const,
    file: f.file,
    status: f.status,
    reason: clip(f.reason),
    triggers: triggers.slice(0, 20).map((t) =>
      defined({
        index: t.index < 0 ? undefined : t.index,
        name: clipName(t.name),
        dataset: t.dataset,
        status: t.status,
        service_id: t.service?.id,
        reason: clip(t.reason),
        ...differences(t.differences),
      }),
    ),
  });
}

function sloFileSummary(f: SloFileDrift): z.infer<typeof SloFileRow> {
  return defined({
    kind: f.kind,
    file: f.file,
    status: f.status,
    reason: clip(f.reason),
    dataset: f.dataset,
    name: clipName(f.name),
    id: f.id,
    ...differences(f.differences),
  });
}

export async function driftTool(
  input: ToolInputs['obs_drift'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof DriftOutput>> {
  const { files, problems } = await host.files.read(input.paths ?? [], 'every kind', signal);
  // For an environment other than the home one, each file as it sees it, found by name (obs drift --env).
  const env = host.files.environment;
  const asSeen = (f: SourceFile) =>
    env === undefined || f.text === undefined ? localFileOf(f) : fileAsSeenBy(f.text, env).file;
  const reads = files.filter((f) => kindOfFile(f.file) === 'trigger').map((f) => ({ file: f.file, read: asSeen(f) }));
  const service = await host.service();
  const pool = new PacedPool({ concurrency: CONCURRENCY });
  const index = new ServiceIndex();
  const listings = await listDatasets(service, [...datasetsOfFiles(reads.map((r) => r.read))].sort(), pool, signal);
  const failures: { dataset: string; message: string }[] = [];
  for (const [dataset, listing] of listings) {
    index.add(dataset, listing);
    if (listing.state === 'failed') failures.push({ dataset, message: clip(listing.message) ?? '' });
  }
  const drift = reads.map((r) => driftOfFile(r.file, r.read, index));
  const only = onlyOnService(drift, index);
  // The burn alert and definitions files, compared exactly as `obs drift` and a plan compare them.
  const sloFiles = sloFilesOf(files).map((f) => (env === undefined ? f : sloFileAsSeenBy(f, env.overlay)));
  const slo = await sloDrift(sloFiles, service, pool, { matchByName: env !== undefined, signal });
  const attention = [
    ...drift.filter((f) => f.status !== 'in-sync').map(fileSummary),
    ...slo.filter((f) => f.status !== 'in-sync').map(sloFileSummary),
  ];
  const shown = firstOf(attention, LIMITS.planEntries);
  const serviceOnly = firstOf(only, LIMITS.planEntries);
  return {
    target: host.target(),
    files_read: files.length,
    counts: withSloCounts(driftCounts(drift, only), slo),
    files: shown.items,
    files_truncated: shown.truncated,
    only_on_service: serviceOnly.items.map((t) =>
      defined({ dataset: t.dataset_slug, id: t.id, name: clipName(t.name) }),
    ),
    only_on_service_truncated: serviceOnly.truncated,
    ...(failures.length > 0 ? { listing_failures: failures.slice(0, 20) } : {}),
    ...(problems.length > 0 ? { problems: problems.slice(0, 20).map((p) => clip(p)) } : {}),
  };
}

const ChangeRow = z.discriminatedUnion('action', [
  z.object({
    kind: z.literal('trigger'),
    action: z.literal('delete'),
    dataset: z.string(),
    id: z.string(),
    name: z.string().optional(),
  }),
  z.object({
    kind: z.literal('trigger'),
    action: z.literal('create'),
    dataset: z.string(),
    name: z.string().optional(),
    file: z.string(),
    index: z.number().int().optional(),
  }),
  z.object({
    kind: KIND.describe('The kind of file: burn alerts and definitions are only ever updated.'),
    action: z.literal('update'),
    dataset: z.string(),
    name: z.string().optional(),
    id: z.string(),
    file: z.string(),
    index: z.number().int().optional(),
    matched_by: z.enum(['id', 'name']),
    ...Differences,
  }),
]);

const BlockedRow = z.object({
  kind: KIND,
  file: z.string().optional(),
  index: z.number().int().optional(),
  name: z.string().optional(),
  dataset: z.string().optional(),
  reasons: z.array(z.string()),
});

export const PlanOutput = z.object({
  target: z.string(),
  files_read: z.number().int(),
  counts: z.object({
    create: z.number().int(),
    update: z.number().int(),
    delete: z.number().int(),
    blocked: z.number().int(),
    unchanged: z.number().int(),
  }),
  changes: z.array(ChangeRow),
  changes_truncated: z.boolean(),
  blocked: z.array(BlockedRow),
  blocked_truncated: z.boolean(),
  notes: z.array(z.string()).optional(),
  problems: Problems,
  plan_id: z.string().optional().describe('In the editor: the id obs_apply_plan applies this plan by.'),
  next: z.string().describe('What to do next with this plan.'),
});

function changeSummary(c: PlannedChange): z.infer<typeof ChangeRow> {
  const name = clipName(c.name);
  if (c.action === 'delete') return { kind: c.kind, action: 'delete', dataset: c.dataset, id: c.id, name };
  if (c.action === 'create') {
    const index = c.index >= 0 ? { index: c.index } : {};
    return { kind: c.kind, action: 'create', dataset: c.dataset, name, file: c.file, ...index };
  }
  return {
    kind: c.kind,
    action: 'update',
    dataset: c.dataset,
    name,
    id: c.id,
    file: c.file,
    ...(c.index >= 0 ? { index: c.index } : {}),
    matched_by: c.matchedBy,
    ...differences(c.differences),
  };
}

function blockedSummary(b: BlockedTrigger): z.infer<typeof BlockedRow> {
  return defined({
    kind: b.kind,
    file: b.file,
    index: b.index < 0 ? undefined : b.index,
    name: clipName(b.name),
    dataset: b.dataset,
    reasons: b.reasons.slice(0, 10).map((r) => clip(r, 500)),
  });
}

export async function planTool(
  input: ToolInputs['obs_plan'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof PlanOutput>> {
  const { files, problems } = await host.files.read(input.paths ?? [], 'every kind', signal);
  const planned = await host.files.plan(files, input.prune === true, signal);
  const { plan, notes } = planned;
  const changes = firstOf(plan.changes, LIMITS.planEntries);
  const blocked = firstOf(plan.blocked, LIMITS.planEntries);
  const planId = plan.changes.length > 0 ? host.rememberPlan?.(planned) : undefined;
  return defined({
    target: host.target(),
    files_read: plan.files.length,
    counts: planCounts(plan),
    changes: changes.items.map(changeSummary),
    changes_truncated: changes.truncated,
    blocked: blocked.items.map(blockedSummary),
    blocked_truncated: blocked.truncated,
    notes: notes.length > 0 ? notes.slice(0, 20).map((n) => clip(n)) : undefined,
    problems: problems.length > 0 ? problems.slice(0, 20).map((p) => clip(p)) : undefined,
    plan_id: planId,
    next:
      plan.changes.length === 0
        ? 'nothing to apply'
        : planId !== undefined
          ? 'to apply exactly this plan, call obs_apply_plan with plan_id: the user is shown every change and asked to confirm; nothing is written otherwise'
          : "this server does not write: a person applies the plan (the editor's Apply command, or `obs plan --out` and `obs apply` in CI)",
  });
}
