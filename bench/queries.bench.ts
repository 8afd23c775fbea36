// Query results and trigger previews. Prints tables; asserts nothing.
//  1. The evaluation of a 7-day window at a 60 s frequency for 50 groups (10,080 evaluations each):
//     windows, threshold, on_change/on_true state. Goal <= 50 ms. Floor: one pass summing the same grid.
//  2. The results panel for 50 groups x 1,440 points in the browser harness (Chromium): from the host's
//     message to the chart drawn and the table shown. Goal <= 300 ms. Floor: the same message to a page
//     that only parses it.
import { evaluateTrigger, type Grid, type TriggerRules } from '../src/backtest/evaluate';
import { launchBrowser, browserSkip } from '../scripts/chromium';
import { openResults, resultModel } from '../scripts/resultsPage';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const ms = (n: number): string => `${n.toFixed(1)} ms`;

// --- 1. evaluation ------------------------------------------------------------------------------------
const STEP = 60;
const N = 7 * 1440 + 20;
const grid: Grid = {
  start: 0,
  step: STEP,
  length: N,
  missingIsZero: true,
  groups: Array.from({ length: 50 }, (_, g) => ({
    label: `group-${g}`,
    values: Float64Array.from(
      { length: N },
      (_, i) => ((i * 7919 + g * 104729) % 97) / 40 + (i % 1440 > 900 && i % 1440 < 960 && g % 7 === 0 ? 6 : 0),
    ),
  })),
};
const rules: TriggerRules = {
  frequency: 60,
  timeRange: 1200,
  op: '>',
  value: 80,
  exceededLimit: 2,
  alertType: 'on_change',
  disabled: false,
  combine: 'sum',
};
const evalTimes: number[] = [];
const floorTimes: number[] = [];
const allTimes: number[] = [];
let sink = 0;
for (let run = 0; run < 15; run++) {
  let t0 = performance.now();
  const o = evaluateTrigger(rules, grid, 20 * STEP, N * STEP);
  evalTimes.push(performance.now() - t0);
  sink += o.firings.length;
  t0 = performance.now();
  sink += evaluateTrigger({ ...rules, value: -1 }, grid, 20 * STEP, N * STEP).onTrue.notifications;
  allTimes.push(performance.now() - t0);
  t0 = performance.now();
  for (const g of grid.groups) for (let i = 0; i < N; i++) sink += g.values[i] ?? 0;
  floorTimes.push(performance.now() - t0);
}
const check = evaluateTrigger(rules, grid, 20 * STEP, N * STEP);
console.log(
  '1. evaluation: 7 days at 60 s, 50 groups (10,080 evaluations x 50 groups), 15 runs interleaved with the floor',
);
console.table({
  evaluate: { median: ms(median(evalTimes)), goal: '<= 50 ms' },
  'evaluate, every group always over the threshold': { median: ms(median(allTimes)), goal: '<= 50 ms' },
  'floor (one pass over the grid)': { median: ms(median(floorTimes)), goal: '' },
});
console.log(
  `ratio to floor: ${(median(evalTimes) / Math.max(0.001, median(floorTimes))).toFixed(1)}x; firings ${check.firings.length}, on_true ${check.onTrue.notifications} (sink ${sink > 0 ? 'ok' : '0'})`,
);

// --- 2. panel -----------------------------------------------------------------------------------------
async function panelBench(): Promise<void> {
  if (browserSkip) {
    console.log(`2. panel: skipped (${browserSkip})`);
    return;
  }
  const browser = await launchBrowser();
  const model = resultModel(50, 1440);
  const drawn: number[] = [];
  const parsedOnly: number[] = [];
  for (let run = 0; run < 7; run++) {
    const p = await openResults(browser);
    // Timed inside the page: message posted -> chart canvas inked and table rows in the DOM (after a frame).
    const t = await p.page.evaluate(async (m) => {
      const start = performance.now();
      window.postMessage({ type: 'show', model: m }, '*');
      for (;;) {
        await new Promise((r) => requestAnimationFrame(() => r(undefined)));
        if (
          document.querySelector('.chart canvas') &&
          document.querySelectorAll('.results-table tbody tr').length > 0 &&
          document.querySelector('.legend-note')?.textContent?.startsWith('10 of 50')
        )
          break;
      }
      const drawnAt = performance.now() - start;
      const s2 = performance.now();
      JSON.parse(JSON.stringify(m));
      return [drawnAt, performance.now() - s2];
    }, model);
    drawn.push(t[0] ?? 0);
    parsedOnly.push(t[1] ?? 0);
    await p.close();
  }
  await browser.close();
  console.log('\n2. results panel: 50 groups x 1,440 points, from the message to the chart and table shown (7 runs)');
  console.table({
    'message -> chart and table drawn': { median: ms(median(drawn)), goal: '<= 300 ms' },
    'floor (copying the message once)': { median: ms(median(parsedOnly)), goal: '' },
  });
  console.log(`ratio to floor: ${(median(drawn) / Math.max(0.001, median(parsedOnly))).toFixed(1)}x`);
}
void panelBench();
