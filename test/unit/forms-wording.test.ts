// The forms' words: a broken rule said with the field's label (never the API's member names), a refused
// column put on the definition that named it, relative times with a pinned clock, and the tab titles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import { TAB_TITLES } from '../../src/extension/forms/formText';
import { placeRefusedColumns } from '../../src/webview/protocol/datasetDefinitionsForm';
import { minutesInWords } from '../../src/webview/protocol/text/duration';
import { burnAlertSummary } from '../../src/extension/tree/presentation';
import { noProblems, problemsFromZod, tableResolver } from '../../src/webview/protocol/problems';
import { wordIssue } from '../../src/webview/protocol/wording';
import { formatTime, relativeTime, utcText } from '../../src/webview/shared/time';

const issueOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  assert.equal(parsed.success, false, 'the value breaks the rule');
  const issue = parsed.error?.issues[0];
  assert.ok(issue);
  return issue;
};

test('each kind of broken rule is said with the label and the limit, numbers grouped', () => {
  const label = 'Window';
  assert.equal(wordIssue(issueOf(z.number().min(0), -1), label), 'Window must be 0 or more.');
  assert.equal(wordIssue(issueOf(z.number().min(60), 59), label), 'Window must be at least 60.');
  assert.equal(wordIssue(issueOf(z.number().gt(5), 5), label), 'Window must be more than 5.');
  assert.equal(wordIssue(issueOf(z.number().max(1_000_000), 1_000_001), label), 'Window must be at most 1,000,000.');
  assert.equal(wordIssue(issueOf(z.number().lt(10), 10), label), 'Window must be less than 10.');
  assert.equal(wordIssue(issueOf(z.number().int(), 1.5), label), 'Window must be a whole number.');
  assert.equal(wordIssue(issueOf(z.number(), 'x'), label), 'Window must be a number.');
  assert.equal(wordIssue(issueOf(z.string().min(1), ''), label), 'Window is required.');
  assert.equal(wordIssue(issueOf(z.string().min(3), 'ab'), label), 'Window needs at least 3 characters.');
  assert.equal(
    wordIssue(issueOf(z.string().max(1023), 'x'.repeat(1024)), label),
    'Window can have at most 1,023 characters.',
  );
  assert.equal(wordIssue(issueOf(z.array(z.string()).min(1), []), label), 'Window needs at least 1.');
  assert.equal(wordIssue(issueOf(z.array(z.string()).max(2), ['a', 'b', 'c']), label), 'Window can have at most 2.');
  assert.equal(
    wordIssue(
      issueOf(
        z.string().refine(() => false, { params: { rule: 'required' } }),
        'x',
      ),
      label,
    ),
    'Window is required.',
  );
  assert.equal(
    wordIssue(
      issueOf(
        z.string().refine(() => false, { params: { rule: 'not-allowed' } }),
        'x',
      ),
      label,
    ),
    'Window does not apply here.',
  );
  assert.equal(
    wordIssue(
      issueOf(
        z.string().refine(() => false, 'window_minutes is bad'),
        'x',
      ),
      label,
    ),
    'Window is not valid.',
  );
});

test("problemsFromZod words an issue on a field and keeps the schema's words for one that names no field", () => {
  const schema = z
    .strictObject({ a: z.object({ exhaustion_minutes: z.number().min(0) }), b: z.string() })
    .refine(() => false, 'the body is odd');
  const parsed = schema.safeParse({ a: { exhaustion_minutes: -1 }, b: 'x' });
  assert.equal(parsed.success, false);
  const problems = problemsFromZod(parsed.error as z.ZodError, tableResolver({ 'a.exhaustion_minutes': 'minutes' }), {
    labels: { minutes: 'Exhaustion minutes' },
  });
  assert.deepEqual(problems, {
    fields: { minutes: ['Exhaustion minutes must be 0 or more.'] },
    form: ['the body is odd'],
  });
});

const refusal = (detail: string, over: Record<string, unknown> = {}) => ({
  kind: 'http',
  status: 422,
  message: `update dataset definitions failed: HTTP 422 Unprocessable Entity: ${detail}`,
  detail,
  fieldProblems: [],
  ...over,
});

test('a refused save names its columns in quotes: each lands on the definition that named it, and the raw text leaves the top', () => {
  const failure = refusal('unknown column(s): route -> "status", user -> "who"');
  const top = noProblems();
  top.form.push(failure.message);
  const placed = placeRefusedColumns(top, failure, {
    route: { name: 'status' },
    user: { name: 'who' },
    status: { name: 'http.status' },
    error: { name: '' },
  });
  assert.deepEqual(placed, {
    fields: { route: ['The service refused the column "status".'], user: ['The service refused the column "who".'] },
    form: [],
  });
});

