// What commands on tree items receive: the item's node when run from the view, but anything at all when
// run from the palette, a keybinding or another extension. Each command parses its argument with one of
// these schemas (only the members it uses) instead of casting it. No vscode import.
import * as z from 'zod';
import { BurnAlert, Trigger } from '../../api/schemas';
import { apiKeysId, datasetId, GROUP_KINDS, groupId, sloId } from './nodes';

const connectionId = z.string();

export const DatasetArg = z.looseObject({ kind: z.literal('dataset'), connectionId, slug: z.string(), discovered: z.boolean().optional() });
export const GroupArg = z.looseObject({ kind: z.literal('group'), connectionId, dataset: z.string() });
export const SloArg = z.looseObject({ kind: z.literal('slo'), connectionId, dataset: z.string(), sloId: z.string() });
export const TriggerArg = z.looseObject({ kind: z.literal('trigger'), connectionId, dataset: z.string(), trigger: Trigger });
export const BurnAlertArg = z.looseObject({ kind: z.literal('burnAlert'), connectionId, dataset: z.string(), sloId: z.string(), alert: BurnAlert });
export const ApiKeysArg = z.looseObject({ kind: z.literal('apiKeys'), connectionId });
export const ApiKeyArg = z.looseObject({
  kind: z.literal('apiKey'),
  connectionId,
  key: z.looseObject({ id: z.string().min(1), name: z.string(), disabled: z.boolean() }),
});
export const ErrorArg = z.looseObject({ kind: z.literal('error'), parentId: z.string() });

export type TriggerArg = z.infer<typeof TriggerArg>;

/** Parses `arg` with `schema`; undefined when it does not fit (the command then does nothing or asks). */
export function parseArg<T>(schema: z.ZodType<T>, arg: unknown): T | undefined {
  const parsed = schema.safeParse(arg);
  return parsed.success ? parsed.data : undefined;
}

const AnyItem = z.looseObject({ kind: z.string(), connectionId: z.string().optional(), dataset: z.string().optional(), slug: z.string().optional() });

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

const IdCarrier = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('dataset'), slug: z.string() }),
  z.looseObject({ kind: z.literal('column'), column: z.looseObject({ id: z.string().optional(), key_name: z.string() }) }),
  z.looseObject({ kind: z.literal('trigger'), trigger: z.looseObject({ id: z.string() }) }),
  z.looseObject({ kind: z.literal('slo'), sloId: z.string() }),
  z.looseObject({ kind: z.literal('burnAlert'), alert: z.looseObject({ id: z.string() }) }),
  z.looseObject({ kind: z.literal('apiKey'), key: z.looseObject({ id: z.string() }) }),
]);

/** The id "Copy Id" copies for an item; undefined for items without one. */
export function copyableId(arg: unknown): string | undefined {
  const item = parseArg(IdCarrier, arg);
  switch (item?.kind) {
    case 'dataset':
      return item.slug;
    case 'column':
      return item.column.id ?? item.column.key_name;
    case 'trigger':
      return item.trigger.id;
    case 'slo':
      return item.sloId;
    case 'burnAlert':
      return item.alert.id;
    case 'apiKey':
      return item.key.id;
    default:
      return undefined;
  }
}

const Refreshable = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('dataset'), connectionId, slug: z.string() }),
  z.looseObject({ kind: z.literal('group'), connectionId, dataset: z.string(), group: z.enum(GROUP_KINDS) }),
  z.looseObject({ kind: z.literal('slo'), connectionId, dataset: z.string(), sloId: z.string() }),
  z.looseObject({ kind: z.literal('apiKeys'), connectionId }),
]);

/** The id of the item whose children "Refresh" on an item reloads; undefined for anything else. */
export function refreshTarget(arg: unknown): string | undefined {
  const item = parseArg(Refreshable, arg);
  switch (item?.kind) {
    case 'dataset':
      return datasetId(item.connectionId, item.slug);
    case 'group':
      return groupId(item.connectionId, item.dataset, item.group);
    case 'slo':
      return sloId(item.connectionId, item.dataset, item.sloId);
    case 'apiKeys':
      return apiKeysId(item.connectionId);
    default:
      return undefined;
  }
}
