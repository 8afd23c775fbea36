// The noise report's core against the sandbox: the demo's "High error rate" over the last 7 days (its bursts,
// counted as the engine counts them), over a budget a suggested threshold that, written into the file as
// suggested and evaluated again, keeps it within the budget and still passes its "fires" test, with no new
// query result (the session's results); the edit itself (only the value, or one inserted member), refused on a
// threshold changed since; what is left out and why; the view's rows.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits } from 'jsonc-parser';
import { ServiceClient } from '../../src/api/client';
import { CreationPacer, ResultCache } from '../../src/backtest';
import { SavedQueryCache } from '../../src/backtest/savedQueryCache';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import {
  evaluateNoise,
  noisiestFirst,
  prepareNoise,
  type NoiseEntry,
  type NoiseSession,
  type NoiseTarget,
  type PreparedNoise,
} from '../../src/backtest/noiseReport';
import { noiseRows, withoutSuggestions, type NoiseRow } from '../../src/extension/noise/noiseRows';
import { safeLabel } from '../../src/extension/core/text';
import { readSuggestedEdit, suggestionEdits, suggestionNotice } from '../../src/extension/noise/suggestionEdit';
import { virtualClock } from './virtualClock';

const root = join(import.meta.dirname, '..', '..');
const DEMO_DIR = join(root, 'demo', 'workspace', 'triggers', 'api-gateway');
const DEMO_TRIGGER = readFileSync(join(DEMO_DIR, 'High-error-rate.trigger.json'), 'utf8');
const DEMO_TESTS = readFileSync(join(DEMO_DIR, 'High-error-rate.trigger-test.json'), 'utf8');

const handles: SandboxHandle[] = [];
const clients: ServiceClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(handles.map((h) => h.close()));
});

/** A sandbox at 12:02 UTC on a clock every sleep moves on (nothing really waits), and one query session. */
async function setup() {
  const { clock, timing, now } = virtualClock('2025-06-02T12:02:00Z');
  const sandbox = await startSandbox({ clock: now, rateLimit: 10_000 });
  const client = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey, timing });
  handles.push(sandbox);
  clients.push(client);
  const reports: string[] = [];
  const session: NoiseSession = {
    api: client,
    pacer: new CreationPacer(clock),
    cache: new ResultCache(),
    queries: new SavedQueryCache(),
    clock,
    signal: new AbortController().signal,
    report: (m) => reports.push(m),
    nowSeconds: Math.floor(now() / 1000),
  };
  const created = () =>
    sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/1/query_results/')).length;
  return { session, created, reports };
}

const target = (
  text = DEMO_TRIGGER,
  tests = [{ label: 'High-error-rate.trigger-test.json', text: DEMO_TESTS }],
): NoiseTarget => ({
  key: 'file:///w/triggers/api-gateway/High-error-rate.trigger.json',
  label: 'triggers/api-gateway/High-error-rate.trigger.json',
  text,
  tests,
});

async function evaluated(
  s: NoiseSession,
  t: NoiseTarget,
  max: number,
): Promise<Extract<NoiseEntry, { kind: 'evaluated' }>> {
  const prepared = await prepareNoise(t, s);
  assert.ok('tested' in prepared, JSON.stringify(prepared));
  const entry = await evaluateNoise(prepared as PreparedNoise, s, { mode: 'exact', days: 7, budget: max });
  assert.equal(entry.kind, 'evaluated', JSON.stringify(entry));
  return entry as Extract<NoiseEntry, { kind: 'evaluated' }>;
}

