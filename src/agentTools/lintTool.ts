// obs_lint_trigger: the linter on a trigger text, with the live columns of the datasets it names when the
// service lists them. The answer names each diagnostic's rule id, severity, line and member, bounded.
import * as z from 'zod';
import type { DatasetColumns, Diagnostic } from '../lint';
import { canonicalDatasetSlug } from '../triggerFiles';
import { clip, defined, firstOf, LIMITS } from './answer';
import type { ServiceReader, ToolHost } from './context';
import { failureText, statusOf } from './failures';
import type { ToolInputs } from './inputs';

/** At most this many datasets' columns are read for one lint. */
const MAX_DATASETS = 10;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The dataset slugs a trigger text names (`__all__` for environment-wide), or none when it is not JSON. */
function datasetsNamed(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return [];
  }
  const triggers = Array.isArray(value) ? value : [value];
  const slugs = triggers.flatMap((t) =>
    isRecord(t) && typeof t.dataset_slug === 'string' && t.dataset_slug !== '' ? [t.dataset_slug] : [],
  );
  return [...new Set(slugs.map((s) => (canonicalDatasetSlug(s) === 'all' ? '__all__' : s)))].sort();
}

async function liveColumns(
  service: ServiceReader,
  datasets: readonly string[],
  signal: AbortSignal,
  notes: string[],
): Promise<Record<string, DatasetColumns>> {
  const out: Record<string, DatasetColumns> = {};
  if (datasets.length > MAX_DATASETS) notes.push(`only the columns of the first ${MAX_DATASETS} datasets were checked`);
  for (const dataset of datasets.slice(0, MAX_DATASETS)) {
    try {
      const columns = (await service.listColumns(dataset, { signal })).data;
      out[dataset] = {
        names: columns.map((c) => c.key_name),
        hidden: columns.filter((c) => c.hidden === true).map((c) => c.key_name),
      };
    } catch (e) {
      if (signal.aborted) throw e;
      notes.push(
        statusOf(e) === 404
          ? `dataset ${JSON.stringify(dataset)} was not found on the service: its columns were not checked`
          : `the columns of ${JSON.stringify(dataset)} were not checked: ${failureText(e)}`,
      );
    }
  }
  return out;
}

const DiagnosticRow = z.object({
  rule: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  member: z.string().optional(),
  fix: z.string().optional().describe('What the quick fix of the editor would do.'),
});

export const LintOutput = z.object({
  errors: z.number().int(),
  warnings: z.number().int(),
  infos: z.number().int(),
  total: z.number().int(),
  returned: z.number().int(),
  truncated: z.boolean(),
  columns_checked: z.array(z.string()).describe('The datasets whose live columns the query was checked against.'),
  diagnostics: z.array(DiagnosticRow),
  notes: z.array(z.string()).optional(),
});

function diagnosticSummary(d: Diagnostic): z.infer<typeof DiagnosticRow> {
  return defined({
    rule: d.rule,
    severity: d.severity,
    message: clip(d.message, 500),
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    member:
      d.path.length === 0
        ? undefined
        : d.path
            .map((p) => (typeof p === 'number' ? `[${p}]` : p))
            .join('.')
            .replace(/\.\[/g, '['),
    fix: d.fix === undefined ? undefined : clip(d.fix.title, 200),
  });
}

export async function lintTool(
  input: ToolInputs['obs_lint_trigger'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof LintOutput>> {
  const notes: string[] = [];
  let columns: Record<string, DatasetColumns> | undefined;
  const datasets = datasetsNamed(input.text);
  if (input.check_columns !== false && datasets.length > 0) {
    try {
      columns = await liveColumns(await host.service(), datasets, signal, notes);
    } catch (e) {
      if (signal.aborted) throw e;
      notes.push(`the columns were not checked: ${failureText(e)}`);
    }
  }
  const diagnostics = await host.lint(input.text, columns, signal);
  const count = (s: Diagnostic['severity']) => diagnostics.filter((d) => d.severity === s).length;
  // Errors first, then warnings, then the rest; each in the order of the text.
  const rank = { error: 0, warning: 1, info: 2 } as const;
  const ordered = [...diagnostics].sort((a, b) => rank[a.severity] - rank[b.severity]);
  const { items, truncated } = firstOf(ordered, LIMITS.diagnostics);
  return {
    errors: count('error'),
    warnings: count('warning'),
    infos: count('info'),
    total: diagnostics.length,
    returned: items.length,
    truncated,
    columns_checked: columns === undefined ? [] : Object.keys(columns).sort(),
    diagnostics: items.map(diagnosticSummary),
    ...(notes.length > 0 ? { notes } : {}),
  };
}
