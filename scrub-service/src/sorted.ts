/** Searches of sorted number arrays (pure; the indexes of lists, call histories and exemption records). */

/** The first index ≥ `from` where a[index] ≥ x (`a` sorted ascending). */
export function lowerBound(a: Float64Array, x: number, from = 0): number {
  let lo = from;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Position of `x` in `a` (sorted ascending, distinct), or -1. */
export function indexOfSorted(a: Float64Array, x: number): number {
  const i = lowerBound(a, x);
  return i < a.length && a[i] === x ? i : -1;
}
