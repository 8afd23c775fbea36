// The value of a trigger's query over its time_range, made from buckets of the preview's series. COUNT,
// SUM and the other additive ops are summed exactly; MAX and MIN are exact as the largest or smallest
// bucket; every other op is estimated as the mean of its buckets (the panel says so). No vscode import.

export type Combine = 'sum' | 'max' | 'min' | 'mean';

const ADDITIVE = new Set(['COUNT', 'SUM', 'COUNT_DATAPOINTS', 'HISTOGRAM_COUNT']);

/** How buckets make a window for a calculation op (a formula is estimated like a mean). */
export function combineFor(op: string | undefined): Combine {
  if (op !== undefined && ADDITIVE.has(op)) return 'sum';
  if (op === 'MAX') return 'max';
  if (op === 'MIN') return 'min';
  return 'mean';
}

/** Whether a window of `buckets` buckets is exact for this way of combining. */
export function isExact(combine: Combine, buckets: number): boolean {
  return buckets === 1 || combine !== 'mean';
}

/**
 * Window values of one group: for each window end `e` (a bucket index, exclusive) the value over the
 * `k` buckets before it. `values` holds NaN where the group has no data; with `missingIsZero` a bucket
 * without data counts as 0 (a COUNT of no events). NaN where a window has no data at all. `ends` never
 * decrease (evaluation times in order).
 */
export function windowValues(
  values: Float64Array,
  ends: Int32Array,
  k: number,
  combine: Combine,
  missingIsZero: boolean,
): Float64Array {
  if (combine === 'max' || combine === 'min') return extremes(values, ends, k, combine, missingIsZero);
  const out = new Float64Array(ends.length);
  const n = values.length;
  // The running sum of the buckets before a window's end less the one before its start, each kept by a cursor
  // of its own that only moves forward: the same additions in the same order as an array of running sums, so
  // the same numbers, without the array (11,000 buckets for a week at 60 s, per group).
  let endAt = 0;
  let endTotal = 0;
  let endCount = 0;
  let startAt = 0;
  let startTotal = 0;
  let startCount = 0;
  for (let j = 0; j < ends.length; j++) {
    const e = ends[j] as number;
    const s = e - k;
    if (s < 0 || e > n) {
      out[j] = NaN;
      continue;
    }
    for (; endAt < e; endAt++) {
      const v = values[endAt] as number;
      if (v === v) {
        endTotal += v;
        endCount++;
      }
    }
    for (; startAt < s; startAt++) {
      const v = values[startAt] as number;
      if (v === v) {
        startTotal += v;
        startCount++;
      }
    }
    const count = endCount - startCount;
    if (count === 0) out[j] = combine === 'sum' && missingIsZero ? 0 : NaN;
    else out[j] = combine === 'sum' ? endTotal - startTotal : (endTotal - startTotal) / count;
  }
  return out;
}

/** max / min: a monotonic queue of bucket indices over the windows, which move only forward. */
function extremes(
  values: Float64Array,
  ends: Int32Array,
  k: number,
  combine: 'max' | 'min',
  missingIsZero: boolean,
): Float64Array {
  const out = new Float64Array(ends.length);
  const n = values.length;
  const max = combine === 'max';
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  let next = 0;
  for (let j = 0; j < ends.length; j++) {
    const e = ends[j] as number;
    const s = e - k;
    if (s < 0 || e > n) {
      out[j] = NaN;
      continue;
    }
    if (next < s) next = s;
    for (; next < e; next++) {
      const v = values[next] as number;
      if (v !== v) continue;
      while (tail > head) {
        const last = values[queue[tail - 1] as number] as number;
        if (max ? v < last : v > last) break;
        tail--;
      }
      queue[tail++] = next;
    }
    while (tail > head && (queue[head] as number) < s) head++;
    out[j] = tail > head ? (values[queue[head] as number] as number) : missingIsZero ? 0 : NaN;
  }
  return out;
}
