/**
 * Embedded mode (PGlite on the app's own thread): how long a simple web-request query waits while a large
 * list load runs. Not a test: prints figures.
 *
 *   npm run bench:embedded-latency                       # 1M-number add into an empty list, then a 1M replace
 *   BENCH_NUMBERS=300000 BENCH_CHUNKS=Infinity,50000 npm run bench:embedded-latency
 *
 * For each load-chunk setting (Infinity = the whole load in one transaction, the behaviour before chunking),
 * a "request" (`select … from lists where id = $1` through Kysely, like a page's loader) is issued every
 * 10 ms during the load; printed: the worst and 99th-percentile wait, the load's
 * own duration, and how late the request timer ran at worst (the event loop held). PGlite data directory on disk (a temporary directory), as `npm start` uses.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { migrateToLatest, openDatabase } from "db/client";
import { EmbeddedListStore } from "../src/lists/embedded-store";
import { ListManager } from "../src/lists/manager";
import { createContainer, createUser } from "../src/test/helpers";

const N = Number(process.env.BENCH_NUMBERS ?? 1_000_000);
const CHUNKS = (process.env.BENCH_CHUNKS ?? "Infinity,50000").split(",").map((c) => Number(c.trim()));

function numbers(seed: number, count: number): Float64Array {
  let s = seed >>> 0;
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (200 + (s % 800)) * 1e7 + ((s >>> 10) % 10_000_000);
  }
  out.sort();
  let w = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[w++] = out[i];
  return out.slice(0, w);
}

async function measure(label: string, chunk: number, load: () => Promise<unknown>, probe: () => Promise<unknown>) {
  const waits: number[] = [];
  let done = false;
  const t0 = performance.now();
  const running = load().finally(() => (done = true));
  const requests: Promise<void>[] = [];
  // request k is due at t0 + 10k ms; its wait runs from when it was due (an event loop too busy to even
  // issue it counts) to when its result arrived. After a stall one late request is issued (it waited longest)
  // and the schedule moves on to now.
  let stall = 0;
  let k = 0;
  for (; !done; k++) {
    const due = t0 + 10 * k;
    const now = performance.now();
    if (now < due) await new Promise((r) => setTimeout(r, due - now));
    stall = Math.max(stall, performance.now() - due); // how late this timer ran
    requests.push(probe().then(() => void waits.push(performance.now() - due)));
    k = Math.max(k, Math.floor((performance.now() - t0) / 10));
    await new Promise((r) => setImmediate(r));
  }
  // The load may have held the thread to its end: the request due next could not even be issued until then.
  const nextDue = t0 + 10 * k;
  if (performance.now() > nextDue) {
    stall = Math.max(stall, performance.now() - nextDue);
    requests.push(probe().then(() => void waits.push(performance.now() - nextDue)));
  }
  await running;
  const loadMs = performance.now() - t0;
  await Promise.all(requests);
  waits.sort((a, b) => a - b);
  const worst = waits[waits.length - 1] ?? 0;
  const p99 = waits[Math.min(waits.length - 1, Math.floor(waits.length * 0.99))] ?? 0;
  const row = {
    load: label,
    chunk: Number.isFinite(chunk) ? chunk : "one transaction",
    numbers: N,
    load_s: +(loadMs / 1000).toFixed(2),
    requests: waits.length,
    worst_request_ms: Math.round(worst),
    p99_request_ms: Math.round(p99),
    median_request_ms: Math.round(waits[Math.floor(waits.length / 2)] ?? 0),
    worst_timer_lateness_ms: Math.round(stall),
  };
  console.log(JSON.stringify(row));
  return row;
}

async function main() {
  const a = numbers(1, N);
  const b = numbers(2, N);
  console.log(`embedded load latency: ${a.length} distinct numbers (add into an empty list), then replace with ${b.length}`);
  const rows = [];
  for (const chunk of CHUNKS) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-embedded-"));
    const handle = await openDatabase({ dataDir: dir });
    try {
      await migrateToLatest(handle.db);
      const list = { id: await createContainer(handle, await createUser(handle), "bench") };
      const manager = new ListManager(handle, new EmbeddedListStore(), { waitMs: 0, loadChunk: chunk });
      const probe = () => handle.db.selectFrom("lists").select(["id", "size", "version"]).where("id", "=", list.id).execute();
      rows.push(await measure("add", chunk, () => manager.change(list.id, "add", a), probe));
      await manager.ready(list.id);
      rows.push(await measure("replace", chunk, () => manager.change(list.id, "replace", b), probe));
    } finally {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  console.table(rows);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
