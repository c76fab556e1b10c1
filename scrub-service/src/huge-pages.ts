/**
 * Our processes' large buffers on transparent huge pages (decision 173). A list load touches ~0.5 GB of fresh memory
 * (the numbers, their sort, the Bloom filter, the blocks and the Redis payloads); in 4 KB pages that is ~140,000 page
 * faults, and on a virtual machine each costs several microseconds. Linux gives huge pages to memory a process asks
 * for with madvise(MADV_HUGEPAGE) when the machine's THP mode is `madvise` (the usual default); glibc's malloc asks
 * for its large chunks — where V8's ArrayBuffers live — when the tunable below is in the environment at the start. A
 * process cannot set it for itself, so an entry point relaunches itself once with it (ensureHugePages).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

/** glibc ≥ 2.35 madvises its large chunks (an older glibc ignores an unknown tunable). */
export const HUGE_PAGES_TUNABLE = "glibc.malloc.hugetlb=1";

const THP_MODE_FILE = "/sys/kernel/mm/transparent_hugepage/enabled";
const FORWARDED: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
/** Names the relaunched child's fd of a pipe from its parent: at its end (the parent died) the child ends too. */
const LIFELINE_ENV = "DPT_HUGE_PAGES_LIFELINE";
const LIFELINE_FD = 3;

type Env = Record<string, string | undefined>;

/**
 * The environment to relaunch with, or null when there is nothing to gain: not glibc, THP `always` (every large
 * mapping gets huge pages already) or `never`, or the tunable set already (by this relaunch, or by an operator:
 * `GLIBC_TUNABLES=glibc.malloc.hugetlb=0` keeps a process on small pages). Other tunables are kept.
 */
export function hugePagesEnv<E extends Env>(env: E, thpMode: string | null, glibc: boolean): E | null {
  if (!glibc || selectedThp(thpMode) !== "madvise" || hugetlbSetting(env) !== undefined) return null;
  const tunables = env.GLIBC_TUNABLES;
  return { ...env, GLIBC_TUNABLES: tunables ? `${tunables}:${HUGE_PAGES_TUNABLE}` : HUGE_PAGES_TUNABLE };
}

/**
 * How this process's large buffers are paged, for the boot lines: `huge pages` (the tunable is set, or THP is
 * `always`), else `small pages` and why. Pure.
 */
export function describeHugePages(env: Env, thpMode: string | null, glibc: boolean): string {
  const thp = selectedThp(thpMode);
  if (thp === "always") return "huge pages (THP always)";
  if (thp !== "madvise") return "small pages (THP off on this machine)";
  if (!glibc) return "small pages (not glibc)";
  const set = /^\d+/.exec(hugetlbSetting(env) ?? "")?.[0]; // glibc reads a number there
  if (set === undefined) return "small pages (not relaunched)";
  return set === "0" ? "small pages (GLIBC_TUNABLES glibc.malloc.hugetlb=0)" : "huge pages";
}

/** The THP mode the machine has selected (the bracketed word of THP_MODE_FILE), or null without THP. */
function selectedThp(thpMode: string | null): string | null {
  return thpMode ? (/\[(\w+)\]/.exec(thpMode)?.[1] ?? null) : null;
}

/** The value `GLIBC_TUNABLES` gives glibc.malloc.hugetlb, or undefined when it names none. */
function hugetlbSetting(env: Env): string | undefined {
  return /(?:^|:)glibc\.malloc\.hugetlb=([^:]*)/.exec(env.GLIBC_TUNABLES ?? "")?.[1];
}

/** describeHugePages of this process. */
export function hugePagesOfThisProcess(): string {
  return describeHugePages(process.env, thpMode(), process.platform === "linux" && runsOnGlibc());
}

function thpMode(): string | null {
  try {
    return fs.readFileSync(THP_MODE_FILE, "utf8");
  } catch {
    return null;
  }
}

function runsOnGlibc(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return Boolean(report?.header?.glibcVersionRuntime);
}

/**
 * Returns when this process is the one to run its command: as it is when there is nothing to gain, when it was
 * forked with an IPC channel (a child would not inherit it) or is being debugged (the child would want the same
 * inspector port), or when a child cannot be started. Otherwise runs the command again in a child with the tunable,
 * passing on its arguments, stdio and signals, and exits as the child did. The child holds a pipe from this process
 * and ends at once when it closes, so killing this process (even with SIGKILL) never leaves the command running.
 */
export async function ensureHugePages(): Promise<void> {
  if (process.env[LIFELINE_ENV] === String(LIFELINE_FD)) return followParent();
  if (process.platform !== "linux" || process.send || process.execArgv.some((a) => a.startsWith("--inspect"))) return;
  const env = hugePagesEnv(process.env, thpMode(), runsOnGlibc());
  if (!env) return;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: ["inherit", "inherit", "inherit", "pipe"],
    env: { ...env, [LIFELINE_ENV]: String(LIFELINE_FD) },
  });
  const started = await new Promise<boolean>((resolve) => {
    child.once("spawn", () => resolve(true));
    child.once("error", () => resolve(false));
  });
  if (!started) return;
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const s of FORWARDED) process.on(s, forward);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once("exit", (c, s) => resolve([c, s])));
  for (const s of FORWARDED) process.off(s, forward);
  if (signal) process.kill(process.pid, signal); // ended by a signal: so does this process, as its parent expects
  process.exit(code ?? 1);
}

/** The relaunched child: ends when its parent's pipe closes (the parent is gone); its own children do not inherit it. */
function followParent(): void {
  delete process.env[LIFELINE_ENV];
  const lifeline = new net.Socket({ fd: LIFELINE_FD, readable: true, writable: false });
  const orphaned = () => process.kill(process.pid, "SIGKILL");
  lifeline.on("end", orphaned);
  lifeline.on("error", orphaned);
  lifeline.resume();
  lifeline.unref();
}
