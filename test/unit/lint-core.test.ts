// The linter's behaviour beyond single rules: files of several triggers, broken JSON, ranges,
// related places, fixes and the generated JSON Schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { getLanguageService, TextDocument, type JSONSchema } from 'vscode-json-languageservice';
import { applyFixes, fixAll, lint, RULES, ruleDocsAnchor } from '../../src/lint';
import { TRIGGER_SCHEMA_PATH, triggerJsonSchemaText } from '../../src/lint/jsonSchema';
import { MAX_DEPTH } from '../../src/lint/depth';
import { analyse } from '../../src/lint/lint';
import { marked, trigger } from './lint-helpers';

const root = join(import.meta.dirname, '..', '..');

test('a valid trigger has no diagnostics', () => {
  assert.deepEqual(lint(trigger()), []);
});

test('the message of time_range over 4 x frequency names the numbers', () => {
  const [d] = lint(trigger('"query": { "calculations": [{ "op": "COUNT" }], "time_range": 7200 }'));
  assert.equal(
    d?.message,
    'time_range 7200 exceeds 3600 = 4 x frequency 900; expected 900 (the frequency) to 3600 (4 x frequency)',
  );
});

test('in an array each trigger is checked at its own place', () => {
  const { text, range } = marked(`[\n${trigger()},\n${trigger('«"frequency": 90»')}\n]`);
  const found = lint(text);
  assert.deepEqual(
    found.map((d) => [d.rule, d.range, d.path]),
    [['trigger/frequency', range, [1, 'frequency']]],
  );
});

test('a trigger as GET returns it gets infos for its read-only members only (not for id, the link to the service)', () => {
  const fetched = trigger(
    '"id": "t1"',
    '"dataset_slug": "api"',
    '"triggered": false',
    '"created_at": "2026-01-01T00:00:00Z"',
    '"updated_at": "2026-01-02T00:00:00Z"',
  );
  assert.deepEqual(
    lint(fetched).map((d) => [d.rule, d.severity, d.path]),
    [
      ['trigger/read-only-member', 'info', ['triggered']],
      ['trigger/read-only-member', 'info', ['created_at']],
      ['trigger/read-only-member', 'info', ['updated_at']],
    ],
  );
});

test('a half-typed file gets its syntax error and the rules its value breaks', () => {
  const text = '{\n  "name": "n",\n  "frequency": 90,\n  "threshold": {';
  const found = lint(text);
  assert.deepEqual(
    found.map((d) => [d.rule, d.range.start.line, d.range.start.character]),
    [
      ['trigger/query-source', 0, 0],
      ['trigger/frequency', 2, 2],
      ['trigger/threshold-op', 3, 15],
      ['trigger/threshold-value', 3, 15],
      ['json/syntax', 3, 16],
    ],
  );
});

test('no fix is offered while the JSON is broken', () => {
  const found = lint('{ "name": "n", "frequency": 90, "id": "x" ');
  assert.ok(found.some((d) => d.rule === 'trigger/frequency'));
  assert.deepEqual(
    found.filter((d) => d.fix !== undefined),
    [],
  );
});

test('ranges count lines after \\r\\n and \\r as LSP does', () => {
  const text = trigger('"frequency": 90').replace(/\n/g, '\r\n');
  const [d] = lint(text);
  assert.deepEqual(d?.range, { start: { line: 2, character: 2 }, end: { line: 2, character: 17 } });
  const cr = trigger('"frequency": 90').replace(/\n/g, '\r');
  assert.deepEqual(lint(cr)[0]?.range, { start: { line: 2, character: 2 }, end: { line: 2, character: 17 } });
});

