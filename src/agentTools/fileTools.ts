// obs_drift and obs_plan: the trigger files of the host against the service. Drift is the comparison of
// `obs drift`; the plan is the host's (with the gates of `obs plan`). Both answer counts first, then the
// entries that need attention, bounded; member values are given as short texts.
import {
  datasetsOfFiles,
  differenceText,
  driftCounts,
  driftOfFile,
  listDatasets,
  onlyOnService,
  PacedPool,
  planCounts,
  readTriggerFile,
  ServiceIndex,
  type BlockedTrigger,
  type Difference,
  type FileDrift,
  type LocalFile,
  type PlannedChange,
} from '../triggerFiles';
import { clip, clipName, defined, firstOf, LIMITS } from './answer';
import type { SourceFile, ToolHost } from './context';
import type { ToolInputs } from './inputs';

/** List calls made at once, as `obs drift` does by default. */
const CONCURRENCY = 4;

function localFileOf(f: SourceFile): LocalFile {
  return f.text === undefined ? { ok: false, reason: f.problem ?? 'it could not be read' } : readTriggerFile(f.text);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A value with the values of webhook variables replaced: a team may keep a token in one (a header, say), and an
 * answer goes to a model. The names stay, so a difference still says which variable changed.
 */
function withoutVariableValues(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutVariableValues);
  if (!isRecord(v)) return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, inner]) =>
      k === 'variables' && Array.isArray(inner) ? [k, inner.map((x: unknown) => (isRecord(x) && 'value' in x ? { ...x, value: NOT_SHOWN } : x))] : [k, withoutVariableValues(inner)],
    ),
  );
}

const NOT_SHOWN = '(not shown)';
/** `recipients[0].details.variables[1].value`: a variable's value on its own. */
const VARIABLE_VALUE = /(^|\.)variables\[\d+\]\.value$/;

function shownDifference(d: Difference): Difference {
  if (VARIABLE_VALUE.test(d.path)) return { ...d, service: d.service === undefined ? undefined : NOT_SHOWN, local: d.local === undefined ? undefined : NOT_SHOWN };
  return d.member === 'recipients' ? { ...d, service: withoutVariableValues(d.service), local: withoutVariableValues(d.local) } : d;
}

const differences = (list: readonly Difference[]) => {
  const { items, truncated } = firstOf(list, LIMITS.differences);
  return { differences: items.map((d) => differenceText(shownDifference(d), 120)), ...(truncated ? { differences_total: list.length } : {}) };
};

function fileSummary(f: FileDrift): Record<string, unknown> {
  const triggers = f.triggers.filter((t) => t.status !== 'in-sync');
  return defined({
    file: f.file,
    status: f.status,
    reason: clip(f.reason),
    triggers: triggers.slice(0, 20).map((t) =>
      defined({ index: t.index < 0 ? undefined : t.index, name: clipName(t.name), dataset: t.dataset, status: t.status, service_id: t.service?.id, reason: clip(t.reason), ...differences(t.differences) }),
    ),
  });
}

export async function driftTool(input: ToolInputs['obs_drift'], host: ToolHost, signal: AbortSignal): Promise<Record<string, unknown>> {
  const { files, problems } = await host.files.read(input.paths ?? [], signal);
  const reads = files.map((f) => ({ file: f.file, read: localFileOf(f) }));
  const service = await host.service();
  const index = new ServiceIndex();
  const listings = await listDatasets(service, [...datasetsOfFiles(reads.map((r) => r.read))].sort(), new PacedPool({ concurrency: CONCURRENCY }), signal);
  const failures: { dataset: string; message: string }[] = [];
  for (const [dataset, listing] of listings) {
    index.add(dataset, listing);
    if (listing.state === 'failed') failures.push({ dataset, message: clip(listing.message) ?? '' });
  }
  const drift = reads.map((r) => driftOfFile(r.file, r.read, index));
  const only = onlyOnService(drift, index);
  const attention = drift.filter((f) => f.status !== 'in-sync');
  const shown = firstOf(attention, LIMITS.planEntries);
  const serviceOnly = firstOf(only, LIMITS.planEntries);
  return {
    target: host.target(),
    files_read: files.length,
    counts: driftCounts(drift, only),
    files: shown.items.map(fileSummary),
    files_truncated: shown.truncated,
    only_on_service: serviceOnly.items.map((t) => defined({ dataset: t.dataset_slug, id: t.id, name: clipName(t.name) })),
    only_on_service_truncated: serviceOnly.truncated,
    ...(failures.length > 0 ? { listing_failures: failures.slice(0, 20) } : {}),
    ...(problems.length > 0 ? { problems: problems.slice(0, 20).map((p) => clip(p)) } : {}),
  };
}

function changeSummary(c: PlannedChange): Record<string, unknown> {
  const name = clipName(c.name);
  if (c.action === 'delete') return { action: 'delete', dataset: c.dataset, id: c.id, name };
  if (c.action === 'create') return { action: 'create', dataset: c.dataset, name, file: c.file, ...(c.index >= 0 ? { index: c.index } : {}) };
  return { action: 'update', dataset: c.dataset, name, id: c.id, file: c.file, ...(c.index >= 0 ? { index: c.index } : {}), matched_by: c.matchedBy, ...differences(c.differences) };
}

function blockedSummary(b: BlockedTrigger): Record<string, unknown> {
  return defined({ file: b.file, index: b.index < 0 ? undefined : b.index, name: clipName(b.name), dataset: b.dataset, reasons: b.reasons.slice(0, 10).map((r) => clip(r, 500)) });
}

export async function planTool(input: ToolInputs['obs_plan'], host: ToolHost, signal: AbortSignal): Promise<Record<string, unknown>> {
  const { files, problems } = await host.files.read(input.paths ?? [], signal);
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
          : 'this server does not write: a person applies the plan (the editor\'s Apply command, or `obs plan --out` and `obs apply` in CI)',
  });
}
