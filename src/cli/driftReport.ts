// The reports of `obs drift`: text for people, JSON for scripts, SARIF for code scanning (each
// difference located at its member in the file).
import { pathToFileURL } from 'node:url';
import { isAbsolute } from 'node:path';
import { repository, version } from '../../package.json';
import { visible, visibleJson } from './visible';
import { differenceText, type DriftCounts, type FileDrift, type ServiceTrigger, datasetOf } from '../triggerFiles';
import { jsonLocator, pathOf } from './jsonPlace';

export interface DriftRun {
  files: FileDrift[];
  onlyOnService: ServiceTrigger[];
  counts: DriftCounts;
  /** Texts of the files, for locating members in SARIF. */
  texts: Map<string, string>;
}

const triggerLabel = (name: string | undefined, id: string | undefined) =>
  [name === undefined ? undefined : JSON.stringify(name), id === undefined ? undefined : `(${id})`]
    .filter(Boolean)
    .join(' ');

function countsText(c: DriftCounts): string {
  return `${c.inSync} in sync, ${c.differs} differ, ${c.localOnly} only local, ${c.serviceOnly} only on the service${c.unknown > 0 ? `, ${c.unknown} not compared` : ''}`;
}

/** "3 files compared: 2 in sync, 1 differ, 0 only local, 0 only on the service" */
export function driftSummary(run: Pick<DriftRun, 'files' | 'counts'>): string {
  return `${run.files.length} file${run.files.length === 1 ? '' : 's'} compared: ${countsText(run.counts)}`;
}

/** One finding of a drift as every report says it: a line naming it, and the lines under it. */
export interface DriftFinding {
  kind: 'differs' | 'local-only' | 'not-compared' | 'service-only';
  /** The file it is about, and the member there: the trigger's place, then the first member that differs. */
  file?: string;
  path: (string | number)[];
  head: string;
  lines: string[];
}

/** What a drift found, file by file in the order read, then the triggers only on the service. */
export function driftFindings(run: Pick<DriftRun, 'files' | 'onlyOnService'>): DriftFinding[] {
  const found: DriftFinding[] = [];
  for (const f of run.files) {
    const file = f.file;
    if (f.reason !== undefined) {
      found.push({ kind: 'not-compared', file, path: [], head: `${file}: not compared: ${f.reason}`, lines: [] });
      continue;
    }
    for (const t of f.triggers) {
      const at = `${file}${t.index >= 0 ? `[${t.index}]` : ''}`;
      const base = t.index >= 0 ? [t.index] : [];
      if (t.status === 'differs') {
        const head = `${at}: differs from the service: ${triggerLabel(t.name, t.service?.id)}`;
        const first = t.differences[0];
        const path = first === undefined ? base : [...base, ...pathOf(first.path)];
        found.push({ kind: 'differs', file, path, head, lines: t.differences.map((d) => differenceText(d, 120)) });
      } else if (t.status === 'local-only') {
        found.push({ kind: 'local-only', file, path: base, head: `${at}: only local: ${t.reason ?? ''}`, lines: [] });
      } else if (t.status === 'unknown') {
        found.push({
          kind: 'not-compared',
          file,
          path: base,
          head: `${at}: not compared: ${t.reason ?? ''}`,
          lines: [],
        });
      }
    }
  }
  for (const t of run.onlyOnService) {
    const head = `${datasetOf(t, '')}: only on the service: ${triggerLabel(t.name, t.id)}`;
    found.push({ kind: 'service-only', path: [], head, lines: [] });
  }
  return found;
}

export function driftText(run: DriftRun): string {
  const lines = driftFindings(run).flatMap((f) => [f.head, ...f.lines.map((l) => `  ${l}`)]);
  lines.push(driftSummary(run));
  return `${lines.map(visible).join('\n')}\n`;
}

export function driftJson(run: DriftRun): string {
  return `${visibleJson({
    counts: run.counts,
    files: run.files.map((f) => ({
      file: f.file,
      status: f.status,
      ...(f.reason !== undefined ? { reason: f.reason } : {}),
      triggers: f.triggers.map((t) => ({
        index: t.index,
        status: t.status,
        name: t.name,
        dataset: t.dataset,
        id: t.service?.id,
        ...(t.reason !== undefined ? { reason: t.reason } : {}),
        differences: t.differences.map((d) => ({ path: d.path, service: d.service, local: d.local })),
      })),
    })),
    onlyOnService: run.onlyOnService.map((t) => ({ dataset: datasetOf(t, ''), id: t.id, name: t.name })),
  })}\n`;
}

const RULES = [
  { id: 'drift/differs', level: 'error', text: "The trigger file differs from the service's trigger." },
  { id: 'drift/local-only', level: 'error', text: 'The trigger file has no trigger on the service.' },
  { id: 'drift/service-only', level: 'error', text: 'A trigger on the service has no file.' },
  { id: 'drift/not-compared', level: 'error', text: 'The trigger file could not be compared with the service.' },
] as const;

function artifact(file: string): { uri: string; uriBaseId?: string } {
  if (isAbsolute(file)) return { uri: pathToFileURL(file).href };
  return { uri: encodeURI(file.split('\\').join('/')), uriBaseId: '%SRCROOT%' };
}

/** The SARIF region of the member at `path` (or its nearest parent); the whole first line when not found. */
function region(locate: ReturnType<typeof jsonLocator>, path: (string | number)[]): object {
  const range = locate(path);
  if (range === undefined) return { startLine: 1, startColumn: 1 };
  const { start, end } = range;
  return { startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column };
}

export function driftSarif(run: DriftRun): object {
  const results: object[] = [];
  const rule = (id: (typeof RULES)[number]['id']) => ({
    ruleId: id,
    ruleIndex: RULES.findIndex((r) => r.id === id),
    level: 'error',
  });
  for (const f of run.files) {
    // A file nested too deep to parse (not compared anyway) is located at its first line.
    const locate = jsonLocator(run.texts.get(f.file) ?? '');
    const at = (path: (string | number)[]) => [
      { physicalLocation: { artifactLocation: artifact(f.file), region: region(locate, path) } },
    ];
    if (f.reason !== undefined)
      results.push({
        ...rule('drift/not-compared'),
        message: { text: `Not compared: ${f.reason}` },
        locations: at([]),
      });
    for (const t of f.triggers) {
      const base = t.index >= 0 ? [t.index] : [];
      if (t.status === 'differs') {
        for (const d of t.differences)
          results.push({
            ...rule('drift/differs'),
            message: { text: `Differs from the service: ${differenceText(d, 200)}` },
            locations: at([...base, ...pathOf(d.path)]),
          });
      } else if (t.status === 'local-only') {
        results.push({
          ...rule('drift/local-only'),
          message: { text: `Only local: ${t.reason ?? ''}` },
          locations: at(base),
        });
      } else if (t.status === 'unknown') {
        results.push({
          ...rule('drift/not-compared'),
          message: { text: `Not compared: ${t.reason ?? ''}` },
          locations: at(base),
        });
      }
    }
  }
  for (const t of run.onlyOnService) {
    results.push({
      ...rule('drift/service-only'),
      message: { text: `Only on the service: ${triggerLabel(t.name, t.id)} in ${datasetOf(t, '')}` },
    });
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'obs-lint drift',
            version,
            informationUri: `${repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/docs/TRIGGER-FILES.md`,
            rules: RULES.map((r) => ({
              id: r.id,
              shortDescription: { text: r.text },
              defaultConfiguration: { level: r.level },
            })),
          },
        },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}