test('a byte order mark is no syntax error and counts as character 0 of line 0', () => {
  const { text, range } = marked(
    '\uFEFF{ «"frequency": 90», "name": "n", "threshold": { "op": ">", "value": 1 }, "query_id": "q" }',
  );
  const found = lint(text);
  assert.deepEqual(
    found.map((d) => [d.rule, d.range]),
    [['trigger/frequency', range]],
  );
  assert.equal(range.start.character, 3);
  const fix = found[0]?.fix;
  assert.ok(fix);
  assert.equal(
    applyFixes(text, fix.edits),
    '\uFEFF{ "frequency": 120, "name": "n", "threshold": { "op": ">", "value": 1 }, "query_id": "q" }',
  );
});

test('a byte order mark before broken JSON shifts nothing', () => {
  const { text, range } = marked('\uFEFF{ "name": "n", "frequency": «»');
  assert.deepEqual(
    lint(text)
      .filter((d) => d.rule === 'json/syntax')
      .map((d) => [d.message, d.range]),
    [['JSON syntax: a value is expected', range]],
  );
});

test('broken JSON nested deeper than the linter reads: the depth is reported where it starts, what lies above it is recovered, no stack overflow', () => {
  const text = '['.repeat(20_000);
  const { range } = marked(`${'['.repeat(MAX_DEPTH)}«[»`);
  assert.deepEqual(
    lint(text).map((d) => [d.rule, d.message, d.range.start]),
    [
      [
        'json/root-type',
        'element 0 is an array; an array in a trigger file holds trigger objects only',
        { line: 0, character: 1 },
      ],
      [
        'json/too-deep',
        `nested deeper than ${MAX_DEPTH} levels: what lies deeper is not read, and a trigger holding it is not checked; a trigger nests about 8 levels`,
        range.start,
      ],
      ['json/syntax', 'JSON syntax: a closing bracket ] is expected', { line: 0, character: 20_000 }],
    ],
  );
});

test('broken JSON at the depth limit is still recovered', () => {
  const text = `${'['.repeat(MAX_DEPTH)}1`;
  assert.deepEqual(
    lint(text).map((d) => [d.rule, d.message]),
    [
      ['json/root-type', 'element 0 is an array; an array in a trigger file holds trigger objects only'],
      ['json/syntax', 'JSON syntax: a closing bracket ] is expected'],
    ],
  );
});

test('valid JSON nested 100,000 deep is checked without a stack overflow', () => {
  const text = `[${'['.repeat(100_000)}${']'.repeat(100_000)}]`;
  assert.deepEqual(
    lint(text).map((d) => [d.rule, d.path, d.range.start.character]),
    [
      ['json/root-type', [0], 1],
      ['json/too-deep', [], MAX_DEPTH],
    ],
  );
});

test('characters are UTF-16 code units', () => {
  const { text, range } = marked(trigger('"description": "🙂"', '«"frequency": 90»'));
  assert.deepEqual(
    lint(text).map((d) => d.range),
    [range],
  );
});

test('time_range diagnostics point to the frequency they depend on', () => {
  const { text, range } = marked(
    trigger('«"frequency": 60»', '"query": { "calculations": [{ "op": "COUNT" }], "time_range": 241 }'),
  );
  const [d] = lint(text);
  assert.deepEqual(d?.related, [{ message: 'frequency 60', range }]);
});

test('metrics datasets come from the options, per trigger', () => {
  const onDataset = (slug: string) =>
    trigger(
      `"dataset_slug": "${slug}"`,
      '"query": { "calculations": [{ "op": "COUNT_DATAPOINTS" }], "time_range": 1800, "granularity": 60 }',
    );
  const text = `[${onDataset('otel-metrics')}, ${onDataset('api')}]`;
  assert.deepEqual(
    lint(text, { metricsDatasets: ['otel-metrics'] }).map((d) => [d.rule, d.path[0]]),
    [
      ['query/calculation-op-metrics-only', 1],
      ['query/granularity-standard', 1],
    ],
  );
});

test('fix all keeps the id that links a file to its trigger on the service', () => {
  const text = trigger('"id": "t1"', '"triggered": true');
  assert.equal(fixAll(text).text, trigger('"id": "t1"'));
});

