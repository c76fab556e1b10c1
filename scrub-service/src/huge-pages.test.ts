import { spawn, execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { describeHugePages, HUGE_PAGES_TUNABLE, hugePagesEnv } from "./huge-pages";
import { tmpDir } from "./test/helpers";

const run = promisify(execFile);
const MADVISE = "always [madvise] never\n";

describe("hugePagesEnv", () => {
  it("adds glibc's tunable when the machine gives huge pages to memory that asks for them", () => {
    expect(hugePagesEnv({ PATH: "/bin" }, MADVISE, true)).toEqual({ PATH: "/bin", GLIBC_TUNABLES: HUGE_PAGES_TUNABLE });
  });

  it("keeps the operator's other tunables", () => {
    expect(hugePagesEnv({ GLIBC_TUNABLES: "glibc.malloc.arena_max=2" }, MADVISE, true)?.GLIBC_TUNABLES).toBe(`glibc.malloc.arena_max=2:${HUGE_PAGES_TUNABLE}`);
  });

  it("relaunches nothing when there is nothing to gain or the choice was made", () => {
    expect(hugePagesEnv({}, "[always] madvise never\n", true)).toBeNull(); // every large mapping has them already
    expect(hugePagesEnv({}, "always madvise [never]\n", true)).toBeNull();
    expect(hugePagesEnv({}, null, true)).toBeNull(); // no THP on this kernel
    expect(hugePagesEnv({}, MADVISE, false)).toBeNull(); // musl and others: no such tunable
    expect(hugePagesEnv({ GLIBC_TUNABLES: HUGE_PAGES_TUNABLE }, MADVISE, true)).toBeNull(); // the relaunched child
    expect(hugePagesEnv({ GLIBC_TUNABLES: "glibc.malloc.hugetlb=0" }, MADVISE, true)).toBeNull(); // the operator's opt-out
    expect(hugePagesEnv({ GLIBC_TUNABLES: "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=0" }, MADVISE, true)).toBeNull();
  });
});

describe("describeHugePages (the boot lines' memory)", () => {
  it("says which pages a process's large buffers get, and why small ones", () => {
    expect(describeHugePages({ GLIBC_TUNABLES: HUGE_PAGES_TUNABLE }, MADVISE, true)).toBe("huge pages");
    expect(describeHugePages({ GLIBC_TUNABLES: `glibc.malloc.arena_max=2:${HUGE_PAGES_TUNABLE}` }, MADVISE, true)).toBe("huge pages");
    expect(describeHugePages({}, "[always] madvise never\n", true)).toBe("huge pages (THP always)");
    expect(describeHugePages({}, "always madvise [never]\n", true)).toBe("small pages (THP off on this machine)");
    expect(describeHugePages({}, null, true)).toBe("small pages (THP off on this machine)");
    expect(describeHugePages({}, MADVISE, false)).toBe("small pages (not glibc)");
    expect(describeHugePages({}, MADVISE, true)).toBe("small pages (not relaunched)");
    expect(describeHugePages({ GLIBC_TUNABLES: "glibc.malloc.hugetlb=0" }, MADVISE, true)).toBe("small pages (GLIBC_TUNABLES glibc.malloc.hugetlb=0)");
  });
});

/** A command run through ensureHugePages (the built module, as the entry points load it). */
function script(dir: string, body: string): string {
  const file = path.join(dir, `command-${Math.random().toString(36).slice(2)}.mjs`);
  const helper = path.resolve("scrub-service/dist/huge-pages.mjs");
  fs.writeFileSync(file, `import { ensureHugePages } from ${JSON.stringify(helper)};\nawait ensureHugePages();\n${body}\n`);
  return file;
}

const thp = fs.existsSync("/sys/kernel/mm/transparent_hugepage/enabled") ? fs.readFileSync("/sys/kernel/mm/transparent_hugepage/enabled", "utf8") : "";
const relaunches = process.platform === "linux" && thp.includes("[madvise]");

// Only such a machine relaunches anything (elsewhere hugePagesEnv's cases above are the whole behaviour); CI's is one.
describe.runIf(relaunches)("an entry point on a machine whose THP mode is madvise", () => {
  it("runs its command once, in a child on huge pages, with its arguments, stdio and exit code", { timeout: 30_000 }, async () => {
    const dir = tmpDir("huge-pages");
    const file = script(
      dir,
      `const fs = await import("node:fs");
       const b = new Float64Array(8 << 20); for (let i = 0; i < b.length; i += 512) b[i] = i; // 64 MB, touched
       const huge = Number(/AnonHugePages:\\s+(\\d+)/.exec(fs.readFileSync("/proc/self/smaps_rollup", "utf8"))[1]);
       console.log(JSON.stringify({ args: process.argv.slice(2), tunables: process.env.GLIBC_TUNABLES, hugeKB: huge, touched: b[512] }));
       process.exitCode = 7;`,
    );
    const out = await run(process.execPath, [file, "a b", "--c"], { env: { ...process.env, GLIBC_TUNABLES: "" } }).catch((e) => e);
    expect(out.code).toBe(7);
    const line = JSON.parse(out.stdout.trim());
    expect(line).toMatchObject({ args: ["a b", "--c"], tunables: HUGE_PAGES_TUNABLE, touched: 512 });
    expect(line.hugeKB).toBeGreaterThanOrEqual(32 * 1024); // most of the 64 MB on 2 MB pages
  });

  it("keeps a process on small pages when the operator says so", { timeout: 30_000 }, async () => {
    const file = script(tmpDir("huge-pages"), `console.log(process.env.GLIBC_TUNABLES, process.ppid === Number(process.argv[2]));`);
    const { stdout } = await run(process.execPath, [file, String(process.pid)], { env: { ...process.env, GLIBC_TUNABLES: "glibc.malloc.hugetlb=0" } });
    expect(stdout.trim()).toBe("glibc.malloc.hugetlb=0 true"); // not relaunched: this test is its parent
  });

  it("passes SIGTERM to the child, and the child ends when the parent is killed", { timeout: 30_000 }, async () => {
    const dir = tmpDir("huge-pages");
    const file = script(
      dir,
      `process.on("SIGTERM", () => { console.log("graceful"); process.exit(0); });
       console.log(process.pid); setInterval(() => {}, 1000);`,
    );
    const start = async () => {
      const p = spawn(process.execPath, [file], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      p.stdout!.on("data", (c) => (out += c));
      await waitFor(() => out.includes("\n"));
      return { p, child: Number(out.trim()), out: () => out };
    };
    const alive = (pid: number) => {
      const stat = fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, "utf8") : "";
      return stat !== "" && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
    };

    const a = await start();
    expect(a.child).not.toBe(a.p.pid); // the command runs in the relaunched child
    const exited = new Promise<[number | null, string | null]>((r) => a.p.once("exit", (c, s) => r([c, s])));
    a.p.kill("SIGTERM");
    expect(await exited).toEqual([0, null]);
    expect(a.out()).toContain("graceful");

    const b = await start();
    expect(alive(b.child)).toBe(true);
    b.p.kill("SIGKILL");
    await waitFor(() => !alive(b.child));
  });
});

async function waitFor(ok: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
