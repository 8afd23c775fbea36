// The chart's value axis: a series of whole numbers (a COUNT, a SUM of whole numbers) gets whole-number
// steps (1, 2, 5, 10, ...), never 0.2; other series keep uPlot's own steps. No DOM: tested in plain Node.

/** Steps of 1, 2 and 5 times a power of ten, from 1 up to 5e15 (past Number.MAX_SAFE_INTEGER). */
export const WHOLE_STEPS: readonly number[] = Array.from({ length: 16 }, (_, e) =>
  [1, 2, 5].map((m) => m * 10 ** e),
).flat();

/** True when every value the chart draws is a whole number (gaps left out), and there is at least one. */
export function wholeNumbersOnly(series: readonly (readonly (number | null)[])[]): boolean {
  let any = false;
  for (const values of series) {
    for (const v of values) {
      if (v === null) continue;
      if (!Number.isInteger(v)) return false;
      any = true;
    }
  }
  return any;
}