test('a trigger as the service lists it (form listed) shows only the rule problems of the trigger itself', () => {
  const listed = JSON.stringify(
    {
      id: 't1',
      dataset_slug: 'api',
      name: 'Legacy',
      triggered: false,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      threshold: { op: '>', value: 1 },
      frequency: 120,
      auto_investigate: false,
      recipients: [{ type: 'email', target: 'a@example.com' }],
      query: { calculations: [{ op: 'COUNT' }], time_range: 120 },
      query_id: 'q_made_inline',
    },
    null,
    2,
  );
  assert.deepEqual(
    lint(listed, { form: 'listed' }).map((d) => d.rule),
    ['trigger/recipient-deprecated'],
  );
  assert.deepEqual(
    lint(listed)
      .map((d) => d.rule)
      .sort(),
    [
      'trigger/query-source',
      'trigger/read-only-member',
      'trigger/read-only-member',
      'trigger/read-only-member',
      'trigger/recipient-deprecated',
      'trigger/unknown-member',
    ],
  );
});

test('the linter reports the datasets a file names, as column lists are keyed', () => {
  assert.deepEqual(
    analyse(
      `[${trigger('"dataset_slug": "web"')}, ${trigger('"dataset_slug": "all"')}, ${trigger('"dataset_slug": "web"')}, ${trigger()}]`,
    ).datasets,
    ['__all__', 'web'],
  );
  assert.deepEqual(analyse('{').datasets, []);
});

test('removing the only member leaves an empty object', () => {
  const text = '[{ "triggered": true }]';
  const d = lint(text).find((x) => x.rule === 'trigger/read-only-member');
  assert.ok(d?.fix);
  assert.equal(applyFixes(text, d.fix.edits), '[{}]');
});

test('applyFixes applies edits in document order whatever their order given', () => {
  const text = 'abcdef';
  const at = (c: number) => ({ line: 0, character: c });
  const edits = [
    { range: { start: at(4), end: at(5) }, newText: 'E' },
    { range: { start: at(0), end: at(1) }, newText: 'A' },
  ];
  assert.equal(applyFixes(text, edits), 'AbcdEf');
});

test('applyFixes reads a character past the end of a line as its end, before \\n, \\r\\n or \\r (LSP)', () => {
  const past = (line: number) => ({
    range: { start: { line, character: 99 }, end: { line, character: 99 } },
    newText: '!',
  });
  assert.equal(applyFixes('ab\r\ncd\ref\ngh', [past(0), past(1), past(2), past(3)]), 'ab!\r\ncd!\ref!\ngh!');
});

test('applyFixes leaves out an edit that overlaps an earlier one', () => {
  const at = (c: number) => ({ line: 0, character: c });
  const edits = [
    { range: { start: at(0), end: at(3) }, newText: 'X' },
    { range: { start: at(2), end: at(4) }, newText: 'Y' },
  ];
  assert.equal(applyFixes('abcdef', edits), 'Xdef');
});

test('fixAll removes adjacent members over several passes and fixes values', () => {
  const text = trigger(
    '"frequency": 90',
    '"query": { "calculations": [{ "op": "COUNT" }], "time_range": 240, "orders": [], "limit": 5 }',
    '"triggered": true',
    '"created_at": "x"',
  );
  const result = fixAll(text);
  assert.equal(
    result.text,
    trigger('"frequency": 120', '"query": { "calculations": [{ "op": "COUNT" }], "time_range": 240 }'),
  );
  assert.equal(result.applied, 5);
  assert.deepEqual(result.diagnostics, []);
});

test('fixAll leaves a recipient named by type and target as it is: naming it by id is a quick fix the user picks', () => {
  const text = trigger('"recipients": [{ "type": "email", "target": "ops@example.com" }]');
  const options = { recipients: [{ id: 'rcp_email_ops', type: 'email', target: 'ops@example.com' }] };
  const result = fixAll(text, options);
  assert.equal(result.text, text);
  const deprecated = result.diagnostics.find((d) => d.rule === 'trigger/recipient-deprecated');
  assert.equal(deprecated?.fix?.title, 'Name the recipient by its id "rcp_email_ops"');
});

