// A trigger file read for drift and pull: one trigger object, or an array of them (as GET
// /1/triggers returns them). Only what matching needs is taken from it. No vscode import.
import { canonicalDatasetSlug } from './normalize';
import type { Outcome } from '../result';

export interface LocalTrigger {
  /** The trigger's place in a file holding an array; -1 for a file of one trigger. */
  index: number;
  value: Record<string, unknown>;
  /** The service's id of the trigger, when the file links it. */
  id?: string;
  /** The dataset, canonical (`all` for environment-wide). */
  dataset?: string;
  name?: string;
  /** Its recipients named by type and target, as resolved against the team (absent when none was resolved). */
  resolution?: TriggerRecipientsResolution;
}

interface TriggerRecipientsResolution {
  references: { type: string; target: string; id: string }[];
  /** References that name no one recipient of the team (or the team's list was not read), and why. */
  refusals: { type: string; target: string; reason: string }[];
}

export type LocalFile = Outcome<{ triggers: LocalTrigger[] }>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function entry(value: Record<string, unknown>, index: number): LocalTrigger {
  const t: LocalTrigger = { index, value };
  if (typeof value.id === 'string' && value.id !== '') t.id = value.id;
  if (typeof value.dataset_slug === 'string' && value.dataset_slug !== '')
    t.dataset = canonicalDatasetSlug(value.dataset_slug);
  if (typeof value.name === 'string') t.name = value.name;
  return t;
}

/** Reads a trigger file's text (a byte order mark allowed). Never throws. */
export function readTriggerFile(text: string): LocalFile {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    return { ok: false, reason: `the file is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  if (isRecord(value)) return { ok: true, triggers: [entry(value, -1)] };
  if (Array.isArray(value)) {
    const bad = value.findIndex((v) => !isRecord(v));
    if (bad >= 0) return { ok: false, reason: `element ${bad} of the file is not a trigger object` };
    return { ok: true, triggers: value.map((v, i) => entry(v as Record<string, unknown>, i)) };
  }
  return { ok: false, reason: 'the file holds no trigger object' };
}

/**
 * A read file's triggers as if they named no id, so that each is matched by dataset and name: files whose ids
 * are another environment's (the same files applied to staging and production).
 */
export function withoutIds(read: LocalFile): LocalFile {
  if (!read.ok) return read;
  return {
    ok: true,
    triggers: read.triggers.map(({ id: _id, ...t }) => {
      const { id: _member, ...value } = t.value;
      return { ...t, value };
    }),
  };
}
