// The noise diff's reports: the Markdown table for a pull request (biggest change first, estimates marked, a
// version not evaluated with why, details folded, hostile names shown as text), the plain text and the
// versioned JSON, from entries written here.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { biggestChangeFirst, type NoiseDiffEntry, type NoiseSide } from '../../src/backtest/noiseDiff';
import type { NoiseCounts } from '../../src/backtest/noise';
import { noiseDiffJson } from '../../src/cli/noiseDiffJson';
import { markdownText } from '../../src/cli/markdown/text';
import { noiseDiffMarkdown, noiseDiffText } from '../../src/cli/noiseDiffText';

const FROM = Date.parse('2025-05-26T13:00:00Z') / 1000;
const TO = Date.parse('2025-06-02T12:00:00Z') / 1000;

function side(notifications: number, value: number, over: Partial<NoiseCounts> = {}): NoiseSide {
  return {
    kind: 'evaluated',
    rules: { op: '>', value, exceededLimit: 1, alertType: 'on_change', frequency: 300 },
    counts: {
      notifications,
      resolves: notifications,
      firings: notifications,
      flaps: 0,
      evaluated: 2_004,
      perDay: [notifications, 0, 0, 0, 0, 0, 0],
      windowSeconds: TO - FROM,
      exact: true,
      ...over,
    },
    ...(notifications > 0 ? { first: FROM + 300, last: TO - 300 } : {}),
    from: FROM,
    to: TO,
    notes: [],
  };
}

const entry = (over: Partial<NoiseDiffEntry>): NoiseDiffEntry => ({
  key: 'k',
  label: 'triggers/api-gateway/High-error-rate.trigger.json',
  action: 'update',
  name: 'High error rate',
  dataset: 'api-gateway',
  testFiles: [],
  ...over,
});

const raised = entry({ key: 'raised', was: side(41, 5), wouldBe: side(3, 50) });
const created = entry({
  key: 'new',
  action: 'create',
  label: 'triggers/api-gateway/New.trigger.json',
  name: 'New',
  wouldBe: side(2, 9, { exact: false }),
});
const broken = entry({
  key: 'broken',
  label: 'triggers/api-gateway/Daily.trigger.json',
  name: 'Daily',
  was: side(1, 5),
  wouldBe: { kind: 'skipped', reason: 'the service keeps 7 days of data, too little' },
});