test('fixAll keeps what it cannot fix', () => {
  const result = fixAll(trigger('"name": ""', '"updated_at": "x"'));
  assert.equal(result.text, trigger('"name": ""'));
  assert.deepEqual(
    result.diagnostics.map((d) => d.rule),
    ['trigger/name'],
  );
});

test('fixAll leaves granularity on a dataset not named as metrics, while the quick fix still offers its removal', () => {
  const text = trigger('"query": { "calculations": [{ "op": "COUNT" }], "time_range": 1800, "granularity": 60 }');
  const result = fixAll(text);
  assert.equal(result.text, text);
  assert.equal(result.applied, 0);
  const diagnostic = result.diagnostics.find((d) => d.rule === 'query/granularity-standard');
  assert.equal(diagnostic?.fix?.title, 'Remove granularity');
});

test('rule ids are unique and anchors are their slugs', () => {
  const ids = RULES.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(ruleDocsAnchor('query/time-range-max'), 'query-time-range-max');
  const anchors = ids.map(ruleDocsAnchor);
  assert.equal(new Set(anchors).size, anchors.length);
});

test('the committed JSON Schema equals a fresh generation', () => {
  assert.equal(readFileSync(join(root, TRIGGER_SCHEMA_PATH), 'utf8'), triggerJsonSchemaText());
});

test('the JSON Schema accepts a trigger and an array, and refuses what the member checks refuse', () => {
  const ajv = new Ajv({ strict: false });
  const validate = ajv.compile(JSON.parse(triggerJsonSchemaText()) as object);
  const valid = JSON.parse(trigger()) as unknown;
  assert.equal(validate(valid), true);
  assert.equal(validate([valid, valid]), true);
  assert.equal(validate(JSON.parse(trigger('"frequency": 90'))), false);
  assert.equal(
    validate(
      JSON.parse(trigger('"query": { "calculations": [{ "op": "HEATMAP", "column": "d" }], "time_range": 1800 }')),
    ),
    false,
  );
  assert.equal(
    validate(JSON.parse(trigger('"query": { "calculations": [{ "op": "COUNT" }], "time_range": 1800, "limit": 1 }'))),
    false,
  );
});

test('the linter and the JSON Schema agree: COUNT_DATAPOINTS takes an optional column', () => {
  const validate = new Ajv({ strict: false }).compile(JSON.parse(triggerJsonSchemaText()) as object);
  const withColumn = trigger(
    '"dataset_slug": "m"',
    '"query": { "calculations": [{ "op": "COUNT_DATAPOINTS", "column": "cpu" }], "time_range": 1800 }',
  );
  assert.equal(validate(JSON.parse(withColumn)), true);
  assert.deepEqual(lint(withColumn, { metricsDatasets: ['m'] }), []);
});

test('the linter and the JSON Schema agree: baseline_details {} clears a baseline, and a baseline gives both members', () => {
  const validate = new Ajv({ strict: false }).compile(JSON.parse(triggerJsonSchemaText()) as object);
  const cleared = trigger('"baseline_details": {}');
  const half = trigger('"threshold": { "op": ">=", "value": 10 }', '"baseline_details": { "type": "value" }');
  assert.deepEqual([validate(JSON.parse(cleared)), lint(cleared).map((d) => d.rule)], [true, []]);
  assert.deepEqual([validate(JSON.parse(half)), lint(half).map((d) => d.rule)], [false, ['trigger/baseline-details']]);
});

