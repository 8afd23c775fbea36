// How the tree words a trigger's and a burn alert's settings: documented values in the user's words,
// anything else the service may send shown as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  baselineText,
  burnAlertKind,
  scheduleText,
  triggerNotifyLong,
  triggerNotifyShort,
} from '../../src/extension/tree/alertWords';

test("a trigger without an alert type notifies on change, the spec's default", () => {
  assert.deepEqual([undefined, 'on_change', 'on_true'].map(triggerNotifyShort), [
    'notify on change',
    'notify on change',
    'notify while true',
  ]);
});

test('the tooltip explains the alert type and keeps the value a trigger file holds', () => {
  assert.equal(triggerNotifyLong('on_change'), 'once each time the result crosses the threshold (on_change)');
  assert.equal(triggerNotifyLong('on_true'), 'at every run while the threshold is met (on_true)');
});

test('a trigger without an alert type is explained as the default it gets', () => {
  assert.equal(
    triggerNotifyLong(undefined),
    'once each time the result crosses the threshold (on_change, the default)',
  );
});

test('a trigger alert type the service added later is shown as it is', () => {
  assert.equal(triggerNotifyShort('on_resolve'), 'on_resolve');
  assert.equal(triggerNotifyLong('on_resolve'), 'on_resolve');
});

test("a burn alert's kind is said in words with its value", () => {
  assert.equal(burnAlertKind('exhaustion_time'), 'time until the budget is used up (exhaustion_time)');
  assert.equal(burnAlertKind('budget_rate'), 'how fast the budget drops (budget_rate)');
});

test('a window schedule lists its days in week order in the display language, and its UTC hours', () => {
  const schedule = {
    window: { days_of_week: ['sunday', 'monday', 'wednesday'], start_time: '09:00', end_time: '17:30' },
  };
  assert.equal(scheduleText('window', schedule), 'Mon, Wed, Sun 09:00-17:30 UTC');
  assert.equal(scheduleText('window', schedule, 'de'), 'Mo, Mi und So 09:00-17:30 UTC');
});

test('a window of no days, of a day twice or of more than seven days is shown as its JSON', () => {
  const window = (days: string[]) => ({ window: { days_of_week: days, start_time: '09:00', end_time: '17:00' } });
  for (const days of [
    [],
    ['monday', 'monday'],
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'monday'],
  ]) {
    assert.equal(scheduleText('window', window(days)), `window ${JSON.stringify(window(days))}`);
  }
});

test('a window ending at or before its start runs into the next day', () => {
  assert.equal(
    scheduleText('window', { window: { days_of_week: ['friday'], start_time: '22:00', end_time: '06:00' } }),
    'Fri 22:00 UTC to 06:00 UTC the next day',
  );
  assert.equal(
    scheduleText('window', { window: { days_of_week: ['friday'], start_time: '08:00', end_time: '08:00' } }),
    'Fri 08:00 UTC to 08:00 UTC the next day',
  );
});

test('a window of another shape is shown as its JSON, never guessed at', () => {
  assert.equal(
    scheduleText('window', { window: { days_of_week: ['funday'], start_time: '09:00', end_time: '17:00' } }),
    'window {"window":{"days_of_week":["funday"],"start_time":"09:00","end_time":"17:00"}}',
  );
  assert.equal(
    scheduleText('window', { window: { days_of_week: ['monday'], start_time: '9am', end_time: '17:00' } }),
    'window {"window":{"days_of_week":["monday"],"start_time":"9am","end_time":"17:00"}}',
  );
  assert.equal(scheduleText('window', null), 'window null');
});

test("a frequency schedule runs all the time, as does one without a type (the spec's default)", () => {
  assert.equal(scheduleText('frequency', null), 'all the time (frequency)');
  assert.equal(scheduleText(undefined, undefined), 'all the time (frequency, the default)');
});

test('a schedule type the service added later is shown as it is', () => {
  assert.equal(scheduleText('cron', { cron: '* * * * *' }), 'cron');
});

test('each documented baseline is one sentence; another is shown as its JSON', () => {
  assert.equal(baselineText({ type: 'percentage', offset_minutes: 1440 }), 'change in percent from a day before');
  assert.equal(baselineText({ type: 'value', offset_minutes: 60 }), 'change in value from an hour before');
  assert.equal(baselineText({ type: 'value', offset_minutes: 40320 }), 'change in value from four weeks before');
  assert.equal(baselineText({ type: 'percentage', offset_minutes: 30 }), '{"type":"percentage","offset_minutes":30}');
  assert.equal(baselineText(null), undefined);
});