describe('the noise of a trigger file', () => {
  test('"High error rate" over 6 d 23 h: its bursts (two a day, and stray errors) each one notification and one resolve, from 3 query results', async () => {
    const s = await setup();
    const entry = await evaluated(s.session, target(), 100);
    assert.deepEqual(
      [
        entry.counts.windowSeconds,
        entry.counts.notifications,
        entry.counts.resolves,
        entry.counts.flaps,
        entry.counts.perDay.length,
      ],
      [6 * 86_400 + 23 * 3_600, 17, 17, 0, 7],
    );
    assert.equal(
      entry.counts.perDay.reduce((a, b) => a + b, 0),
      17,
    );
    assert.deepEqual(
      [entry.to, entry.counts.exact, entry.suggestion, entry.dataset],
      [Date.parse('2025-06-02T12:00:00Z') / 1000, true, undefined, 'api-gateway'],
    );
    assert.equal(s.created(), 3);
  });

  test('over a budget of 7: the suggested threshold, written into the file, keeps it within 7 and its "fires" test still passes, and costs no new query', async () => {
    const s = await setup();
    const entry = await evaluated(s.session, target(), 7);
    const suggestion = entry.suggestion?.suggestions.find((x) => x.change.member === 'value');
    assert.ok(suggestion, JSON.stringify(entry.suggestion));
    assert.ok(suggestion.change.value > 5 && suggestion.notifications <= 7, JSON.stringify(suggestion));
    assert.deepEqual([entry.suggestion?.missed, entry.unchecked], [[], []]);
    const before = s.created();
    const edits = suggestionEdits(DEMO_TRIGGER, {
      key: 'k',
      member: 'value',
      value: suggestion.change.value,
      seen: { op: '>', value: 5, exceededLimit: 1 },
    });
    assert.ok(edits.ok);
    const edited = applyEdits(DEMO_TRIGGER, edits.edits);
    const again = await evaluated(s.session, target(edited), 7);
    assert.equal(again.counts.notifications, suggestion.notifications);
    assert.ok(again.counts.notifications <= 7);
    assert.equal(again.suggestion, undefined);
    assert.equal(s.created(), before, 'the same queries: taken from the session');
  });

  test('a budget no threshold can meet while the burst of the last day is still caught is said, naming that test', async () => {
    const s = await setup();
    const entry = await evaluated(s.session, target(), 0);
    assert.deepEqual(
      [entry.suggestion?.suggestions.filter((x) => x.change.member === 'value'), entry.suggestion?.blockedBy],
      [[], 'catches the error bursts of the last day'],
    );
  });

  test('files left out, each with why', async () => {
    const s = await setup();
    const reasons = await Promise.all(
      [
        '[{"name":"a"},{"name":"b"}]',
        '{ "name": "x", ',
        JSON.stringify({ ...JSON.parse(DEMO_TRIGGER), dataset_slug: undefined }),
      ].map(async (text) => {
        const p = await prepareNoise(target(text, []), s.session);
        return 'reason' in p ? p.reason : 'evaluated';
      }),
    );
    assert.deepEqual(reasons, [
      'the file does not hold one trigger object',
      'the file is not valid JSON (fix the problems the linter shows first)',
      'the trigger file names no dataset_slug: give the test file a "dataset" member',
    ]);
  });
});

