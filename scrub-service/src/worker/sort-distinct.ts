/**
 * Sorting a list's numbers and dropping repeats (decision 162), pure. Numbers below 10^10 (every normalized phone
 * number) are bucketed by area code into a Uint32Array of their 7-digit rests (one counting pass), each bucket is
 * sorted as Uint32 (several times faster than a Float64Array sort, which took 3.9 s of a 20M-number load) and written
 * back; anything else falls back to the plain sort. The buckets can be sorted by two threads at once: each claims the
 * next unsorted area code from a shared counter (the loading thread, and the side thread once it is free; the
 * sort-areas message), so neither waits for a share it was given.
 */

/** Area-code buckets of numbers being sorted: in shared memory when two threads sort them. */
export interface AreaBuckets {
  /** starts[npa] = the bucket's first index (into rests and the numbers); starts[1000] = the count. */
  starts: Uint32Array;
  /** The numbers' 7-digit rests, bucket by bucket. */
  rests: Uint32Array;
  /** Distinct numbers each sorted bucket wrote back (at its start). */
  distinct: Uint32Array;
  /** [0]: the next area code to claim; [1]: area codes sorted (by either thread). */
  next: Int32Array;
}

/** The first index ≥ `from` where a[index] ≥ x (`a` sorted). */
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

/** Below this many numbers the plain sort is used. */
const BUCKET_MIN = 4096;

/** Sorts numbers in place and drops repeats; returns the distinct prefix. */
export function sortDistinct(a: Float64Array): Float64Array {
  const b = bucketByArea(a, false);
  if (!b) return plainSortDistinct(a);
  sortClaimedAreas(b, a);
  return compactAreas(b, a);
}

/** Sorts and drops repeats with the plain typed-array sort. */
export function plainSortDistinct(a: Float64Array): Float64Array {
  a.sort();
  let w = 0;
  for (let i = 0; i < a.length; i++) if (i === 0 || a[i] !== a[i - 1]) a[w++] = a[i];
  return a.subarray(0, w);
}

/** The numbers' area-code buckets, or null when they are few or not all integers in [0, 10^10) (the plain sort). */
export function bucketByArea(a: Float64Array, shared: boolean): AreaBuckets | null {
  const n = a.length;
  if (n < BUCKET_MIN) return null;
  const alloc = (bytes: number) => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const starts = new Uint32Array(alloc(1001 * 4));
  for (let i = 0; i < n; i++) {
    const x = a[i];
    if (!(x >= 0 && x < 1e10) || x !== Math.floor(x)) return null;
    starts[Math.floor(x / 1e7) + 1]++;
  }
  for (let k = 1; k <= 1000; k++) starts[k] += starts[k - 1];
  const at = starts.slice(0, 1000);
  const rests = new Uint32Array(alloc(n * 4));
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const npa = Math.floor(x / 1e7);
    rests[at[npa]++] = x - npa * 1e7;
  }
  return { starts, rests, distinct: new Uint32Array(alloc(1000 * 4)), next: new Int32Array(alloc(8)) };
}

/**
 * Sorts buckets claimed one at a time from `b.next` until none is left: each bucket's distinct numbers are written
 * back into `a` from the bucket's start (its own range: the threads never write the same element).
 */
export function sortClaimedAreas(b: AreaBuckets, a: Float64Array): void {
  const { starts, rests, distinct } = b;
  let tmp = new Uint32Array(0);
  const c = new Uint32Array(4096);
  for (;;) {
    const npa = Atomics.add(b.next, 0, 1);
    if (npa >= 1000) return;
    const from = starts[npa];
    const to = starts[npa + 1];
    if (from === to) {
      Atomics.add(b.next, 1, 1);
      continue;
    }
    const bucket = rests.subarray(from, to);
    if (bucket.length < 2048) bucket.sort();
    else {
      if (tmp.length < bucket.length) tmp = new Uint32Array(Math.max(bucket.length, 2 * tmp.length));
      radix24(bucket, tmp.subarray(0, bucket.length), c);
    }
    const base = npa * 1e7;
    let w = from;
    let prev = -1;
    for (let i = 0; i < bucket.length; i++) {
      const r = bucket[i];
      if (r !== prev) a[w++] = base + r;
      prev = r;
    }
    distinct[npa] = w - from;
    Atomics.add(b.next, 1, 1); // (sequentially consistent: the writes above are seen by whoever reads this count)
  }
}

/** Whether every area code's bucket has been sorted. */
export function allAreasSorted(b: AreaBuckets): boolean {
  return Atomics.load(b.next, 1) === 1000;
}

/** Closes the gaps the dropped repeats left between sorted buckets; returns the distinct prefix of `a`. */
export function compactAreas(b: AreaBuckets, a: Float64Array): Float64Array {
  let w = 0;
  for (let npa = 0; npa < 1000; npa++) {
    const from = b.starts[npa];
    const d = b.distinct[npa];
    if (d && w !== from) a.copyWithin(w, from, from + d);
    w += d;
  }
  const out = a.subarray(0, w);
  bucketSorted.add(out);
  return out;
}

/**
 * Arrays the bucketed sort returned: sorted, distinct integers in [0, 10^10). Who receives one only reads it (a list
 * load's numbers), so a check of the whole array again (exchange-blocks.ts's assertBlockable: ~60 ms for 20M numbers,
 * on the load's critical path) can trust it and check only its ends.
 */
const bucketSorted = new WeakSet<Float64Array>();

export function isBucketSorted(a: Float64Array): boolean {
  return bucketSorted.has(a);
}

/** LSD radix sort of values below 2^24 (two passes of 12 bits through tmp; the result ends in b). */
function radix24(b: Uint32Array, tmp: Uint32Array, c: Uint32Array): void {
  const n = b.length;
  c.fill(0);
  for (let i = 0; i < n; i++) c[b[i] & 4095]++;
  for (let k = 0, sum = 0; k < 4096; k++) {
    const t = c[k];
    c[k] = sum;
    sum += t;
  }
  for (let i = 0; i < n; i++) {
    const v = b[i];
    tmp[c[v & 4095]++] = v;
  }
  c.fill(0);
  for (let i = 0; i < n; i++) c[tmp[i] >>> 12]++;
  for (let k = 0, sum = 0; k < 4096; k++) {
    const t = c[k];
    c[k] = sum;
    sum += t;
  }
  for (let i = 0; i < n; i++) {
    const v = tmp[i];
    b[c[v >>> 12]++] = v;
  }
}

/** The side thread's part of a two-thread sort (lists/side-parser.ts is the other end). */
export interface SortAreasMessage {
  op: "sort-areas";
  id: number;
  buckets: AreaBuckets;
  /** The numbers being sorted (shared memory). */
  numbers: Float64Array;
}

export interface AreasSorted {
  sortedAreas: number;
}

export function isSortAreasMessage(m: unknown): m is SortAreasMessage {
  return typeof m === "object" && m !== null && (m as { op?: unknown }).op === "sort-areas";
}

export function sortAreas(m: SortAreasMessage): AreasSorted {
  sortClaimedAreas(m.buckets, m.numbers);
  return { sortedAreas: m.id };
}
