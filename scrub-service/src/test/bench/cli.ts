/** The built CLI and a bench user, run in child processes (so each scrub's RSS is its own process's). */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { CLI_BUNDLE } from "../../entry-points";

const run = promisify(execFile);

let profiled = 0;

/**
 * BENCH_CPU_PROF=DIR: each CLI run writes V8 CPU profiles (one per thread) to DIR/<n>-<command>; summarise them
 * with scripts/bench/profile-summary.mjs. Profiling slows the run: take figures from a run without it.
 */
function profileArgs(args: string[]): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return [];
  const name = `${String(++profiled).padStart(2, "0")}-${args.slice(0, 2).join("-")}`;
  return ["--cpu-prof", `--cpu-prof-dir=${dir}/${name}`];
}

export async function cli(args: string[], env: Record<string, string>): Promise<Record<string, any>> {
  // The built CLI (scrub-service/scripts/build-worker.mjs), as `npm run scrub` / `npm run lists` run it.
  const { stdout } = await run(process.execPath, [...profileArgs(args), CLI_BUNDLE, ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 1 << 24,
  });
  return JSON.parse(stdout);
}

/** A user to own the jobs: through a tiny script using the same database code. */
/** `cwd`: the tree whose database code creates the user (the A/B runs two trees). */
export async function makeUser(env: Record<string, string>, cwd = process.cwd(), email = "bench@example.com"): Promise<string> {
  const code = `
    import { openDatabase, migrateToLatest } from "./db/client.ts";
    const h = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.DATA_DIR });
    await migrateToLatest(h.db);
    const email = ${JSON.stringify(email)};
    const u = await h.db.insertInto("users").values({ email, first_name: "Bench", last_name: "User",
      company: "", phone_number: "", password_hash: "x", role: "SuperAdmin", status: "Active", email_confirmed: true })
      .onConflict((oc) => oc.doNothing()).returning("id").executeTakeFirst();
    const id = u?.id ?? (await h.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
    console.log(id);
    await h.close();`;
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { cwd, env: { ...process.env, ...env } });
  return stdout.trim().split("\n").pop()!;
}