describe('the edit of a suggested change', () => {
  const seen = { op: '>', value: 5, exceededLimit: 1 };
  test('the threshold value alone is replaced', () => {
    const edits = suggestionEdits(DEMO_TRIGGER, { key: 'k', member: 'value', value: 12, seen });
    assert.ok(edits.ok);
    assert.equal(edits.edits.length, 1);
    assert.deepEqual([edits.edits[0]?.length, edits.edits[0]?.content], [1, '12']);
    assert.equal(applyEdits(DEMO_TRIGGER, edits.edits), DEMO_TRIGGER.replace('"value": 5', '"value": 12'));
  });

  test('an exceeded_limit the file does not have is inserted in its indentation; nothing else changes', () => {
    const edits = suggestionEdits(DEMO_TRIGGER, { key: 'k', member: 'exceeded_limit', value: 2, seen });
    assert.ok(edits.ok);
    assert.equal(
      applyEdits(DEMO_TRIGGER, edits.edits),
      DEMO_TRIGGER.replace('"value": 5\n', '"value": 5,\n    "exceeded_limit": 2\n'),
    );
  });

  test('a file whose threshold changed since the report is not edited, and says why', () => {
    const changed = DEMO_TRIGGER.replace('"value": 5', '"value": 9');
    assert.deepEqual(suggestionEdits(changed, { key: 'k', member: 'value', value: 12, seen }), {
      ok: false,
      reason: 'its threshold changed since the report (> 9, exceeded_limit 1): run the report again',
    });
  });

  test('the note after the change says it is not saved only where it is not: with Auto Save it says Auto Save saves it', () => {
    const note = (dirty: boolean, autoSave: string) =>
      suggestionNotice('High-error-rate.trigger.json', 'threshold value 12', { dirty, autoSave });
    const review = 'Review it, then send it to the service with Apply (its lens); Undo takes it back.';
    assert.deepEqual(note(true, 'off'), {
      compare: 'saved',
      text: 'High-error-rate.trigger.json now has the suggested threshold value 12, not saved yet. Review it, save it, then send it to the service with Apply (its lens).',
    });
    // VS Code in a browser (the demo) saves edits after a second by default.
    assert.deepEqual(note(true, 'afterDelay'), {
      compare: 'service',
      text: `High-error-rate.trigger.json now has the suggested threshold value 12; Auto Save saves it in a moment. ${review}`,
    });
    assert.equal(
      note(true, 'onFocusChange').text,
      `High-error-rate.trigger.json now has the suggested threshold value 12; Auto Save saves it when the editor loses focus. ${review}`,
    );
    assert.equal(
      note(true, 'onWindowChange').text,
      `High-error-rate.trigger.json now has the suggested threshold value 12; Auto Save saves it when the window loses focus. ${review}`,
    );
    assert.deepEqual(note(false, 'afterDelay'), {
      compare: 'service',
      text: `High-error-rate.trigger.json now has the suggested threshold value 12, saved. ${review}`,
    });
    for (const mode of ['afterDelay', 'onFocusChange', 'onWindowChange'])
      assert.doesNotMatch(note(true, mode).text, /not saved/);
  });

  test("a command's argument is read only when it is a whole suggestion", () => {
    assert.deepEqual(readSuggestedEdit({ key: 'k', member: 'value', value: 3, seen }), {
      key: 'k',
      member: 'value',
      value: 3,
      seen,
    });
    assert.equal(readSuggestedEdit({ key: 'k', member: 'query', value: 3, seen }), undefined);
    assert.equal(readSuggestedEdit({ key: 'k', member: 'value', value: Number.NaN, seen }), undefined);
    assert.equal(readSuggestedEdit('x'), undefined);
  });
});

describe("the report's rows", () => {
  const counts = (notifications: number, flaps: number) => ({
    notifications,
    resolves: notifications,
    firings: notifications,
    flaps,
    evaluated: 2000,
    perDay: [0, 1, 2, 4, 8, 0, 8],
    windowSeconds: 6 * 86_400 + 23 * 3_600,
    exact: true,
  });
  const entry = (key: string, notifications: number, flaps: number): NoiseEntry => ({
    kind: 'evaluated',
    key,
    label: `${key}.trigger.json`,
    name: key,
    dataset: 'api-gateway',
    rules: { op: '>', value: 5, exceededLimit: 1, alertType: 'on_change', frequency: 300 },
    counts: counts(notifications, flaps),
    from: 0,
    to: 601_200,
    notes: [],
    unchecked: [],
  });

  test('noisiest first (notifications, then flaps), the files left out last', () => {
    const sorted = noisiestFirst([
      entry('quiet', 1, 0),
      { kind: 'skipped', key: 'odd', label: 'odd', reason: 'r' },
      entry('flappy', 9, 4),
      entry('loud', 9, 1),
      entry('loudest', 30, 0),
    ]);
    assert.deepEqual(
      sorted.map((e) => e.key),
      ['loudest', 'flappy', 'loud', 'quiet', 'odd'],
    );
  });

  test("a trigger's row: its counts and a sparkline per day; a suggestion row opens the edit for review", () => {
    const noisy = {
      ...entry('loud', 23, 2),
      suggestion: {
        notifications: 23,
        suggestions: [{ change: { member: 'value' as const, value: 12 }, notifications: 6 }],
        missed: [],
      },
    };
    const [row] = noiseRows([noisy], 7);
    assert.deepEqual(
      [row?.label, row?.description, row?.icon],
      ['loud', '23 notifications · 2 flaps · ▁▂▃▅█▁█', 'bell-dot'],
    );
    const suggestion = row?.children?.find((c) => c.review);
    assert.deepEqual(
      [suggestion?.label, suggestion?.description, suggestion?.review],
      [
        'Suggested: threshold > 12 (now > 5)',
        '6 notifications in the last 6 d 23 h',
        { key: 'loud', member: 'value', value: 12, seen: { op: '>', value: 5, exceededLimit: 1 } },
      ],
    );
  });

  test("a trigger an environment sees offers no edit of its file: its threshold may be the environment's override", () => {
    const suggestion = {
      notifications: 23,
      suggestions: [{ change: { member: 'value' as const, value: 12 }, notifications: 6 }],
      missed: [],
    };
    const seen = { ...entry('seen', 23, 2), suggestion };
    const home = { ...entry('home', 23, 2), suggestion };
    const rows = noiseRows(withoutSuggestions([seen, home], new Set(['seen'])), 7);
    assert.deepEqual(
      rows.map((r) => [r.label, (r.children ?? []).filter((c) => c.review !== undefined).length]),
      [
        ['seen', 0],
        ['home', 1],
      ],
    );
  });

  test('estimated counts say so', () => {
    const estimated = { ...entry('loud', 23, 2), counts: { ...counts(23, 2), exact: false } };
    assert.match(noiseRows([estimated], 7)[0]?.description ?? '', / \(estimated\)$/);
  });
});

