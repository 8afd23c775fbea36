// The reports of `obs drift`: text for people, JSON for scripts, SARIF for code scanning (each
// difference located at its member in the file).
import { pathToFileURL } from 'node:url';
import { isAbsolute } from 'node:path';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { repository, version } from '../../package.json';
import { visible, visibleJson } from './visible';
import {
  differenceText,
  type DriftCounts,
  type FileDrift,
  type ServiceTrigger,
  datasetOf,
  MAX_NESTING,
  textNestedDeeperThan,
} from '../triggerFiles';

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

export function driftText(run: DriftRun): string {
  const lines: string[] = [];
  for (const f of run.files) {
    if (f.reason !== undefined) {
      lines.push(`${f.file}: not compared: ${f.reason}`);
      continue;
    }
    for (const t of f.triggers) {
      const at = `${f.file}${t.index >= 0 ? `[${t.index}]` : ''}`;
      const label = triggerLabel(t.name, t.service?.id);
      if (t.status === 'in-sync') continue;
      if (t.status === 'differs') {
        lines.push(`${at}: differs from the service: ${label}`);
        for (const d of t.differences) lines.push(`  ${differenceText(d, 120)}`);
      } else if (t.status === 'local-only') {
        lines.push(`${at}: only local: ${t.reason ?? ''}`);
      } else {
        lines.push(`${at}: not compared: ${t.reason ?? ''}`);
      }
    }
  }
  for (const t of run.onlyOnService)
    lines.push(`${datasetOf(t, '')}: only on the service: ${triggerLabel(t.name, t.id)}`);
  lines.push(`${run.files.length} file${run.files.length === 1 ? '' : 's'} compared: ${countsText(run.counts)}`);
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

/** 1-based line and column of an offset. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** The region of the member at `path` (or its nearest parent) in the file; the whole first line when not found. */
function region(tree: Node | undefined, text: string, path: (string | number)[]): object {
  let node: Node | undefined;
  for (let n = path.length; node === undefined && n >= 0 && tree !== undefined; n--)
    node = findNodeAtLocation(tree, path.slice(0, n));
  const target = node?.parent?.type === 'property' ? node.parent : node;
  if (target === undefined) return { startLine: 1, startColumn: 1 };
  const s = position(text, target.offset);
  const e = position(text, target.offset + target.length);
  return { startLine: s.line, startColumn: s.column, endLine: e.line, endColumn: e.column };
}

/** `query.calculations[0].op` as a JSON path. */
function pathOf(text: string): (string | number)[] {
  return [...text.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : (m[1] ?? '')));
}

export function driftSarif(run: DriftRun): object {
  const results: object[] = [];
  const rule = (id: (typeof RULES)[number]['id']) => ({
    ruleId: id,
    ruleIndex: RULES.findIndex((r) => r.id === id),
    level: 'error',
  });
  for (const f of run.files) {
    const text = run.texts.get(f.file) ?? '';
    // parseTree recurses per level: a file nested too deep (not compared anyway) is located at its first line
    // (one level more than a trigger may have: a file may hold an array of triggers).
    const tree = textNestedDeeperThan(text, MAX_NESTING + 1) ? undefined : parseTree(text);
    const at = (path: (string | number)[]) => [
      { physicalLocation: { artifactLocation: artifact(f.file), region: region(tree, text, path) } },
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
