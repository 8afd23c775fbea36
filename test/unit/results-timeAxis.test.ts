// The chart's time axis labels: 24-hour times, the day under the first label and wherever it changes, month
// names in the display language, local time or UTC.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { timeAxisLabels } from '../../src/webview/shared/timeAxis';

const at = (iso: string): number => Date.parse(iso) / 1000;
const HOURS = ['2026-11-24T22:00:00Z', '2026-11-24T23:00:00Z', '2026-11-25T00:00:00Z', '2026-11-25T01:00:00Z'].map(at);

test('hourly splits are 24-hour times, with the day under the first one and under midnight', () => {
  assert.deepEqual(timeAxisLabels(HOURS, 3600, { utc: true, locale: 'en' }), [
    '22:00\nNov 24',
    '23:00',
    '00:00\nNov 25',
    '01:00',
  ]);
});

test('the day is written in the display language', () => {
  assert.deepEqual(timeAxisLabels(HOURS, 3600, { utc: true, locale: 'de' }), [
    '22:00\n24. Nov.',
    '23:00',
    '00:00\n25. Nov.',
    '01:00',
  ]);
});

test('splits under a minute apart show seconds', () => {
  assert.deepEqual(
    timeAxisLabels([at('2026-11-24T22:00:30Z'), at('2026-11-24T22:00:40Z')], 10, { utc: true, locale: 'en' }),
    ['22:00:30\nNov 24', '22:00:40'],
  );
});

test('splits under a second apart (zoomed in) show milliseconds', () => {
  const t = at('2026-11-24T22:00:30Z');
  assert.deepEqual(timeAxisLabels([t, t + 0.5, t + 1], 0.5, { utc: true, locale: 'en' }), [
    '22:00:30.000\nNov 24',
    '22:00:30.500',
    '22:00:31.000',
  ]);
});

test('daily splits are days, with the year under the first one and where it changes', () => {
  const days = ['2026-12-30T00:00:00Z', '2026-12-31T00:00:00Z', '2027-01-01T00:00:00Z'].map(at);
  assert.deepEqual(timeAxisLabels(days, 86_400, { utc: true, locale: 'de' }), [
    '30. Dez.\n2026',
    '31. Dez.',
    '1. Jan.\n2027',
  ]);
});

test('monthly splits are month names', () => {
  const months = ['2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z'].map(at);
  assert.deepEqual(timeAxisLabels(months, 30 * 86_400, { utc: true, locale: 'fr' }), [
    'nov.\n2026',
    'déc.',
    'janv.\n2027',
  ]);
});

const zone = process.env.TZ;
after(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

test('in local time the labels and the day change follow the local zone, not UTC', () => {
  process.env.TZ = 'Asia/Tokyo';
  const splits = [at('2026-11-24T14:00:00Z'), at('2026-11-24T15:00:00Z')];
  assert.deepEqual(timeAxisLabels(splits, 3600, { utc: false, locale: 'en' }), ['23:00\nNov 24', '00:00\nNov 25']);
  assert.deepEqual(timeAxisLabels(splits, 3600, { utc: true, locale: 'en' }), ['14:00\nNov 24', '15:00']);
});

test('in local time across the end of summer time the hour 02:00 comes twice, as the clock shows it', () => {
  process.env.TZ = 'Europe/Berlin';
  const splits = ['2026-10-25T00:00:00Z', '2026-10-25T01:00:00Z', '2026-10-25T02:00:00Z'].map(at);
  assert.deepEqual(timeAxisLabels(splits, 3600, { utc: false, locale: 'de' }), ['02:00\n25. Okt.', '02:00', '03:00']);
});
