// The reports of `obs drift`: text for people, JSON for scripts, SARIF for code scanning (each
// difference located at its member in the file).
import { pathToFileURL } from 'node:url';
import { isAbsolute } from 'node:path';
import { repository, version } from '../../package.json';
import { visible, visibleJson } from './visible';
import {
  differenceText,
  type DriftCounts,
  type FileDrift,
  type ServiceTrigger,
  type SloFileDrift,
  datasetOf,
} from '../triggerFiles';
import { jsonLocator, pathOf } from './jsonPlace';
import type { PlanKind } from '../triggerFiles';

export interface DriftRun {
  files: FileDrift[];
  onlyOnService: ServiceTrigger[];
  /** The burn alert and definitions files, in the order read. */
  sloFiles: SloFileDrift[];
  /** Of the triggers and of the burn alert and definitions files together. */
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
export function driftSummary(run: Pick<DriftRun, 'files' | 'sloFiles' | 'counts'>): string {
  const n = run.files.length + run.sloFiles.length;
  return `${n} file${n === 1 ? '' : 's'} compared: ${countsText(run.counts)}`;
}

/** One finding of a drift as every report says it: a line naming it, and the lines under it. */
export interface DriftFinding {
  kind: 'differs' | 'local-only' | 'not-compared' | 'service-only';
  /** The kind of file it is about: burn alert and definitions files are reported after the triggers. */
  of: PlanKind;
  /** The file it is about, and the member there: the trigger's place, then the first member that differs. */
  file?: string;
  path: (string | number)[];
  head: string;
  lines: string[];
}

/** What a drift found: trigger files in the order read, the triggers only on the service, then the other kinds. */
export function driftFindings(run: Pick<DriftRun, 'files' | 'onlyOnService' | 'sloFiles'>): DriftFinding[] {
  const triggers = triggerFindings(run).map((f): DriftFinding => ({ ...f, of: 'trigger' }));
  return [...triggers, ...sloSections(run).flatMap((s) => s.findings)];
}

function triggerFindings(run: Pick<DriftRun, 'files' | 'onlyOnService'>): Omit<DriftFinding, 'of'>[] {
  const found: Omit<DriftFinding, 'of'>[] = [];
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

/** A burn alert or definitions file's finding; none when it is in sync. */
function sloFinding(f: SloFileDrift): DriftFinding | undefined {
  const about = { of: f.kind, file: f.file };
  if (f.status === 'unknown')
    return {
      ...about,
      kind: 'not-compared',
      path: [],
      head: `${f.file}: cannot be compared: ${f.reason ?? ''}`,
      lines: [],
    };
  const first = f.differences[0];
  if (f.status === 'in-sync' || first === undefined) return undefined;
  const label = triggerLabel(f.name, f.kind === 'burn-alert' ? f.id : undefined);
  const lines = f.differences.map((d) => differenceText(d, 120));
  return {
    ...about,
    kind: 'differs',
    path: pathOf(first.path),
    head: `${f.file}: differs from the service: ${label}`,
    lines,
  };
}

/** The burn alert and definitions files, a section of each kind: every file, said in sync or with its finding. */
export interface SloSection {
  title: string;
  findings: DriftFinding[];
  /** Each file as said, in the order read: its finding's head and lines, or that it is in sync. */
  items: { head: string; lines: string[] }[];
}

const SLO_SECTIONS = [
  { kind: 'burn-alert', title: 'Burn alerts (service value -> file value):' },
  { kind: 'definitions', title: 'Definitions (service value -> file value):' },
] as const;

export function sloSections(run: Pick<DriftRun, 'sloFiles'>): SloSection[] {
  return SLO_SECTIONS.flatMap(({ kind, title }) => {
    const files = run.sloFiles.filter((f) => f.kind === kind);
    if (files.length === 0) return [];
    const said = files.map((f) => ({ file: f.file, finding: sloFinding(f) }));
    const findings = said.flatMap((s) => (s.finding === undefined ? [] : [s.finding]));
    const items = said.map((s) => s.finding ?? { head: `${s.file}: in sync`, lines: [] });
    return [{ title, findings, items }];
  });
}

export function driftText(run: DriftRun): string {
  const lines = triggerFindings(run).flatMap((f) => [f.head, ...f.lines.map((l) => `  ${l}`)]);
  for (const section of sloSections(run))
    lines.push(section.title, ...section.items.flatMap((i) => [`  ${i.head}`, ...i.lines.map((l) => `    ${l}`)]));
  lines.push(driftSummary(run));
  return `${lines.map(visible).join('\n')}\n`;
}

export function driftJson(run: DriftRun): string {
  return `${visibleJson({
    counts: run.counts,
    files: [
      ...run.files.map((f) => ({
        file: f.file,
        kind: 'trigger',
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
      ...run.sloFiles.map((f) => ({
        file: f.file,
        kind: f.kind,
        status: f.status,
        ...(f.reason !== undefined ? { reason: f.reason } : {}),
        dataset: f.dataset,
        name: f.name,
        id: f.id,
        differences: f.differences.map((d) => ({ path: d.path, service: d.service, local: d.local })),
      })),
    ],
    onlyOnService: run.onlyOnService.map((t) => ({ dataset: datasetOf(t, ''), id: t.id, name: t.name })),
  })}\n`;
}

const RULES = [
  {
    id: 'drift/differs',
    level: 'error',
    text: "The file differs from the service's trigger, burn alert or definitions.",
  },
  { id: 'drift/local-only', level: 'error', text: 'The trigger file has no trigger on the service.' },
  { id: 'drift/service-only', level: 'error', text: 'A trigger on the service has no file.' },
  { id: 'drift/not-compared', level: 'error', text: 'The file could not be compared with the service.' },
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

type RuleOf = (id: (typeof RULES)[number]['id']) => object;

/** A burn alert or definitions file's results: each difference at its member, or why it was not compared. */
function sloSarif(run: DriftRun, rule: RuleOf): object[] {
  return run.sloFiles.flatMap((f) => {
    const locate = jsonLocator(run.texts.get(f.file) ?? '');
    const at = (path: (string | number)[]) => [
      { physicalLocation: { artifactLocation: artifact(f.file), region: region(locate, path) } },
    ];
    if (f.status === 'unknown')
      return [
        { ...rule('drift/not-compared'), message: { text: `Not compared: ${f.reason ?? ''}` }, locations: at([]) },
      ];
    return f.differences.map((d) => ({
      ...rule('drift/differs'),
      message: { text: `Differs from the service: ${differenceText(d, 200)}` },
      locations: at(pathOf(d.path)),
    }));
  });
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
  results.push(...sloSarif(run, rule));
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
