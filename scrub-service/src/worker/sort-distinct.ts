/**
 * Sorting a list's numbers and dropping repeats (decision 162), pure. Numbers below 10^10 (every normalized phone
 * number) are bucketed by area code into a Uint32Array of their 7-digit rests (one counting pass), each bucket is
 * sorted as Uint32 (several times faster than a Float64Array sort, which took 3.9 s of a 20M-number load) and written
 * back; anything else falls back to the plain sort. Two threads can share the work: each buckets half the numbers
 * (count-areas, then scatter-areas into places counted for both halves), and each claims the next unsorted area code
 * from a shared counter (the loading thread, and the side thread once it is free; the sort-areas message), so neither
 * waits for a share it was given.
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
  if (!countAreas(a, 0, n, starts)) return null;
  for (let k = 1; k <= 1000; k++) starts[k] += starts[k - 1];
  const rests = new Uint32Array(alloc(n * 4));
  scatterAreas(a, 0, n, starts.slice(0, 1000), rests);
  return { starts, rests, distinct: new Uint32Array(alloc(1000 * 4)), next: new Int32Array(alloc(8)) };
}

/**
 * bucketByArea on two threads: the side thread (`side`: the count-areas and scatter-areas messages) counts and then
 * places the second half of the numbers (shared memory) while this thread does the first. Same buckets, but for
 * the order within a bucket, which the sort does not need.
 */
export async function bucketByAreaWith(a: Float64Array, side: AreaHelper): Promise<AreaBuckets | null> {
  const n = a.length;
  if (n < BUCKET_MIN) return null;
  const mid = n >>> 1;
  const shared = (length: number) => new Uint32Array(new SharedArrayBuffer(length * 4));
  const theirs = shared(1001);
  const counted = side.countAreas(a, mid, n, theirs);
  const mine = new Uint32Array(1001);
  const mineOk = countAreas(a, 0, mid, mine);
  if (!(await counted) || !mineOk) return null;
  const starts = shared(1001);
  for (let k = 1; k <= 1000; k++) starts[k] = starts[k - 1] + mine[k] + theirs[k];
  const theirsAt = shared(1000);
  for (let k = 0; k < 1000; k++) theirsAt[k] = starts[k] + mine[k + 1];
  const rests = shared(n);
  const placed = side.scatterAreas(a, mid, n, theirsAt, rests);
  scatterAreas(a, 0, mid, starts.slice(0, 1000), rests);
  await placed;
  return { starts, rests, distinct: shared(1000), next: new Int32Array(new SharedArrayBuffer(8)) };
}

/** The side thread's half of bucketByAreaWith (lists/side-parser.ts). */
export interface AreaHelper {
  countAreas(a: Float64Array, from: number, to: number, counts: Uint32Array): Promise<boolean>;
  scatterAreas(a: Float64Array, from: number, to: number, at: Uint32Array, rests: Uint32Array): Promise<void>;
}

/** Adds the area codes of a[from, to) to counts[npa + 1]; false when one is not an integer in [0, 10^10). */
export function countAreas(a: Float64Array, from: number, to: number, counts: Uint32Array): boolean {
  for (let i = from; i < to; i++) {
    const x = a[i];
    if (!(x >= 0 && x < 1e10) || x !== Math.floor(x)) return false;
    counts[Math.floor(x / 1e7) + 1]++;
  }
  return true;
}

/** Writes the 7-digit rest of each number of a[from, to) at rests[at[npa]++]. */
export function scatterAreas(a: Float64Array, from: number, to: number, at: Uint32Array, rests: Uint32Array): void {
  for (let i = from; i < to; i++) {
    const x = a[i];
    const npa = Math.floor(x / 1e7);
    rests[at[npa]++] = x - npa * 1e7;
  }
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

/** The side thread's parts of a two-thread sort (lists/side-parser.ts is the other end): area codes counted, placed, sorted. */
export type AreasMessage =
  | { op: "sort-areas"; id: number; buckets: AreaBuckets; /** The numbers being sorted (shared memory). */ numbers: Float64Array }
  | { op: "count-areas"; id: number; numbers: Float64Array; from: number; to: number; counts: Uint32Array }
  | { op: "scatter-areas"; id: number; numbers: Float64Array; from: number; to: number; at: Uint32Array; rests: Uint32Array };

/** The answer to an AreasMessage: its id, and (count-areas) whether every number was an integer in range. */
export interface AreasAnswer {
  areasDone: number;
  ok: boolean;
}

export function isAreasMessage(m: unknown): m is AreasMessage {
  const op = typeof m === "object" && m !== null ? (m as { op?: unknown }).op : null;
  return op === "sort-areas" || op === "count-areas" || op === "scatter-areas";
}

export function answerAreas(m: AreasMessage): AreasAnswer {
  if (m.op === "count-areas") return { areasDone: m.id, ok: countAreas(m.numbers, m.from, m.to, m.counts) };
  if (m.op === "scatter-areas") scatterAreas(m.numbers, m.from, m.to, m.at, m.rests);
  else sortClaimedAreas(m.buckets, m.numbers);
  return { areasDone: m.id, ok: true };
}
