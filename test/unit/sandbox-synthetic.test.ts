// The sandbox's synthetic events: the incidents the demo triggers watch are in every 24 h window, so a
// preview run at any time of day has something to show (the real-editor test runs at whatever time it is).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { forEachEvent, incidentsOfDay, type Incident } from '../../src/sandbox/queries/synthetic';

const DAY = 86_400;
// Any minute from 2020 to 2100.
/** Events come spread over their minute. */
const minuteOf = (t: number): number => Math.floor(t / 60) * 60;
const anyNow = fc.integer({ min: 1_577_836_800 / 60, max: 4_102_444_800 / 60 }).map((m) => m * 60);

/** The incidents of a kind lying wholly in the 24 h before `now`. */
function wholeInLastDay(slug: string, kind: Incident['kind'], now: number): Incident[] {
  const today = Math.floor(now / DAY);
  return [today - 1, today]
    .flatMap((day) => incidentsOfDay(slug, day))
    .filter((i) => i.kind === kind && i.start >= now - DAY && i.end <= now);
}

describe('sandbox synthetic incidents', () => {
  for (const [slug, kind] of [
    ['api-gateway', 'errors'],
    ['checkout-service', 'payments-failing'],
    ['metrics-hosts', 'hot-host'],
  ] as const) {
    test(`every 24 h window holds a whole ${kind} incident of ${slug}`, () => {
      fc.assert(
        fc.property(anyNow, (now) => wholeInLastDay(slug, kind, now).length >= 1),
        { numRuns: 2000 },
      );
    });
  }

  test('at 16:20 UTC on 2026-11-24, when one burst a day left the last 24 h without any, the window holds one', () => {
    const now = Date.parse('2026-11-24T16:20:00Z') / 1000;
    const found = wholeInLastDay('api-gateway', 'errors', now);
    assert.deepEqual(
      found.map((i) => new Date(i.start * 1000).toISOString()),
      ['2026-11-23T19:47:00.000Z', '2026-11-24T07:16:00.000Z', '2026-11-24T13:16:00.000Z'],
    );
  });

  test("each minute of an error burst has a failed request on the burst's route", () => {
    fc.assert(
      fc.property(fc.integer({ min: 18_262, max: 47_482 }), (day) => {
        for (const burst of incidentsOfDay('api-gateway', day).filter((i) => i.kind === 'errors')) {
          const failedPerMinute = new Map<number, number>();
          forEachEvent('api-gateway', burst.start, burst.end, (e, t) => {
            if (e.error === true && e['http.route'] === burst.target)
              failedPerMinute.set(minuteOf(t), (failedPerMinute.get(minuteOf(t)) ?? 0) + 1);
          });
          if (failedPerMinute.size !== (burst.end - burst.start) / 60) return false;
        }
        return true;
      }),
      { numRuns: 50 },
    );
  });

  test('"High error rate" (COUNT where error = true over 20 min > 5, every 5 min) is met in the last 24 h at any time', () => {
    fc.assert(
      fc.property(anyNow, (now) => {
        const end = Math.floor(now / 300) * 300;
        const perMinute = new Map<number, number>();
        forEachEvent('api-gateway', end - DAY - 1200, end, (e, t) => {
          if (e.error === true) perMinute.set(minuteOf(t), (perMinute.get(minuteOf(t)) ?? 0) + 1);
        });
        for (let at = end - DAY + 300; at <= end; at += 300) {
          let count = 0;
          for (let t = at - 1200; t < at; t += 60) count += perMinute.get(t) ?? 0;
          if (count > 5) return true;
        }
        return false;
      }),
      { numRuns: 20 },
    );
  });
});
