/**
 * The duplicate check alone (not a test): NumberSet.addMany over the phone column of the scrub benchmark's
 * generated input, in 110k-row batches as the pipeline sends them, fresh set per round; prints ms per round.
 *
 *   npx tsx scrub-service/bench/number-set.ts          BENCH_ROWS=3000000  BENCH_ROUNDS=5  BENCH_DIR=/tmp/ab-scrub
 */
import fs from "node:fs";
import path from "node:path";
import { NumberSet } from "../src/worker/number-set";
import { generate } from "../src/test/bench";

const ROWS = Number(process.env.BENCH_ROWS ?? 3_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DIR = path.resolve(process.env.BENCH_DIR ?? "/tmp/ab-scrub");
const BATCH = 110_000;

async function main() {
  const files = await generate({ dir: DIR, rows: ROWS, small: ROWS, lit: 0, dnc: 0, change: 0, gzip: false });
  const lines = fs.readFileSync(files.input, "latin1").split("\n");
  const col = lines[0].split(",").indexOf("phone");
  const codes = new Float64Array(lines.length);
  let n = 0;
  for (let i = 1; i < lines.length; i++) {
    const f = lines[i].split(",");
    if (f.length <= col) continue;
    const v = Number(f[col]);
    codes[n++] = Number.isInteger(v) && v >= 2e9 && v < 1e10 ? v : -1;
  }
  const out = new Uint8Array(BATCH);
  const times: number[] = [];
  let dups = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const set = new NumberSet();
    dups = 0;
    const t = process.hrtime.bigint();
    for (let s = 0; s < n; s += BATCH) {
      const c = Math.min(BATCH, n - s);
      set.addMany(codes.subarray(s, s + c), c, out);
      for (let i = 0; i < c; i++) dups += out[i];
    }
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (r === ROUNDS - 1)
      console.log(`[number-set] ${n.toLocaleString("en-US")} codes, ${dups.toLocaleString("en-US")} duplicates, ${(set.bytes / 1e6).toFixed(1)} MB of tables`);
  }
  console.log(
    `[number-set] addMany ms per round: ${times.map((t) => t.toFixed(0)).join(" ")} (best ${Math.min(...times).toFixed(0)}, ${((Math.min(...times) * 1e6) / n).toFixed(0)} ns per code)`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
