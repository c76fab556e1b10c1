import os from "node:os";
import { generate } from "./data";
import { scratch } from "./scratch";
import { cli, makeUser } from "./cli";
import { listStorage } from "./list-storage";
const DNC = Number(process.env.N ?? 20_000_000);
const files = await generate({ dir: "/tmp/bench-load20", rows: 1000, small: 1000, lit: 1000, dnc: DNC, change: 1_000_000, gzip: false });
for (const mode of (process.env.MODES ?? "services").split(",")) {
  const place = await scratch(mode, "/tmp/bench-load20", "tl");
  try {
    await makeUser(place.env);
    console.log(mode, "load avg", os.loadavg().map((x) => x.toFixed(2)).join(" "));
    if (process.env.PROF) process.env.BENCH_CPU_PROF = process.env.PROF;
    const a = await cli(["lists", "replace", "--list", "dnc", "--input", files.dnc], place.env);
    console.log("replace", a.seconds, a.loadSeconds, a.added, Math.round(a.maxRssBytes / 1e6), "MB");
    if (process.env.PROF) process.env.BENCH_CPU_PROF = process.env.PROF;
    const b = await cli(["lists", "load", "--list", "dnc", "--input", files.add], place.env);
    console.log("add 1M", b.seconds, b.loadSeconds, b.added);
    const c = await cli(["lists", "apply-changes", "--list", "dnc", "--input", files.ftcChanges], place.env);
    delete process.env.BENCH_CPU_PROF;
    console.log("ftc 10k", c.seconds, c.loadSeconds, c.added, c.removed);
    console.log(await listStorage(place.env, "dnc"));
  } finally {
    await place.cleanup();
  }
}
