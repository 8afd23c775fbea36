// The linter's texts (diagnostics, related texts, quick-fix titles) go through l10n.t of @vscode/l10n: in the
// editor they are in the display language (the lint worker is handed VS Code's bundle), in the CLI English.
// Its own file: @vscode/l10n's configuration is global to the process, and every test that sets one resets it.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import { lint, RULES, type Diagnostic, type LintOptions } from '../../src/lint';
import { CALCULATION_OPS, METRICS_CALCULATION_OPS } from '../../src/lint/schema';
import { EDITOR_METRICS_DATASET_HINT } from '../../src/extension/diagnostics/lintMapping';
import { LintRunner, requiredWorker } from '../../src/extension/diagnostics/lintRunner';
import { bundleInputs } from './bundle-inputs';
import { findBareLintStrings } from './l10n-scan';
import { example, expandEllipsis, lintExample, OPTIONS, section } from './lint-doc-examples';
import { trigger } from './lint-helpers';

const root = join(import.meta.dirname, '..', '..');
const lintDir = join(root, 'src', 'lint');
const workerFile = join(root, 'dist', 'lint-worker.js');

/** Reviewed literals the scan finds that are not language text, each with its reason. */
const EXCEPTIONS: { file: string; texts: string[]; reason: string }[] = [
  {
    file: 'issues.ts',
    texts: RULES.map((r) => `'${r.id}'`),
    reason: 'the rule ids a member check maps to: ids, never shown as text',
  },
  {
    file: 'skim.ts',
    texts: ["'object'", "'array'", "'string'", "'boolean'", "'null'", "'number'"],
    reason: 'the node types of the JSON tree, as jsonc-parser names them',
  },
  {
    file: 'findings.ts',
    texts: ["'null'"],
    reason: 'a null value named by its JSON spelling, the same in every language',
  },
  {
    file: 'repairs.ts',
    texts: ['`"id": ${JSON.stringify(id)}`'],
    reason: 'the member a quick fix writes into the trigger file: JSON, the same in every language',
  },
  {
    file: 'schema/wording.ts',
    texts: ["'null'"],
    reason: 'a null value named by its JSON spelling, the same in every language',
  },
  {
    file: 'jsonSchema.ts',
    texts: [
      "'Trigger file'",
      "'One trigger, or an array of triggers as GET /1/triggers/<dataset> returns them. ' +\n      'Generated from src/lint/schema/; relational rules (time_range against frequency, aggregates, havings) are checked by obs-lint.'",
    ],
    reason:
      'the title and description of schemas/trigger.schema.json, written at build time: a JSON Schema file has no runtime to translate it',
  },
  {
    file: 'sloFileSchemas.ts',
    texts: [
      "'Burn alert file'",
      "'Dataset definitions file'",
      '`Completion and hover for burn alert files (generated from ${BURN_ALERT_SCHEMA_PATH} without its validating keywords: obs-lint reports every problem, once).`',
      '`Completion and hover for dataset definitions files (generated from ${DEFINITIONS_SCHEMA_PATH} without its validating keywords: obs-lint reports every problem, once).`',
    ],
    reason:
      'the titles and descriptions of the burn alert and definitions file schemas, written at build time: a JSON Schema file has no runtime to translate it',
  },
  {
    file: 'sloLint.ts',
    texts: ["'burn-alert'", "'definitions'"],
    reason: 'the kinds of file the linter tells apart: ids, never shown as text',
  },
  {
    file: 'sloKinds.ts',
    texts: ["'burn-alert'", "'definitions'"],
    reason: 'the kinds of file the linter tells apart: ids, never shown as text',
  },
];

const lintSources = (): string[] =>
  readdirSync(lintDir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.split('\\').join('/'));

test('no text the linter shows in the editor is a bare literal (every one goes through l10n.t)', () => {
  const found = lintSources()
    .flatMap((f) => findBareLintStrings(f, readFileSync(join(lintDir, f), 'utf8')).map((b) => ({ file: f, ...b })))
    .filter((b) => !EXCEPTIONS.some((e) => e.file === b.file && e.texts.includes(b.text)))
    .map((b) => `src/lint/${b.file}:${b.line} (${b.position}): ${b.text}`);
  assert.deepEqual(found, []);
});

test('every lint exception still exists, and every exception is still found', () => {
  for (const e of EXCEPTIONS) {
    const texts = new Set(findBareLintStrings(e.file, readFileSync(join(lintDir, e.file), 'utf8')).map((b) => b.text));
    assert.ok(
      e.texts.some((t) => texts.has(t)),
      `${e.file}: none of its exceptions is found`,
    );
    if (e.file !== 'issues.ts')
      assert.deepEqual(
        e.texts.filter((t) => !texts.has(t)),
        [],
        e.file,
      );
  }
});

