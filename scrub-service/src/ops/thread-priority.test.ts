import fs from "node:fs";
import os from "node:os";
import { Worker } from "node:worker_threads";
import { Piscina } from "piscina";
import { describe, expect, it } from "vitest";
import { defaultDedupeThreadPath, defaultWorkerPath } from "../dist-paths";
import { engineConfigOf } from "../config";
import { DEFAULT_SCRUB_WORKER_NICE, scrubWorkerNice } from "./thread-priority";

/** The nice value of each of this process's threads (field 19 of /proc/self/task/<tid>/stat), by thread id. */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync("/proc/self/task")) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.set(Number(tid), Number(fields[16])); // fields after "(comm)": state is field 3, nice field 19
  }
  return out;
}

const linux = os.platform() === "linux";

describe("scrub threads run at a lower priority (decision 156)", () => {
  it("reads SCRUB_WORKER_NICE: default 10, 0–19, anything else refused", () => {
    expect(scrubWorkerNice(engineConfigOf({}))).toBe(DEFAULT_SCRUB_WORKER_NICE);
    expect(scrubWorkerNice(engineConfigOf({ SCRUB_WORKER_NICE: "0" }))).toBe(0);
    expect(scrubWorkerNice(engineConfigOf({ SCRUB_WORKER_NICE: "19" }))).toBe(19);
    for (const bad of ["20", "-1", "5.5", "low"])
      expect(() => scrubWorkerNice(engineConfigOf({ SCRUB_WORKER_NICE: bad }))).toThrow(`SCRUB_WORKER_NICE must be a whole number from 0 to 19, not "${bad}"`);
  });

  it.runIf(linux)("the piscina worker and the side thread lower their own thread, not the process", async () => {
    const before = threadNices();
    const mainNice = before.get(process.pid)!;
    const pool = new Piscina({ filename: defaultWorkerPath(), minThreads: 1, maxThreads: 1 });
    const side = new Worker(defaultDedupeThreadPath());
    try {
      await new Promise((r) => side.once("online", r));
      await pool.run({ op: "noop" }).catch(() => undefined); // the module (and its priority call) has loaded once a task ran
      let lowered: number[] = [];
      for (let i = 0; i < 50 && lowered.length < 2; i++) {
        lowered = [...threadNices()].filter(([tid, n]) => !before.has(tid) && n === DEFAULT_SCRUB_WORKER_NICE).map(([tid]) => tid);
        if (lowered.length < 2) await new Promise((r) => setTimeout(r, 50));
      }
      expect(lowered.length).toBeGreaterThanOrEqual(2);
      expect(threadNices().get(process.pid)).toBe(mainNice);
    } finally {
      await side.terminate();
      await pool.destroy();
    }
  });
});
