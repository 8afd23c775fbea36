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
 * without data counts as 0 (a COUNT of no events). NaN where a window has no data at all.
 */
export function windowValues(
  values: Float64Array,
  ends: Int32Array,
  k: number,
  combine: Combine,
  missingIsZero: boolean,
): Float64Array {
  const out = new Float64Array(ends.length);
  const n = values.length;
  if (combine === 'sum' || combine === 'mean') {
    const sum = new Float64Array(n + 1);
    const present = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const v = values[i] as number;
      const has = !Number.isNaN(v);
      sum[i + 1] = (sum[i] as number) + (has ? v : 0);
      present[i + 1] = (present[i] as number) + (has ? 1 : 0);
    }
    for (let j = 0; j < ends.length; j++) {
      const e = ends[j] as number;
      const s = e - k;
      if (s < 0 || e > n) {
        out[j] = NaN;
        continue;
      }
      const count = (present[e] as number) - (present[s] as number);
      const total = (sum[e] as number) - (sum[s] as number);
      if (combine === 'sum') out[j] = count > 0 ? total : missingIsZero ? 0 : NaN;
      else out[j] = count > 0 ? total / count : NaN;
    }
    return out;
  }
  // max / min: a monotonic queue of bucket indices over the windows, which move only forward.
  const better = combine === 'max' ? (a: number, b: number) => a >= b : (a: number, b: number) => a <= b;
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
      if (Number.isNaN(v)) continue;
      while (tail > head && better(v, values[queue[tail - 1] as number] as number)) tail--;
      queue[tail++] = next;
    }
    while (tail > head && (queue[head] as number) < s) head++;
    out[j] = tail > head ? (values[queue[head] as number] as number) : missingIsZero ? 0 : NaN;
  }
  return out;
}