test('the lint scan reports a bare message, label, allowed text, fix title, template, concatenation and returned text, naming line and text', () => {
  const snippet = [
    "report(['frequency'], 'frequency is odd', { rule: 'trigger/frequency' });",
    "z.number(says(() => 'threshold op', () => l10n.t('a number')));",
    "z.number(says(member('exceeded_limit'), () => 'a whole number'));",
    "return remove(l10n.t('Remove {0}', member)) ?? replace(next, 'Set it');",
    "out.push({ rule: 'query/hidden-column', at, message: l10n.t('{0} is hidden', name), related: [{ path, message: 'the calculations' }] });",
    'const shown = `${name} is not a column`;',
    "const text = 'element ' + i;",
    "function kindOf(v: unknown): string { return v === undefined ? 'nothing' : l10n.t('something'); }",
    'const message = cond ? l10n.t(\'ok\') : "not ok";',
    'l10n.t(variable);',
    "z.string().describe('Shown in the schema only.'); throw new RangeError(`unknown rule ${id}`);",
  ].join('\n');
  assert.deepEqual(
    findBareLintStrings('snippet.ts', snippet).map((b) => `${b.line}: ${b.text}`),
    [
      "1: 'frequency is odd'",
      "2: 'threshold op'",
      "3: 'a whole number'",
      "4: 'Set it'",
      "5: 'the calculations'",
      '6: `${name} is not a column`',
      "7: 'element ' + i",
      "8: 'nothing'",
      '9: "not ok"',
      '10: variable',
    ],
  );
});

// --- With a bundle ---------------------------------------------------------------------------------------

const english = JSON.parse(readFileSync(join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
/** A "translation" of a text: its words between ⟦ and ⟧, its placeholders outside, so what a message shows outside the marks was filled in. */
const markWords = (text: string): string =>
  text
    .split(/(\{\d+\})/)
    .map((part, i) => (i % 2 === 1 || part === '' ? part : `⟦${part}⟧`))
    .join('');
const MARKED = Object.fromEntries(Object.keys(english).map((key) => [key, markWords(key)]));

afterEach(() => l10n.config({ contents: {} }));

const EDITOR_OPTIONS: LintOptions = { ...OPTIONS, metricsDatasetHint: EDITOR_METRICS_DATASET_HINT };
/** Every text of diagnostics a user reads: message, related texts and the quick fix's title. */
const textsOf = (diagnostics: readonly Diagnostic[]): string[] =>
  diagnostics.flatMap((d) => [
    d.message,
    ...(d.related ?? []).map((r) => r.message),
    ...(d.fix === undefined ? [] : [d.fix.title]),
  ]);
// The environments file is checked by obs lint alone (src/triggerFiles/environmentsLint.ts), whose output is
// English like the rest of the CLI's; the editor does not show its diagnostics yet (docs/ENVIRONMENTS.md).
const badExamples = RULES.filter((r) => !r.id.startsWith('environments/')).map((r) => ({
  rule: r.id,
  text: expandEllipsis(example(section(r.id), 'Bad')),
}));

const WORD = /\p{L}[\p{L}\p{N}_.-]*/gu;
/**
 * Member names and enumerated values of the trigger, burn alert and definitions file schemas (and the ops the
 * trigger schema refuses): the API's own words, which messages name as they are.
 */
function schemaWords(): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && typeof value === 'object' && value !== null)
        for (const name of Object.keys(value)) out.add(name);
      if ((key === 'enum' || key === 'const') && value !== null)
        for (const w of JSON.stringify(value).match(WORD) ?? []) out.add(w);
      walk(value);
    }
  };
  for (const file of ['trigger.schema.json', 'burn-alert.schema.json', 'definitions.schema.json'])
    walk(JSON.parse(readFileSync(join(root, 'schemas', file), 'utf8')));
  // JSON's own words, the editor setting and flag the metrics hint names, the time format of a window.
  for (const w of 'null true false obs.metricsDatasets --metrics-dataset HH:mm'.match(WORD) ?? []) out.add(w);
  for (const op of [...CALCULATION_OPS, ...METRICS_CALCULATION_OPS]) out.add(op);
  return out;
}

test('with a bundle, every diagnostic, related text and quick-fix title of each rule is translated, and what is left is data', () => {
  l10n.config({ contents: MARKED });
  const apiWords = schemaWords();
  const untranslated: string[] = [];
  let texts = 0;
  let marked = 0;
  for (const { rule, text } of badExamples) {
    // What the file and the options hold is data: a message quotes it as it is.
    const data = new Set([
      ...apiWords,
      ...(text.match(WORD) ?? []),
      ...(JSON.stringify(EDITOR_OPTIONS).match(WORD) ?? []),
    ]);
    for (const shown of textsOf(lintExample(text, EDITOR_OPTIONS, rule))) {
      texts++;
      if (shown.includes('⟦')) marked++;
      // A text of data alone (a related `frequency 900`) has nothing to translate; bytes are shown in hex.
      const left = (shown.replace(/⟦[^⟦⟧]*⟧/g, ' ').match(WORD) ?? []).filter(
        (w) => !data.has(w) && !/^[0-9A-F]{2}$/.test(w),
      );
      if (left.length > 0) untranslated.push(`${rule}: ${left.join(' ')} in ${shown}`);
    }
  }
  assert.deepEqual(untranslated, []);
  // Each rule's example shows at least one translated text: the check did look at translations.
  assert.ok(texts > RULES.length && marked >= RULES.length, `${texts} texts checked, ${marked} translated`);
});

