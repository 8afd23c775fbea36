// The nearest of a list of names to a name that is not in it: a typo, a renamed prefix, another letter
// case. Pure and small: the linter suggests columns and datasets with it, and the editor names the
// dataset a 404 probably meant. Bounded edit distance, so a search is linear in the list.

/** Levenshtein distance of a and b, or undefined when it is above `max` (a band of width 2 max + 1). */
function boundedDistance(a: string, b: string, max: number): number | undefined {
  if (Math.abs(a.length - b.length) > max) return undefined;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1).fill(max + 1);
    current[0] = i;
    let best = current[0];
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? max + 1) + 1,
        (current[j - 1] ?? max + 1) + 1,
        (previous[j - 1] ?? max + 1) + cost,
      );
      best = Math.min(best, current[j] ?? max + 1);
    }
    if (best > max) return undefined;
    previous = current;
  }
  const d = previous[b.length] ?? max + 1;
  return d <= max ? d : undefined;
}

/** How far a name may be from a candidate: a third of it, at least 2 edits. */
const nearnessLimit = (name: string): number => Math.max(2, Math.floor(name.length / 3));

export interface NearestOptions {
  /** Candidates not to suggest. */
  skip?: (candidate: string) => boolean;
  /** Also suggest a candidate that is the name plus a word before or after it (`checkout-service` for `checkout`). */
  wordExtensions?: boolean;
}

/**
 * The candidate nearest to `name` within its nearness limit (the same name in another letter case is
 * nearest of all), else (with `wordExtensions`) one that is the name plus a word, else undefined. Ties go
 * to the first in code-point order.
 */
export function nearestName(name: string, candidates: Iterable<string>, o: NearestOptions = {}): string | undefined {
  const max = nearnessLimit(name);
  let best: string | undefined;
  let bestDistance = max + 1;
  let extended: string | undefined;
  const lower = name.toLowerCase();
  for (const candidate of candidates) {
    if (o.skip?.(candidate) === true) continue;
    const d = candidate.toLowerCase() === lower ? 0 : boundedDistance(name, candidate, Math.min(max, bestDistance));
    if (d !== undefined && (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best))) {
      best = candidate;
      bestDistance = d;
    }
    if (
      o.wordExtensions === true &&
      best === undefined &&
      name !== '' &&
      isWordExtension(lower, candidate.toLowerCase()) &&
      (extended === undefined || candidate < extended)
    )
      extended = candidate;
  }
  return best ?? extended;
}

/** `checkout` in `checkout-service` or `svc.checkout`: the name plus a word before or after it. */
function isWordExtension(name: string, candidate: string): boolean {
  if (candidate.length <= name.length) return false;
  const separator = /[-_.]/;
  if (candidate.startsWith(name) && separator.test(candidate.charAt(name.length))) return true;
  return candidate.endsWith(name) && separator.test(candidate.charAt(candidate.length - name.length - 1));
}
