// The trigger test file format: what a valid file holds, the exact sentence for each mistake, the time
// syntax, where the tested trigger file is, and schemas/trigger-test.schema.json (VS Code's completion and
// validation), which is generated from the same zod schema and agrees with it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { getLanguageService, TextDocument as JsonDocument } from 'vscode-json-languageservice';
import { isTriggerTestFile, parseTestFile, triggerPathFor, TRIGGER_TEST_SCHEMA_PATH } from '../../src/backtest';
import { triggerTestJsonSchemaText } from '../../src/backtest/testFile';
import { readTime, utcText } from '../../src/backtest/times';

const root = join(import.meta.dirname, '..', '..');
const problems = (value: unknown): string[] => {
  const r = parseTestFile(typeof value === 'string' ? value : JSON.stringify(value));
  return r.ok ? [] : r.reason.map((p) => p.message);
};
const jsonError = (text: string): string => {
  try {
    JSON.parse(text);
    return '';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
};
const fires = { name: 'catches the burst', expect: 'fires', from: '2025-06-02T09:10:00Z', to: '2025-06-02T09:40Z' };

describe('a valid file', () => {
  test('holds expectations of three kinds, with an optional trigger path, dataset and group', () => {
    const text = JSON.stringify({
      $schema: './trigger-test.schema.json',
      trigger: '../triggers/high-error-rate.trigger.json',
      dataset: 'api-gateway',
      expectations: [
        fires,
        {
          name: 'quiet overnight',
          description: 'no traffic then',
          expect: 'does-not-fire',
          from: 'now-1d',
          to: 'now-16h',
          group: { 'http.route': '/api/cart', 'http.method': null },
        },
        { name: 'at most 3 pages a week', expect: 'at-most', notifications: 3, from: 'now-6d12h', to: 'now' },
      ],
    });
    const r = parseTestFile(`\ufeff${text}`);
    assert.ok(r.ok);
    assert.deepEqual(
      r.file.expectations.map((e) => e.expect),
      ['fires', 'does-not-fire', 'at-most'],
    );
  });
});

describe('each mistake is one sentence naming the member', () => {
  const cases: [string, unknown, string[]][] = [
    ['not an object', [fires], ['the file must be an object']],
    ['no expectations', {}, ['expectations is missing']],
    ['empty expectations', { expectations: [] }, ['expectations must hold at least one expectation']],
    [
      'no expect',
      { expectations: [{ name: 'a', from: 'now-1h', to: 'now' }] },
      ['expectations[0].expect is missing: it says what is expected, one of "fires", "does-not-fire", "at-most"'],
    ],
    [
      'an unknown expect',
      { expectations: [{ ...fires, expect: 'fire' }] },
      ['expectations[0].expect must be one of "fires", "does-not-fire", "at-most"'],
    ],
    [
      'a time of neither form',
      { expectations: [{ ...fires, from: 'yesterday' }] },
      [
        'expectations[0].from must be an ISO 8601 time in UTC ("2025-06-02T09:10:00Z") or a time relative to the run ("now", "now-2h", "now-1d12h", "now-90m")',
      ],
    ],
    [
      'a local time',
      { expectations: [{ ...fires, to: '2025-06-02T09:40:00+02:00' }] },
      [
        'expectations[0].to must be an ISO 8601 time in UTC ("2025-06-02T09:10:00Z") or a time relative to the run ("now", "now-2h", "now-1d12h", "now-90m")',
      ],
    ],
    [
      'no real date',
      { expectations: [{ ...fires, from: '2025-02-30T09:10Z' }] },
      ['expectations[0].from names no real date and time'],
    ],
    [
      'now- without an amount',
      { expectations: [{ ...fires, from: 'now-' }] },
      [
        'expectations[0].from must be an ISO 8601 time in UTC ("2025-06-02T09:10:00Z") or a time relative to the run ("now", "now-2h", "now-1d12h", "now-90m")',
      ],
    ],
    [
      'a member of another kind',
      { expectations: [{ ...fires, notifications: 3 }] },
      [
        'expectations[0] has "notifications" that a "fires" expectation does not have (its members: name, description, expect, from, to, group)',
      ],
    ],
    [
      'an unknown top member',
      { expectations: [fires], trigers: 'x.json' },
      [
        'the file has "trigers" that a trigger test file does not have (its members: $schema, trigger, dataset, expectations)',
      ],
    ],
    [
      'notifications not whole',
      { expectations: [{ ...fires, expect: 'at-most', notifications: 1.5 }] },
      ['expectations[0].notifications must be a whole number'],
    ],
    [
      'notifications below 0',
      { expectations: [{ ...fires, expect: 'at-most', notifications: -1 }] },
      ['expectations[0].notifications must be 0 or more'],
    ],
    [
      'no notifications',
      { expectations: [{ ...fires, expect: 'at-most' }] },
      ['expectations[0].notifications is missing'],
    ],
    [
      'notifications past the largest whole number',
      { expectations: [{ ...fires, expect: 'at-most', notifications: 1e308 }] },
      ['expectations[0].notifications must be a whole number of at most 9007199254740991'],
    ],
    ['an empty name', { expectations: [{ ...fires, name: '' }] }, ['expectations[0].name must not be empty']],
    [
      'an absolute trigger path',
      { trigger: '/etc/passwd', expectations: [fires] },
      ['trigger must be a relative path to a .json file (from the folder of this file)'],
    ],
    [
      'an empty group',
      { expectations: [{ ...fires, group: {} }] },
      ['expectations[0].group must name at least one breakdown column'],
    ],
    [
      'a group value of no kind',
      { expectations: [{ ...fires, group: { route: ['/a'] } }] },
      ['expectations[0].group.route must be a string, a number, true, false or null'],
    ],
    [
      'two of one name',
      { expectations: [fires, { ...fires, expect: 'does-not-fire' }] },
      [
        'expectations[1].name "catches the burst" is already the name of expectations[0]: each expectation needs its own',
      ],
    ],
    [
      'a window ending first',
      { expectations: [{ ...fires, from: 'now-1h', to: 'now-2h' }] },
      ['expectations[0].to (now-2h) must be after its from (now-1h)'],
    ],
    [
      'an empty window',
      { expectations: [{ ...fires, to: fires.from }] },
      ['expectations[0].to (2025-06-02T09:10:00Z) must be after its from (2025-06-02T09:10:00Z)'],
    ],
  ];
  for (const [what, value, expected] of cases) {
    test(what, () => assert.deepEqual(problems(value), expected));
  }

  test('broken JSON: said with where the parser stopped', () => {
    assert.deepEqual(problems('{"expectations": ['), [
      `the file is not valid JSON: ${jsonError('{"expectations": [')}`,
    ]);
  });

  test('every problem of the form is named at once, each with its path', () => {
    const r = parseTestFile(JSON.stringify({ x: 1, expectations: [{ ...fires, from: 'soon', notifications: 2 }] }));
    assert.ok(!r.ok);
    assert.deepEqual(
      r.reason.map((p) => p.path),
      [['expectations', 0, 'from'], ['expectations', 0], []],
    );
  });
});

test('the example of docs/TRIGGER-TESTS.md is a valid test file', () => {
  const doc = readFileSync(join(root, 'docs', 'TRIGGER-TESTS.md'), 'utf8');
  const example = /```json\n([\s\S]*?)\n```/.exec(doc)?.[1] ?? '';
  assert.deepEqual(problems(example), []);
  assert.match(example, /"expect": "does-not-fire"/);
});

describe('times', () => {
  test('absolute times are UTC with Z, seconds optional; relative ones count back from now in days, hours and minutes', () => {
    assert.deepEqual(readTime('2025-06-02T09:10Z'), {
      kind: 'absolute',
      seconds: Date.parse('2025-06-02T09:10:00Z') / 1000,
    });
    assert.deepEqual(readTime('now'), { kind: 'relative', secondsBeforeNow: 0 });
    assert.deepEqual(readTime('now-1d12h'), { kind: 'relative', secondsBeforeNow: 129_600 });
    assert.deepEqual(readTime('now-90m'), { kind: 'relative', secondsBeforeNow: 5_400 });
    for (const bad of ['now+1h', 'now-1h1d', 'now-', 'now-5', '2025-06-02 09:10Z', '2025-06-02T24:00Z', 'NOW', '-2h'])
      assert.equal(readTime(bad), undefined, bad);
  });

  test('times are written back in UTC, with seconds only when there are some', () => {
    assert.equal(utcText(Date.parse('2025-06-02T09:10:00Z') / 1000), '2025-06-02 09:10 UTC');
    assert.equal(utcText(Date.parse('2025-06-02T09:10:07Z') / 1000), '2025-06-02 09:10:07 UTC');
  });
});

describe('where test files and their triggers lie', () => {
  test('a test file tests the trigger file of its name beside it, or the one its trigger member names', () => {
    assert.equal(
      triggerPathFor('triggers/api-gateway/High-error-rate.trigger-test.json', undefined),
      'triggers/api-gateway/High-error-rate.trigger.json',
    );
    assert.equal(
      triggerPathFor('tests/errors.trigger-test.json', '../triggers/api-gateway/x.trigger.json'),
      'triggers/api-gateway/x.trigger.json',
    );
    assert.equal(
      triggerPathFor('C:\\repo\\tests\\a.trigger-test.json', 'b.trigger.json'),
      'C:/repo/tests/b.trigger.json',
    );
    assert.equal(triggerPathFor('tests/errors.json', undefined), undefined);
  });

  test('the test suffix is not the trigger suffix: *.trigger.json never matches a test file', () => {
    assert.equal(isTriggerTestFile('triggers/a/x.trigger-test.json'), true);
    assert.equal(isTriggerTestFile('triggers/a/x.trigger.json'), false);
    assert.equal('x.trigger-test.json'.endsWith('.trigger.json'), false);
  });
});

describe('schemas/trigger-test.schema.json', () => {
  const schema = JSON.parse(triggerTestJsonSchemaText()) as Record<string, unknown>;

  test('the committed schema equals a fresh generation from the zod schema', () => {
    assert.equal(readFileSync(join(root, TRIGGER_TEST_SCHEMA_PATH), 'utf8'), triggerTestJsonSchemaText());
  });

  test('it accepts and refuses what the zod schema does (the cross-member checks aside)', () => {
    const validate = new Ajv({ strict: false }).compile(schema);
    const samples: unknown[] = [
      { expectations: [fires] },
      {
        trigger: 'x.trigger.json',
        expectations: [{ ...fires, expect: 'at-most', notifications: 0, group: { a: 1, b: true, c: null } }],
      },
      { expectations: [{ ...fires, expect: 'does-not-fire', from: 'now-2h', to: 'now' }] },
      {},
      { expectations: [] },
      { expectations: [{ ...fires, expect: 'sometimes' }] },
      { expectations: [{ ...fires, from: 'yesterday' }] },
      { expectations: [{ ...fires, notifications: 1 }] },
      { expectations: [{ ...fires, expect: 'at-most', notifications: 1.5 }] },
      { expectations: [fires], extra: 1 },
      { trigger: '/abs.json', expectations: [fires] },
      { expectations: [{ ...fires, group: {} }] },
      { expectations: [{ ...fires, name: '' }] },
    ];
    for (const sample of samples)
      assert.equal(
        validate(sample),
        problems(sample).length === 0,
        `${JSON.stringify(sample)}: ${JSON.stringify(validate.errors)}`,
      );
  });

  test("VS Code's JSON support offers the kinds of expectation and reports a misspelt member", async () => {
    const service = getLanguageService({});
    service.configure({
      validate: true,
      schemas: [{ uri: 'obs://trigger-test.schema.json', fileMatch: ['*.trigger-test.json'], schema }],
    });
    const text = '{ "expectations": [ { "name": "a", "expect": "", "form": "now-1h", "to": "now" } ] }';
    const doc = JsonDocument.create('file:///w/triggers/x.trigger-test.json', 'json', 1, text);
    const json = service.parseJSONDocument(doc);
    const completion = await service.doComplete(doc, doc.positionAt(text.indexOf('""') + 1), json);
    assert.deepEqual(completion?.items.map((i) => i.label).sort(), ['"does-not-fire"', '"fires"', '"at-most"'].sort());
    const diagnostics = await service.doValidation(doc, json);
    assert.ok(
      diagnostics.some((d) => String(d.message).includes('form')),
      diagnostics.map((d) => String(d.message)).join('; '),
    );
  });
});