describe('what the rows draw is bounded, whatever a file or the service holds', () => {
  // A trigger name or test name of a million characters, with a right-to-left override, a line break and
  // ESC; a service error of a million characters as the reason a file was left out.
  const HOSTILE = `evil\u202eLTR\n\u001b[2J${'n'.repeat(1_000_000)}`;
  const rows = noiseRows(
    [
      {
        kind: 'evaluated',
        key: 'k',
        label: `${HOSTILE}.trigger.json`,
        name: HOSTILE,
        dataset: HOSTILE,
        rules: { op: '>', value: 5, exceededLimit: 1, alertType: 'on_change', frequency: 300 },
        counts: {
          notifications: 23,
          resolves: 23,
          firings: 23,
          flaps: 0,
          evaluated: 2000,
          perDay: [1, 2, 3, 4, 5, 6, 2],
          windowSeconds: 7 * 86_400,
          exact: true,
        },
        from: 0,
        to: 604_800,
        notes: [HOSTILE],
        unchecked: [HOSTILE],
        suggestion: { notifications: 23, suggestions: [], missed: [HOSTILE], blockedBy: HOSTILE },
      },
      { kind: 'skipped', key: 's', label: HOSTILE, name: HOSTILE, reason: HOSTILE },
    ],
    7,
  );
  const all = (list: readonly NoiseRow[]): NoiseRow[] => list.flatMap((r) => [r, ...all(r.children ?? [])]);
  const drawn = all(rows);
  // C0 and C1 controls but tab and line breaks (a tooltip keeps its lines), bidi controls and marks.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const hidden = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

  test('every label and description is one line of at most 200 characters, with no control or bidi character', () => {
    assert.equal(drawn.length, 9);
    for (const text of drawn.flatMap((r) => [r.label, r.description ?? ''])) {
      assert.ok(text.length <= 200, `${text.length} characters`);
      assert.doesNotMatch(text, /[\n\r\u2028\u2029]/);
      assert.doesNotMatch(text, hidden);
    }
    assert.equal(rows[0]?.label, safeLabel(HOSTILE, 200));
  });

  test('every tooltip cuts each text at 1,000 characters, saying so, and holds no control or bidi character', () => {
    const tooltips = drawn.flatMap((r) => (r.tooltip === undefined ? [] : [r.tooltip]));
    assert.equal(tooltips.length, 3);
    for (const t of tooltips) {
      assert.ok(t.length <= 10_000, `${t.length} characters`);
      assert.doesNotMatch(t, hidden);
    }
    // The skipped file's tooltip: its name, then the reason, each cut.
    const said = [...(rows[1]?.tooltip ?? '').matchAll(/\u2026 \(shortened; (\d+) characters in all\)/g)].map(
      (m) => m[1],
    );
    assert.deepEqual(said, [String(HOSTILE.length), String('Not evaluated: '.length + HOSTILE.length)]);
  });
});