test('a refusal cut short ("…") before naming every column: the name it stops inside, and those it does not reach that are not columns, get their own problem', () => {
  const [a, b, c] = ['a', 'b', 'c'].map((ch) => ch.repeat(120)) as [string, string, string];
  const failure = refusal(
    `unknown column(s) for dataset api-gateway: route -> "${a}", user -> "${b.slice(0, 90)}\u2026`,
  );
  const top = noProblems();
  top.form.push(failure.message);
  const sent = {
    route: { name: a as string },
    user: { name: b as string },
    log_message: { name: c as string },
    status: { name: 'http.status' },
  };
  assert.deepEqual(placeRefusedColumns(top, failure, sent, new Set(['http.status'])), {
    fields: {
      route: [`The service refused the column "${a}".`],
      user: [`The service refused the column "${b}".`],
      log_message: [
        `"${c}" is not a column of this dataset: the service most likely refused it too (its answer was cut short).`,
      ],
    },
    form: [],
  });
  // Without the dataset's columns nothing more can be placed: the service's text stays on top.
  assert.deepEqual(placeRefusedColumns(top, failure, sent, null), {
    fields: { route: [`The service refused the column "${a}".`], user: [`The service refused the column "${b}".`] },
    form: [failure.message],
  });
});

test('without quotes a column counts only as a whole word, never inside a longer name', () => {
  const sent = { route: { name: 'http.route' }, user: { name: 'user' }, status: { name: 'code' } };
  assert.deepEqual(placeRefusedColumns(noProblems(), refusal('unknown columns: http.route, user.id'), sent).fields, {
    route: ['The service refused the column "http.route".'],
  });
});

test('a refusal that is not a 422, that names fields itself, or names no sent column is left as it is', () => {
  const sent = { route: { name: 'status' } };
  assert.deepEqual(placeRefusedColumns(noProblems(), refusal('"status"', { status: 409 }), sent), noProblems());
  assert.deepEqual(
    placeRefusedColumns(noProblems(), refusal('"status"', { fieldProblems: [{ field: 'route', message: 'x' }] }), sent),
    noProblems(),
  );
  assert.deepEqual(placeRefusedColumns(noProblems(), refusal('something else went wrong'), sent), noProblems());
});

test('relative times: just now under 45 s, then minutes, hours, days, months, years, either way in time', () => {
  const now = Date.parse('2025-06-02T12:00:00Z');
  const ago = (seconds: number) => relativeTime(now - seconds * 1000, now);
  assert.equal(ago(44), 'just now');
  assert.equal(relativeTime(now + 30_000, now), 'just now');
  assert.equal(ago(46), '1 minute ago');
  assert.equal(ago(10 * 60), '10 minutes ago');
  assert.equal(ago(3 * 3600 + 600), '3 hours ago');
  assert.equal(ago(2 * 86400), '2 days ago');
  assert.equal(ago(60 * 86400), '2 months ago');
  assert.equal(ago(3 * 365 * 86400), '3 years ago');
  assert.equal(relativeTime(now + 5 * 60_000, now), 'in 5 minutes');
});

test('the exact time is UTC to the second; the table and chart time is local or UTC to the minute', () => {
  assert.equal(utcText(Date.parse('2024-03-02T10:00:07.123Z')), '2024-03-02 10:00:07 UTC');
  assert.equal(formatTime(Date.parse('2025-06-02T00:01:00Z') / 1000, true), '2025-06-02 00:01 UTC');
  assert.match(formatTime(Date.parse('2025-06-02T00:01:00Z') / 1000, false), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
});

test('tab titles read "<Action> <object name> - <connection>", long names shortened', () => {
  assert.equal(TAB_TITLES.createApiKey('Sandbox'), 'Create API Key - Sandbox');
  assert.equal(TAB_TITLES.updateApiKey('ingest main', 'Sandbox'), 'Update API Key ingest main - Sandbox');
  assert.equal(TAB_TITLES.updateApiKey('', 'Sandbox'), 'Update API Key - Sandbox');
  assert.equal(TAB_TITLES.burnAlert('ba_1', 'Prod'), 'Edit Burn Alert ba_1 - Prod');
  assert.equal(TAB_TITLES.definitions('api-gateway', 'Sandbox'), 'Edit Dataset Definitions api-gateway - Sandbox');
  assert.equal(TAB_TITLES.updateApiKey('k'.repeat(100), 'Sandbox'), `Update API Key ${'k'.repeat(39)}\u2026 - Sandbox`);
});

test('minutes in words: exact up to a day, then days and hours, then about so many days or years', () => {
  const said = [0, 45, 60, 61, 240, 1439, 1440, 1500, 3060, 3061, 100_000, 525_960, 600_000, 2_147_483_648].map((m) =>
    minutesInWords(m),
  );
  assert.deepEqual(said, [
    '0 min',
    '45 min',
    '1 h',
    '1 h 1 min',
    '4 h',
    '23 h 59 min',
    '1 day',
    '1 day 1 h',
    '2 days 3 h',
    'about 2 days 3 h',
    'about 69 days',
    'about 1 year',
    'about 1.1 years',
    'about 4,083 years',
  ]);
  assert.equal(minutesInWords(2_147_483_648, 'de'), 'about 4.083 years', 'numbers in the display language');
});

test("the Datasets view says a burn alert's exhaustion past a day in words, not as 2147483648 min", () => {
  const alert = (minutes: number) => ({
    id: 'ba',
    alert_type: 'exhaustion_time' as const,
    exhaustion_minutes: minutes,
  });
  assert.equal(burnAlertSummary(alert(2_147_483_648)), 'Exhaustion in about 4,083 years');
  assert.equal(burnAlertSummary(alert(3060)), 'Exhaustion in 2 days 3 h');
  assert.equal(burnAlertSummary(alert(240)), 'Exhaustion in 240 min');
});
