/**
 * Micro-A/B of the normalizer and the parse step (not a test): another tree's worker/csv.ts and worker/normalize.ts
 * against this tree's, on the same cells, in one process, alternating A, B, A, B … (issue #14: throughput within 5 %).
 *
 *   BENCH_OLD=/work/wt/old5c npx tsx scrub-service/bench/normalize-ab.ts INPUT.csv [phone column index, default 3] [rounds, default 7]
 *
 * Three measures, each old then new per round:
 * - normalizeBytes over the phone cells' bytes (the hot path the parse workers call once per row);
 * - normalizeCode over the same cells as strings (forms, API, list loading);
 * - parseRows over the file in 4 MiB row-aligned batches (the parse worker's whole loop: split, escape check, normalize).
 * Prints million cells (rows) per second per round, medians and bests, and the load average.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const OLD = path.resolve(process.env.BENCH_OLD ?? "/work/wt/old5c");
const [input, colArg, roundsArg] = process.argv.slice(2);
if (!input) {
  console.error("usage: BENCH_OLD=TREE npx tsx scrub-service/bench/normalize-ab.ts INPUT.csv [phone column] [rounds]");
  process.exit(2);
}
const COL = Number(colArg ?? 3);
const ROUNDS = Number(roundsArg ?? 7);

type NormBytes = (buf: Uint8Array, s: number, e: number) => number;
type NormCode = (s: string) => number;
type ParseRows = (
  buf: Uint8Array,
  start: number,
  end: number,
  delim: number,
  phoneCol: number,
  mem?: SharedArrayBuffer,
) => { count: number; codes: Float64Array };

interface Impl {
  name: string;
  normalizeBytes: NormBytes;
  normalizeCode: NormCode;
  parseRows: ParseRows;
}

async function load(name: string, tree: string): Promise<Impl> {
  const csv = await import(path.join(tree, "scrub-service/src/worker/csv.ts"));
  // the normalizer moved from worker/ to numbers/ with issue #45 (decision 193); older trees have it in worker/
  const moved = path.join(tree, "scrub-service/src/numbers/normalize.ts");
  const norm = await import(fs.existsSync(moved) ? moved : path.join(tree, "scrub-service/src/worker/normalize.ts"));
  // 5c34b20 had normalizeBytes in csv.ts; it moved to normalize.ts with #14.
  return { name, normalizeBytes: norm.normalizeBytes ?? csv.normalizeBytes, normalizeCode: norm.normalizeCode, parseRows: csv.parseRows };
}

const file = new Uint8Array(fs.readFileSync(input));
const firstLf = file.indexOf(10);
// The phone cells: start/end offsets in `file` (header skipped; rows have no quotes).
const starts: number[] = [];
const ends: number[] = [];
for (let i = firstLf + 1; i < file.length;) {
  let f = 0;
  let fs0 = i;
  while (i < file.length && file[i] !== 10) {
    if (file[i] === 44) {
      if (f === COL) {
        starts.push(fs0);
        ends.push(i);
      }
      f++;
      fs0 = i + 1;
    }
    i++;
  }
  if (f === COL) {
    starts.push(fs0);
    ends.push(i);
  }
  i++;
}
const cellStart = Uint32Array.from(starts);
const cellEnd = Uint32Array.from(ends);
const cells = Array.from(cellStart, (s, k) => Buffer.from(file.buffer, file.byteOffset + s, cellEnd[k] - s).toString("latin1"));
const N = cells.length;
// 4 MiB row-aligned batches in SharedArrayBuffers, as the reader makes them.
const batches: { buf: Uint8Array; end: number }[] = [];
for (let s = firstLf + 1; s < file.length;) {
  let e = Math.min(file.length, s + (4 << 20));
  if (e < file.length) e = file.lastIndexOf(10, e - 1) + 1;
  const buf = new Uint8Array(new SharedArrayBuffer(e - s));
  buf.set(file.subarray(s, e));
  batches.push({ buf, end: e - s });
  s = e;
}
const mem = new SharedArrayBuffer(64 << 20);

function timeBytes(impl: Impl): [number, number] {
  const f = impl.normalizeBytes;
  let sum = 0;
  const t = performance.now();
  for (let k = 0; k < N; k++) sum += f(file, cellStart[k], cellEnd[k]);
  return [(performance.now() - t) / 1000, sum];
}

function timeStrings(impl: Impl): [number, number] {
  const f = impl.normalizeCode;
  let sum = 0;
  const t = performance.now();
  for (let k = 0; k < N; k++) sum += f(cells[k]);
  return [(performance.now() - t) / 1000, sum];
}

function timeParse(impl: Impl): [number, number] {
  let sum = 0;
  let rows = 0;
  const t = performance.now();
  for (const b of batches) {
    const p = impl.parseRows(b.buf, 0, b.end, 44, COL, mem);
    rows += p.count;
    for (let r = 0; r < p.count; r += 997) sum += p.codes[r];
  }
  return [(performance.now() - t) / 1000, rows + sum];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const impls = [await load("old", OLD), await load("new", process.cwd())];
  console.log(`[norm-ab] ${N.toLocaleString("en-US")} cells from ${input} (column ${COL}); old = ${OLD}, new = ${process.cwd()}; ${ROUNDS} rounds`);
  console.log(
    `[norm-ab] load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const valid = impls.map((im) => cells.reduce((a, c) => a + (im.normalizeCode(c) >= 0 ? 1 : 0), 0));
  console.log(`[norm-ab] valid cells: old ${valid[0]}, new ${valid[1]}`);
  for (const [label, fn] of [
    ["normalizeBytes", timeBytes],
    ["normalizeCode (strings)", timeStrings],
    ["parseRows (4 MiB batches)", timeParse],
  ] as const) {
    for (const im of impls) fn(im); // warm-up
    const rates: number[][] = [[], []];
    for (let r = 0; r < ROUNDS; r++) {
      impls.forEach((im, i) => {
        const [s] = fn(im);
        rates[i].push(N / s / 1e6);
      });
    }
    const [mo, mn] = rates.map(median);
    const [bo, bn] = rates.map((x) => Math.max(...x));
    console.log(`[norm-ab] ${label}: M/s per round old ${rates[0].map((x) => x.toFixed(1)).join(" ")} | new ${rates[1].map((x) => x.toFixed(1)).join(" ")}`);
    console.log(
      `[norm-ab] ${label}: median old ${mo.toFixed(1)} new ${mn.toFixed(1)} M/s (${(((mn - mo) / mo) * 100).toFixed(1)} %); best old ${bo.toFixed(1)} new ${bn.toFixed(1)} (${(((bn - bo) / bo) * 100).toFixed(1)} %)`,
    );
  }
  console.log(
    `[norm-ab] load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
