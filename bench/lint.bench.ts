// The trigger linter against vscode-json-languageservice validating with schemas/trigger.schema.json,
// and against JSON.parse alone, on the same documents. Prints medians and ratios; asserts nothing.
// Goals (issue 4): a typical trigger under 1 ms; lint at most half the language service's time;
// at most 5x JSON.parse.
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { getLanguageService, TextDocument, type JSONSchema } from 'vscode-json-languageservice';
import { lint } from '../src/lint';
import { TRIGGER_SCHEMA_PATH } from '../src/lint/jsonSchema';

const root = join(import.meta.dirname, '..');
const schema = JSON.parse(readFileSync(join(root, TRIGGER_SCHEMA_PATH), 'utf8')) as JSONSchema;

function typicalTrigger(i: number, fetched: boolean): object {
  return {
    ...(fetched
      ? { id: `t${i}`, triggered: false, created_at: '2026-01-05T10:00:00Z', updated_at: '2026-02-01T08:30:00Z' }
      : {}),
    dataset_slug: 'api',
    name: `Slow checkout requests ${i}`,
    description: 'P99 latency of the checkout route, paging the payments on-call engineer.',
    tags: [
      { key: 'team', value: 'payments' },
      { key: 'tier', value: 'one' },
    ],
    threshold: { op: '>', value: 1500, exceeded_limit: 2 },
    frequency: 300,
    alert_type: 'on_change',
    disabled: false,
    recipients: [{ id: 'rcp_4f2a' }, { id: 'rcp_9c1d', details: { pagerduty_severity: 'critical' } }],
    evaluation_schedule_type: 'frequency',
    query: {
      calculations: [{ op: 'P99', column: 'duration_ms' }],
      filters: [
        { column: 'route', op: '=', value: '/checkout' },
        { column: 'status', op: '<', value: 500 },
      ],
      filter_combination: 'AND',
      breakdowns: ['service'],
      time_range: 1200,
    },
  };
}

const documents = [
  { name: 'typical trigger', text: JSON.stringify(typicalTrigger(0, false), null, 2) },
  {
    name: '2,000 triggers',
    text: JSON.stringify(
      Array.from({ length: 2000 }, (_, i) => typicalTrigger(i, false)),
      null,
      2,
    ),
  },
  {
    name: '2,000 as fetched (8,000 infos)',
    text: JSON.stringify(
      Array.from({ length: 2000 }, (_, i) => typicalTrigger(i, true)),
      null,
      2,
    ),
  },
];

const service = getLanguageService({});
service.configure({
  validate: true,
  allowComments: false,
  schemas: [{ uri: 'file:///trigger.schema.json', fileMatch: ['*.trigger.json'], schema }],
});

async function languageService(text: string): Promise<number> {
  const doc = TextDocument.create('file:///bench.trigger.json', 'json', 1, text);
  const parsed = service.parseJSONDocument(doc);
  return (await service.doValidation(doc, parsed)).length;
}

/**
 * Median milliseconds of CPU time per call (this process, user + system): the machine is shared, and
 * CPU time is what other processes disturb least. Warms up for 1 s, then 15 batches of about 20 ms.
 */
async function median(fn: () => unknown): Promise<number> {
  // Await only what is asynchronous: a microtask per call would dwarf JSON.parse of one trigger.
  const call = async () => {
    const r = fn();
    if (r instanceof Promise) await r;
  };
  let calls = 0;
  const warm = performance.now();
  while (performance.now() - warm < 1000) {
    await call();
    calls++;
  }
  const batch = Math.max(1, Math.round((20 * calls) / (performance.now() - warm)));
  const samples: number[] = [];
  for (let s = 0; s < 15; s++) {
    const start = process.cpuUsage();
    for (let i = 0; i < batch; i++) await call();
    const used = process.cpuUsage(start);
    samples.push((used.user + used.system) / 1000 / batch);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? NaN;
}

const ms = (v: number) => (v < 0.1 ? v.toFixed(4) : v < 10 ? v.toFixed(3) : v.toFixed(1));
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

async function main(): Promise<void> {
  const rows: string[][] = [];
  for (const doc of documents) {
    const diagnostics = lint(doc.text).length;
    const lsDiagnostics = await languageService(doc.text);
    const parse = await median(() => JSON.parse(doc.text));
    const linted = await median(() => lint(doc.text));
    const ls = await median(() => languageService(doc.text));
    rows.push([
      doc.name,
      `${(doc.text.length / 1024).toFixed(0)} KiB`,
      ms(parse),
      ms(linted),
      ms(ls),
      ratio(linted, parse),
      ratio(linted, ls),
      `${diagnostics} / ${lsDiagnostics}`,
    ]);
  }

  const header = [
    'document',
    'size',
    'JSON.parse ms',
    'obs-lint ms',
    'language service ms',
    'lint/parse',
    'lint/LS',
    'diagnostics lint / LS',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const r of rows) console.log(line(r));
  console.log(
    `\nCPU-time medians of 15 batches; node ${process.version}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores.`,
  );
  console.log(
    'Goals: typical trigger < 1 ms; lint/LS <= 0.5; lint/parse <= 5. The language service checks the JSON Schema only (no relational rules).',
  );
}

void main();