describe('the noise diff in Markdown', () => {
  test('a table: biggest change first, a create without a "was", an estimate marked, a version not evaluated with why', () => {
    const md = noiseDiffMarkdown(biggestChangeFirst([broken, created, raised]), { days: 7 });
    const rows = md.split('\n').filter((l) => l.startsWith('| '));
    const m = markdownText;
    assert.deepEqual(rows, [
      '| Trigger | Was | Would be | Change |',
      `| High error rate<br>${m(`update · ${raised.label}`)} | 41 | 3 | ${m('would have notified 3 times in 7 days (was 41)')} |`,
      `| New<br>${m(`create · ${created.label}`)} | new | 2 (estimated) | ${m('would have notified 2 times in 7 days (a new trigger) (estimated)')} |`,
      `| Daily<br>${m(`update · ${broken.label}`)} | 1 | not evaluated | ${m("the file's version cannot be evaluated: the service keeps 7 days of data, too little")} |`,
    ]);
    assert.match(
      md,
      /^### What the changes would have notified\n\n3 changes over the last 7 days: 1 quieter, 1 noisier, 0 the same, 1 not evaluated\.\n/,
    );
  });

  test("each change's details folded under it: both versions, first and last, its tests", () => {
    const md = noiseDiffMarkdown([raised], { days: 7 });
    const details = md.slice(md.indexOf('<details>'));
    const window = '6 d 23 h (2025-05-26 13:00 to 2025-06-02 12:00 UTC)';
    const times = 'first 2025-05-26 13:05 UTC, last 2025-06-02 11:55 UTC';
    assert.equal(
      details,
      [
        `<details><summary>${markdownText(`High error rate (${raised.label}): 41 -> 3`)}</summary>`,
        '',
        `- ${markdownText(`was (the service's version) (threshold > 5): 41 notifications (on_change), 41 resolves, 0 flaps in ${window}`)}`,
        `- ${markdownText(times)}`,
        `- ${markdownText(`would be (the file's version) (threshold > 50): 3 notifications (on_change), 3 resolves, 0 flaps in ${window}`)}`,
        `- ${markdownText(times)}`,
        `- ${markdownText('tests: no test file tests its file')}`,
        '',
        '</details>',
        '',
      ].join('\n'),
    );
  });

  test("a hostile name and file are written as Markdown text, in the table's row and in the details", () => {
    const name = '<img src=x onerror=alert(1)> | [click](https://evil.example) **bold** \u202e\n';
    const label = 'triggers/a|b.trigger.json';
    const md = noiseDiffMarkdown([entry({ name, label, was: side(41, 5), wouldBe: side(3, 50) })], { days: 7 });
    const row = md.split('\n').find((l) => l.startsWith(`| ${markdownText(name)}<br>`));
    assert.equal(
      row,
      `| ${markdownText(name)}<br>${markdownText(`update · ${label}`)} | 41 | 3 | ${markdownText('would have notified 3 times in 7 days (was 41)')} |`,
    );
    assert.ok(md.includes(`<details><summary>${markdownText(`${name} (${label}): 41 -> 3`)}</summary>`), md);
    assert.equal(md.includes('<img'), false);
  });
});

describe('the noise diff in text and JSON', () => {
  test('text: a line per change with both counts and the sentence, its details indented under it', () => {
    const deleted = entry({
      action: 'delete',
      label: 'api-gateway, id trig_old',
      name: 'Old',
      was: side(12, 5),
      testsNotRun: 'no file holds it, so no test file tests it',
    });
    const text = noiseDiffText([raised, created, deleted], { days: 7 });
    const lines = text.split('\n');
    assert.equal(
      lines[2],
      '41 -> 3  update "High error rate" (triggers/api-gateway/High-error-rate.trigger.json) on api-gateway: would have notified 3 times in 7 days (was 41)',
    );
    assert.ok(
      lines.includes(
        'new -> 2~  create "New" (triggers/api-gateway/New.trigger.json) on api-gateway: would have notified 2 times in 7 days (a new trigger) (estimated)',
      ),
      text,
    );
    assert.deepEqual(lines.slice(-7, -3), [
      '12 -> deleted  delete "Old" (api-gateway, id trig_old) on api-gateway: would no longer send the 12 notifications it sent in 7 days',
      "    was (the service's version) (threshold > 5): 12 notifications (on_change), 12 resolves, 0 flaps in 6 d 23 h (2025-05-26 13:00 to 2025-06-02 12:00 UTC)",
      '    first 2025-05-26 13:05 UTC, last 2025-06-02 11:55 UTC',
      '    tests: no file holds it, so no test file tests it',
    ]);
    assert.equal(lines.at(-2), '3 changes over the last 7 days: 2 quieter, 1 noisier, 0 the same, 0 not evaluated');
  });

  test('JSON: the format and its version, null for the version a change has not, the counts of each side', () => {
    const json = noiseDiffJson([created, broken], { days: 7 });
    assert.deepEqual(
      [json.format, json.version, json.days, json.quieter, json.noisier, json.same, json.not_evaluated],
      ['obs-noise-diff', 1, 7, 0, 1, 0, 1],
    );
    const [c, b] = json.changes as Record<string, unknown>[];
    assert.deepEqual([c?.was, c?.change, c?.kind], [null, 2, 'noisier']);
    assert.deepEqual((c?.would_be as Record<string, unknown>).estimated, true);
    assert.deepEqual(b?.would_be, { status: 'not-evaluated', reason: 'the service keeps 7 days of data, too little' });
    assert.deepEqual([b?.change, b?.kind], [null, 'not-evaluated']);
  });

  test('the groups a version notified: how many, and the three in the most notifications', () => {
    const grouped: NoiseSide = {
      ...(side(41, 5) as Extract<NoiseSide, { kind: 'evaluated' }>),
      groups: {
        count: 5,
        top: [
          { label: 'web', notifications: 30 },
          { label: 'checkout', notifications: 8 },
          { label: 'cart', notifications: 3 },
        ],
      },
    };
    const lines = noiseDiffText([entry({ was: grouped, wouldBe: side(41, 5) })], { days: 7 }).split('\n');
    assert.ok(lines.includes('    5 groups notified: web 30, checkout 8, cart 3, ...'), lines.join('\n'));
  });

  test('a window a day or more shorter than asked is said as it is; both versions not evaluated both say why', () => {
    const shorter = { windowSeconds: 5 * 86_400 + 23 * 3_600 };
    const baseline = entry({ was: side(8, 50, shorter), wouldBe: side(4, 80, shorter) });
    const neither = entry({ was: { kind: 'skipped', reason: 'one' }, wouldBe: { kind: 'skipped', reason: 'two' } });
    const lines = noiseDiffText([baseline, neither], { days: 7 }).split('\n');
    assert.ok(lines[2]?.endsWith(': would have notified 4 times in 5 d 23 h (was 8)'), lines[2]);
    assert.ok(
      lines.some((l) =>
        l.endsWith(": the service's version cannot be evaluated: one; the file's version cannot be evaluated: two"),
      ),
      lines.join('\n'),
    );
  });
});
