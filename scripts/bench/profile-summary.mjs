/**
 * Summarises V8 CPU profiles (`node --cpu-prof --cpu-prof-dir=DIR …`: one file per thread) by self time:
 *   node scripts/bench/profile-summary.mjs DIR [top=15]
 * Per profile: wall span, sampled busy time, idle, GC, and the functions with the most self time (name, file:line,
 * ms, share of busy). A piscina worker blocked in atomicsWaitLoop counts as idle. Used for the profiles decision 130 cites; prints, asserts nothing.
 */
import fs from "node:fs";
import path from "node:path";

const [dir, topArg] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node scripts/bench/profile-summary.mjs DIR [top]");
  process.exit(2);
}
const TOP = Number(topArg ?? 15);

function summarise(file) {
  const prof = JSON.parse(fs.readFileSync(file, "utf8"));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = prof.timeDeltas;
  for (let i = 0; i < prof.samples.length; i++) {
    const id = prof.samples[i];
    const dt = (deltas[i + 1] ?? 0) / 1000;
    self.set(id, (self.get(id) ?? 0) + dt);
  }
  const byFn = new Map();
  let idle = 0;
  let gc = 0;
  let total = 0;
  for (const [id, ms] of self) {
    const n = byId.get(id);
    const f = n.callFrame;
    total += ms;
    // piscina's workers block in Atomics.wait between tasks; the profiler samples that as running.
    if (f.functionName === "(idle)" || f.functionName === "atomicsWaitLoop") {
      idle += ms;
      continue;
    }
    if (f.functionName === "(garbage collector)") gc += ms;
    const where = f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : "";
    const key = `${f.functionName || "(anonymous)"} ${where}`.trim();
    byFn.set(key, (byFn.get(key) ?? 0) + ms);
  }
  const busy = total - idle;
  const span = (prof.endTime - prof.startTime) / 1000;
  console.log(
    `\n== ${path.basename(file)}: span ${span.toFixed(0)} ms, busy ${busy.toFixed(0)} ms (${((busy / span) * 100).toFixed(0)} %), idle ${idle.toFixed(0)} ms, GC ${gc.toFixed(0)} ms`,
  );
  const rows = [...byFn].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  for (const [k, ms] of rows) console.log(`  ${ms.toFixed(0).padStart(7)} ms ${((ms / busy) * 100).toFixed(1).padStart(5)} %  ${k}`);
  // Where the time is spent on behalf of whom: each sample charged to its nearest caller in a script file (not
  // Node's own internals), so a write syscall counts for PGlite or for our code, whichever made it.
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const owner = new Map();
  const ownerOf = (id) => {
    if (owner.has(id)) return owner.get(id);
    let cur = id;
    let name = "(native / Node internals)";
    while (cur != null) {
      const f = byId.get(cur).callFrame;
      if (f.functionName.startsWith("wasm-function") || /pglite/i.test(f.url)) {
        name = "PGlite (WASM PostgreSQL and its file I/O)";
        break;
      }
      if (f.url && !f.url.startsWith("node:") && f.url !== "") {
        const file = path.basename(f.url);
        name = /^(cli|worker|dedupe-thread)\.mjs$/.test(file) ? `${f.functionName || "(anonymous)"} ${file}` : `${file} (library)`;
        break;
      }
      cur = parent.get(cur);
    }
    owner.set(id, name);
    return name;
  };
  const byOwner = new Map();
  for (const [id, ms] of self) {
    const f = byId.get(id).callFrame;
    if (f.functionName === "(idle)" || f.functionName === "atomicsWaitLoop" || f.functionName === "(garbage collector)") continue;
    const k = ownerOf(id);
    byOwner.set(k, (byOwner.get(k) ?? 0) + ms);
  }
  console.log("  -- charged to the nearest script caller:");
  for (const [k, ms] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${ms.toFixed(0).padStart(7)} ms ${((ms / busy) * 100).toFixed(1).padStart(5)} %  ${k}`);
  }
}

for (const f of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .sort())
  summarise(path.join(dir, f));
