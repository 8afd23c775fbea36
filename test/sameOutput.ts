// Proof that a change to the linter keeps its output: lints one corpus with this tree and with a git ref
// (each in a child process of its own) and compares every output, byte for byte. The corpus is the
// property tests' documents (test/unit/lint-generators.ts: generated, mutated as typing breaks them, JSON
// written any way, any text), files of many triggers (clean, broken, over the diagnostics cap), the
// fixtures and the examples of docs/rules.md, each linted with several option sets, and fix-all of a third.
//
//   node --import tsx test/sameOutput.ts --before <git ref> [--runs 6000]   (about 2 minutes on 2 cores)
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { bigArray, manyCalculations, serviceListed, triggers, unknownMembers } from '../bench/inputs';
import { document, mutated, mutatedMany, nearValidFile, triggerValue, writtenDocument } from './unit/lint-generators';

const root = join(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const runs = Number(option('--runs') ?? 6000);

interface Options {
  metricsDatasets?: string[];
  metricsDatasetHint?: (slug: string | undefined) => string;
  form?: 'file' | 'listed';
  maxDiagnostics?: number;
  columns?: Record<string, { names: string[]; hidden?: string[] }>;
}
interface Linter {
  lintReport(input: Uint8Array, options?: Options): unknown;
  fixAll(text: string, options?: Options): unknown;
}

const hint = (slug: string | undefined) => `name it with --metrics-dataset${slug === undefined ? '' : ` ${slug}`}`;
const OPTION_SETS: Options[] = [
  {},
  { metricsDatasets: ['metrics'] },
  { metricsDatasets: [], metricsDatasetHint: hint, maxDiagnostics: 1000 },
  { form: 'listed' },
  { maxDiagnostics: 2 },
  {
    metricsDatasets: ['metrics'],
    columns: {
      api: { names: ['duration_ms', 'status', 'route', 'c1'], hidden: ['status'] },
      metrics: { names: ['duration_ms'] },
    },
  },
];

/** Every *.json file under a folder. */
function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

/** The corpus, the same on every call: named documents. */
function corpus(): [string, string][] {
  const out: [string, string][] = [];
  const add = (name: string, docs: readonly string[]) => docs.forEach((d, i) => out.push([`${name}#${i}`, d]));
  add('generated', fc.sample(document, { numRuns: runs, seed: 4242 }));
  add('mutated', fc.sample(mutated, { numRuns: runs, seed: 1717 }));
  add('json', fc.sample(fc.json({ maxDepth: 4 }), { numRuns: runs / 2, seed: 99 }));
  add('written', fc.sample(writtenDocument, { numRuns: runs / 2, seed: 11 }));
  add('text', fc.sample(fc.string({ maxLength: 60, unit: 'binary' }), { numRuns: runs / 6, seed: 7 }));
  // Files of many triggers: past the diagnostics cap, with problems before and among them, broken.
  const many = fc
    .sample(fc.array(triggerValue, { minLength: 20, maxLength: 120 }), { numRuns: runs / 30, seed: 5 })
    .map((ts) => JSON.stringify(ts, null, 2));
  add('many', many);
  add(
    'many-broken',
    many.map((d, i) => d.slice(0, d.length - 1 - (i % 7) * 13)),
  );
  add(
    'many-duplicated',
    many.map((d) => d.replace(/"name": /g, '"name": "first", "name": ')),
  );
  add('many-mutated', fc.sample(mutatedMany, { numRuns: runs / 6, seed: 23 }));
  // Triggers valid member by member, or nearly: the linter's fast path, and broken as typing breaks them.
  const nearValid = fc.sample(nearValidFile, { numRuns: runs / 2, seed: 29 });
  add('near-valid', nearValid);
  add(
    'near-valid-broken',
    nearValid
      .filter((_, i) => i % 3 === 0)
      .map((d, i) => `${d.slice(0, (d.length * (1 + (i % 9))) / 10)}${i % 2 === 0 ? '' : ', {'}`),
  );
  add('bench', [
    triggers(300, false),
    triggers(300, true),
    serviceListed(300),
    unknownMembers(3000),
    manyCalculations(300),
    bigArray(300_000, false),
    bigArray(300_000, true),
    `${'['.repeat(600)}${']'.repeat(600)}`,
    `[{"name": "a", "query": ${'['.repeat(600)}${']'.repeat(600)}, "query": {"calculations": [{"op": "COUNT"}], "time_range": 900}}]`,
    `{"name": "x", "x": ${'{"a":'.repeat(700)}1${'}'.repeat(700)}}`,
    `[{"name": "a", "x": ${'['.repeat(600)}${']'.repeat(600)}}, {"name": 5}, 7, {"name": "b", "x": ${'['.repeat(600)}`,
    `[{"name": "a", "name": "b"}, {"name": "c" "x": 1}, {"name": "d", "d": 1, "d": 2}`,
    `[1, "x", null, [], {"name": "a"} {"name": "b"}]`,
  ]);
  for (const file of jsonFiles(join(root, 'test', 'fixtures', 'service'))) {
    const body = (JSON.parse(readFileSync(file, 'utf8')) as { body?: unknown }).body;
    if (body !== undefined) out.push([`fixture:${file.slice(root.length)}`, JSON.stringify(body, null, 2)]);
  }
  const rules = readFileSync(join(root, 'docs', 'rules.md'), 'utf8');
  add(
    'rules.md',
    [...rules.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => m[1] ?? ''),
  );
  return out;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 24);

/** In a child: lints the corpus with the linter of `tree`, printing one line per lint: its name and the hash of its output. */
async function child(tree: string): Promise<void> {
  const linter = (await import(join(tree, 'src', 'lint', 'index.ts'))) as Linter;
  const lines: string[] = [];
  corpus().forEach(([name, text], i) => {
    const bytes = Buffer.from(text, 'utf8');
    // Three option sets per document, rotating, so that each set meets every kind of document.
    for (let k = 0; k < 3; k++) {
      const set = (i + k * 2) % OPTION_SETS.length;
      const out = JSON.stringify(linter.lintReport(bytes, OPTION_SETS[set]));
      lines.push(`${name} lint/${set} ${sha(out)}`);
    }
    if (i % 3 === 0)
      lines.push(`${name} fixAll ${sha(JSON.stringify(linter.fixAll(text, OPTION_SETS[i % OPTION_SETS.length])))}`);
  });
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The source of a git ref, in a temp folder sharing this tree's node_modules. */
function sourceOf(ref: string): string {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `obs-same-${sha}`);
  if (!existsSync(join(dir, 'src'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C '${dir}'`], { cwd: root });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  }
  return dir;
}

function outputOf(tree: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      ['--import', 'tsx', import.meta.filename, '--child', tree, '--runs', String(runs)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const chunks: Buffer[] = [];
    p.stdout.on('data', (c: Buffer) => chunks.push(c));
    p.on('error', reject);
    p.on('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(chunks).toString('utf8').trim().split('\n'))
        : reject(new Error(`${tree}: exit ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const tree = option('--child');
  if (tree !== undefined) return child(tree);
  const before = option('--before');
  if (before === undefined) throw new Error('usage: test/sameOutput.ts --before <git ref> [--runs N]');
  const [now, then] = await Promise.all([outputOf(root), outputOf(sourceOf(before))]);
  const differing = now.filter((line, i) => line !== then[i]);
  const documents = new Set(now.map((l) => l.split(' ')[0])).size;
  console.log(
    `${now.length} outputs of ${documents} documents (${OPTION_SETS.length} option sets, fix-all of a third): ${differing.length} differ from ${before}`,
  );
  for (const line of differing.slice(0, 20)) console.log(`  differs: ${line}`);
  if (now.length !== then.length || differing.length > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 2;
});
