// obs_get_trigger: one trigger whole, from the service (dataset and id) or from a trigger file (its path), in
// the canonical form of a trigger file (normalize.ts: what pull writes and drift compares, defaults left out),
// with what it does in words. Bounded like every answer: a text longer than any the service takes is cut,
// saying how long it was, and so is a list of more entries than a trigger has; a webhook variable's value is
// never shown (hidden.ts).
import * as z from 'zod';
import { normalize, readTriggerFile, TriggerTooDeep } from '../triggerFiles';
import { clip, defined, firstOf, ToolError } from './answer';
import type { ToolHost } from './context';
import { notFound } from './failures';
import { withoutVariableValues } from './hidden';
import type { ToolInputs } from './inputs';
import { triggerInWords } from './queryWords';

/** Characters of a text in a trigger: more than the service takes in any member (a description, 1,023). */
const TEXT = 2_000;
/** Entries of a list in a trigger (recipients, filters, calculations). */
const ENTRIES = 100;
/** Triggers of one file answered. */
const FILE_TRIGGERS = 20;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value with each text and list cut to its bound; each list cut is named in `cuts` with its length. */
function bounded(v: unknown, path: string, cuts: string[]): unknown {
  if (typeof v === 'string') return clip(v, TEXT);
  if (Array.isArray(v)) {
    if (v.length > ENTRIES) cuts.push(`${path}: ${ENTRIES} of ${v.length} entries`);
    return v.slice(0, ENTRIES).map((x, i) => bounded(x, `${path}[${i}]`, cuts));
  }
  if (!isRecord(v)) return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [clip(k, TEXT), bounded(x, path === '' ? k : `${path}.${k}`, cuts)]),
  );
}

const TriggerEntry = z.object({
  index: z.number().int().optional().describe("Its place in the file's array; absent for a file of one trigger."),
  trigger: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The trigger in the canonical form of a trigger file.'),
  in_words: z.string().optional().describe('What the trigger does, in one sentence.'),
  cut: z.array(z.string()).optional().describe('The lists cut to fit, with how many entries each had.'),
  problem: z.string().optional().describe('Why this entry could not be read.'),
});

export const GetTriggerOutput = z.object({
  source: z.enum(['service', 'file']),
  dataset: z.string().optional(),
  file: z.string().optional(),
  triggers_total: z.number().int(),
  triggers_truncated: z.boolean(),
  triggers: z.array(TriggerEntry),
  note: z.string(),
});

const NOTE =
  'The canonical form of a trigger file (pull writes it; members at their default value are left out). Values of webhook variables are not shown.';

function entryOf(value: Record<string, unknown>, index: number): z.infer<typeof TriggerEntry> {
  const cuts: string[] = [];
  try {
    const canonical = bounded(withoutVariableValues(normalize(value)), '', cuts);
    return defined({
      index: index < 0 ? undefined : index,
      trigger: isRecord(canonical) ? canonical : {},
      in_words: triggerInWords(value),
      cut: cuts.length > 0 ? cuts : undefined,
    });
  } catch (e) {
    if (e instanceof TriggerTooDeep) return defined({ index: index < 0 ? undefined : index, problem: e.message });
    throw e;
  }
}

async function fromService(
  dataset: string,
  triggerId: string,
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof GetTriggerOutput>> {
  let trigger;
  try {
    trigger = (await (await host.service()).getTrigger(dataset, triggerId, { signal })).data;
  } catch (e) {
    throw notFound(e, `trigger ${JSON.stringify(triggerId)} of dataset ${JSON.stringify(dataset)}`);
  }
  return {
    source: 'service',
    dataset,
    triggers_total: 1,
    triggers_truncated: false,
    triggers: [entryOf(trigger, -1)],
    note: NOTE,
  };
}

async function fromFile(path: string, host: ToolHost, signal: AbortSignal): Promise<z.infer<typeof GetTriggerOutput>> {
  const { files, problems } = await host.files.read([path], 'triggers', signal);
  const [file, ...others] = files;
  if (file === undefined) throw new ToolError(problems[0] ?? `${JSON.stringify(path)} names no trigger file`);
  if (others.length > 0)
    throw new ToolError(`${JSON.stringify(path)} names ${files.length} trigger files: name one file`);
  if (file.text === undefined)
    throw new ToolError(`${file.file} was not read: ${file.problem ?? 'it could not be read'}`);
  const read = readTriggerFile(file.text);
  if (!read.ok) throw new ToolError(`${file.file} holds no trigger to read: ${read.reason}`);
  const shown = firstOf(read.triggers, FILE_TRIGGERS);
  return {
    source: 'file',
    file: file.file,
    triggers_total: shown.total,
    triggers_truncated: shown.truncated,
    triggers: shown.items.map((t) => entryOf(t.value, t.index)),
    note: NOTE,
  };
}

export async function getTriggerTool(
  input: ToolInputs['obs_get_trigger'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof GetTriggerOutput>> {
  if (input.path !== undefined && input.dataset === undefined && input.trigger_id === undefined)
    return fromFile(input.path, host, signal);
  if (input.path === undefined && input.dataset !== undefined && input.trigger_id !== undefined)
    return fromService(input.dataset, input.trigger_id, host, signal);
  throw new ToolError('give dataset and trigger_id (a trigger on the service), or path (a trigger file)');
}
