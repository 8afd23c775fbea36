// What commands on tree items receive: the item's node when run from the view, but anything at all when
// run from the palette, a keybinding or another extension. Each command parses its argument with one of
// these schemas (only the members it uses) instead of casting it. No vscode import.
import * as z from 'zod';
import { apiKeysId, datasetId, GROUP_KINDS, groupId, sloId } from './nodes';

const connectionId = z.string();

export const DatasetArg = z.looseObject({
  kind: z.literal('dataset'),
  connectionId,
  slug: z.string(),
  discovered: z.boolean().optional(),
  listed: z.looseObject({}).optional(),
});
const GroupArg = z.looseObject({
  kind: z.literal('group'),
  connectionId,
  dataset: z.string(),
  group: z.enum(GROUP_KINDS),
});
export const SloArg = z.looseObject({ kind: z.literal('slo'), connectionId, dataset: z.string(), sloId: z.string() });
export const ApiKeysArg = z.looseObject({ kind: z.literal('apiKeys'), connectionId });
export const ApiKeyArg = z.looseObject({
  kind: z.literal('apiKey'),
  connectionId,
  key: z.looseObject({ id: z.string().min(1), name: z.string(), disabled: z.boolean() }),
});
// Only what Copy Id reads: an item copied from anywhere needs no more than its id.
const ColumnArg = z.looseObject({
  kind: z.literal('column'),
  column: z.looseObject({ id: z.string().optional(), key_name: z.string() }),
});
const TriggerIdArg = z.looseObject({ kind: z.literal('trigger'), trigger: z.looseObject({ id: z.string() }) });
const BurnAlertIdArg = z.looseObject({ kind: z.literal('burnAlert'), alert: z.looseObject({ id: z.string() }) });
const ApiKeyIdArg = z.looseObject({ kind: z.literal('apiKey'), key: z.looseObject({ id: z.string() }) });
export const ErrorArg = z.looseObject({ kind: z.literal('error'), parentId: z.string() });

/** Parses `arg` with `schema`; undefined when it does not fit (the command then does nothing or asks). */
export function parseArg<T>(schema: z.ZodType<T>, arg: unknown): T | undefined {
  const parsed = schema.safeParse(arg);
  return parsed.success ? parsed.data : undefined;
}

const AnyItem = z.looseObject({
  kind: z.string(),
  connectionId: z.string().optional(),
  dataset: z.string().optional(),
  slug: z.string().optional(),
});

/** The dataset an item belongs to: a dataset's slug, or the `dataset` of anything below one. */
export function datasetOf(arg: unknown): string | undefined {
  const item = parseArg(AnyItem, arg);
  if (item === undefined) return undefined;
  return item.kind === 'dataset' ? item.slug : item.dataset;
}

/** The connection an item belongs to. */
export function connectionIdOf(arg: unknown): string | undefined {
  return parseArg(AnyItem, arg)?.connectionId;
}

/** The id "Copy Id" copies for an item; undefined for items without one. */
export function copyableId(arg: unknown): string | undefined {
  return (
    parseArg(DatasetArg, arg)?.slug ??
    parseArg(ColumnArg, arg)?.column.id ??
    parseArg(ColumnArg, arg)?.column.key_name ??
    parseArg(TriggerIdArg, arg)?.trigger.id ??
    parseArg(SloArg, arg)?.sloId ??
    parseArg(BurnAlertIdArg, arg)?.alert.id ??
    parseArg(ApiKeyIdArg, arg)?.key.id
  );
}

/** The id of the item whose children "Refresh" on an item reloads; undefined for anything else. */
export function refreshTarget(arg: unknown): string | undefined {
  const dataset = parseArg(DatasetArg, arg);
  if (dataset) return datasetId(dataset.connectionId, dataset.slug);
  const group = parseArg(GroupArg, arg);
  if (group) return groupId(group.connectionId, group.dataset, group.group);
  const slo = parseArg(SloArg, arg);
  if (slo) return sloId(slo.connectionId, slo.dataset, slo.sloId);
  const keys = parseArg(ApiKeysArg, arg);
  return keys && apiKeysId(keys.connectionId);
}