test('without a bundle (the CLI) the same examples read in English: the translated texts without their marks', () => {
  l10n.config({ contents: MARKED });
  const translated = badExamples.map(({ rule, text }) => textsOf(lintExample(text, EDITOR_OPTIONS, rule)));
  l10n.config({ contents: {} });
  const plain = badExamples.map(({ rule, text }) => textsOf(lintExample(text, EDITOR_OPTIONS, rule)));
  assert.deepEqual(
    plain,
    translated.map((texts) => texts.map((t) => t.replace(/[⟦⟧]/g, ''))),
  );
  assert.ok(plain.flat().every((t) => !/[⟦⟧]/.test(t)));
});

test('a frequency off the minute and a read-only member, translated: message, related text and fix title', () => {
  l10n.config({
    contents: {
      '{0} {1} is not a multiple of {2}': '{0} {1} ist kein Vielfaches von {2}',
      '{0}; expected {1}': '{0}; erwartet: {1}',
      'a whole number of seconds from {0} to {1}, a multiple of {2}':
        'eine ganze Zahl von Sekunden von {0} bis {1}, ein Vielfaches von {2}',
      'Set {0} to {1}': '{0} auf {1} setzen',
      '{0} is read-only: the service sets it and ignores it on write':
        '{0} ist schreibgeschützt: der Dienst setzt es und ignoriert es beim Schreiben',
      'Remove read-only {0}': 'Schreibgeschütztes {0} entfernen',
    },
  });
  const found = lint(trigger('"frequency": 90', '"created_at": "t1"')).map((d) => [d.rule, d.message, d.fix?.title]);
  assert.deepEqual(found, [
    [
      'trigger/frequency',
      'frequency 90 ist kein Vielfaches von 60; erwartet: eine ganze Zahl von Sekunden von 60 bis 86400, ein Vielfaches von 60',
      'frequency auf 120 setzen',
    ],
    [
      'trigger/read-only-member',
      'created_at ist schreibgeschützt: der Dienst setzt es und ignoriert es beim Schreiben',
      'Schreibgeschütztes created_at entfernen',
    ],
  ]);
});

// --- In the editor: the lint worker ----------------------------------------------------------------------

const BAD = trigger('"frequency": 90', '"created_at": "t1"');
const JOB = { kind: 'lint' as const, input: BAD, options: { metricsDatasets: [] } };
/** The texts the editor's lint of BAD shows, linted in this process with `bundle` (none: English). */
function textsWith(bundle: Record<string, string>): string[] {
  l10n.config({ contents: bundle });
  try {
    return textsOf(lint(BAD, { metricsDatasetHint: EDITOR_METRICS_DATASET_HINT }));
  } finally {
    l10n.config({ contents: {} });
  }
}

test('the lint worker (dist/lint-worker.js) words its first lint with the bundle the host hands it, and English without one', async () => {
  const translated = new LintRunner({ workerFile, l10nBundle: () => MARKED });
  const plain = new LintRunner({ workerFile });
  try {
    const [marked, unmarked] = await Promise.all([translated.run(JOB), plain.run(JOB)]);
    assert.deepEqual(marked.kind === 'lint' ? textsOf(marked.diagnostics) : [], textsWith(MARKED));
    assert.deepEqual(unmarked.kind === 'lint' ? textsOf(unmarked.diagnostics) : [], textsWith({}));
  } finally {
    translated.dispose();
    plain.dispose();
  }
});

test("where no worker thread can start, the worker's bundle required into this thread is handed the bundle before its first lint", async () => {
  const runner = new LintRunner({
    workerFile,
    createWorker: () => {
      throw new Error('ERR_WORKER_INVALID_EXEC_ARGV');
    },
    fallback: requiredWorker,
    l10nBundle: () => MARKED,
  });
  try {
    const result = await runner.run(JOB);
    assert.deepEqual(result.kind === 'lint' ? textsOf(result.diagnostics) : [], textsWith(MARKED));
  } finally {
    runner.dispose();
    // The required bundle stays loaded in this process: back to English for whatever runs next.
    requiredWorker(workerFile, {});
  }
});

test('dist/lint-worker.js holds one copy of @vscode/l10n: the one its entry configures is the one the linter translates with', async () => {
  const inputs = await bundleInputs('src/extension/diagnostics/lintWorker.ts');
  assert.equal(
    inputs.filter((f) => /node_modules\/@vscode\/l10n\//.test(f)).length,
    1,
    inputs.filter((f) => f.includes('l10n')).join(', '),
  );
  assert.ok(
    inputs.some((f) => f.endsWith('src/lint/schema/relations.ts')),
    'the linter is in the worker bundle',
  );
});