test('the linter and the JSON Schema agree on lengths: characters, not UTF-16 units', () => {
  const validate = new Ajv({ strict: false }).compile(JSON.parse(triggerJsonSchemaText()) as object);
  const fits = trigger(`"name": "${'\u{1F6A8}'.repeat(120)}"`);
  const tooLong = trigger(`"name": "${'\u{1F6A8}'.repeat(121)}"`);
  assert.deepEqual([validate(JSON.parse(fits)), lint(fits).map((d) => d.rule)], [true, []]);
  assert.deepEqual([validate(JSON.parse(tooLong)), lint(tooLong).map((d) => d.rule)], [false, ['trigger/name']]);
});

test('the JSON Schema is draft-07 and describes every member of a trigger and of its query', () => {
  const schema = JSON.parse(triggerJsonSchemaText()) as {
    $schema: string;
    anyOf: unknown[];
    definitions: {
      trigger: {
        properties: Record<
          string,
          { description?: string; anyOf?: { properties?: Record<string, { description?: string }> }[] }
        >;
      };
    };
  };
  assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
  assert.deepEqual(schema.anyOf, [
    { $ref: '#/definitions/trigger' },
    { type: 'array', items: { $ref: '#/definitions/trigger' } },
  ]);
  const members = schema.definitions.trigger.properties;
  assert.deepEqual(
    Object.entries(members)
      .filter(([, v]) => !v.description)
      .map(([k]) => k),
    [],
  );
  const queryMembers = members.query?.anyOf?.[0]?.properties ?? {};
  assert.ok(Object.keys(queryMembers).includes('time_range'));
  assert.deepEqual(
    Object.entries(queryMembers)
      .filter(([, v]) => !v.description)
      .map(([k]) => k),
    [],
  );
});

test("VS Code's JSON language service validates with the schema: a clean trigger passes, a bad frequency is flagged", async () => {
  const service = getLanguageService({});
  const schema = JSON.parse(triggerJsonSchemaText()) as JSONSchema;
  service.configure({
    validate: true,
    allowComments: false,
    schemas: [{ uri: 'file:///trigger.schema.json', fileMatch: ['*.trigger.json'], schema }],
  });
  const check = async (text: string) => {
    const doc = TextDocument.create('file:///t.trigger.json', 'json', 1, text);
    return (await service.doValidation(doc, service.parseJSONDocument(doc))).map((d) => d.range.start);
  };
  assert.deepEqual(await check(trigger()), []);
  assert.deepEqual(await check(`[${trigger()}]`), []);
  assert.deepEqual(await check(trigger('"frequency": 90')), [{ line: 2, character: 15 }]);
});

test("VS Code's JSON language service explains a refused query member with the schema's message", async () => {
  const service = getLanguageService({});
  const schema = JSON.parse(triggerJsonSchemaText()) as JSONSchema;
  service.configure({
    validate: true,
    allowComments: false,
    schemas: [{ uri: 'file:///trigger.schema.json', fileMatch: ['*.trigger.json'], schema }],
  });
  const text = trigger('"query": { "calculations": [{ "op": "COUNT" }], "time_range": 900, "orders": [] }');
  const doc = TextDocument.create('file:///t.trigger.json', 'json', 1, text);
  const messages = (await service.doValidation(doc, service.parseJSONDocument(doc))).map((d) => d.message);
  assert.deepEqual(messages, ['Not allowed in a trigger query.']);
});

test('of duplicate members the last counts, as in JSON.parse, and gets no fix; the ignored one gets a warning', () => {
  const { text, range } = marked(trigger().replace(/\n}$/, ',\n  «"frequency": 90»\n}'));
  const found = lint(text);
  const ignored = { start: { line: 2, character: 2 }, end: { line: 2, character: 18 } };
  assert.deepEqual(
    found.map((d) => [d.rule, d.range, d.fix?.title]),
    [
      ['json/duplicate-member', ignored, 'Remove this ignored "frequency"'],
      ['trigger/frequency', range, undefined],
    ],
  );
  assert.deepEqual(
    found[0]?.related?.map((r) => r.range),
    [range],
  );
});
