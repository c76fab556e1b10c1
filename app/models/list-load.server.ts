import type { Kysely } from "kysely";
import type { Database } from "db/schema";

/** Marks a load failed when it could not be started (its reserved usage is released: failed loads count 0). */
export async function failListLoad(db: Kysely<Database>, loadId: string, error: string): Promise<void> {
  await db
    .updateTable("list_loads")
    .set({ status: "failed", error, finished_at: new Date() })
    .where("id", "=", loadId)
    .where("status", "in", ["queued", "running"])
    .execute();
}

/** Finished loads (completed or failed) that still name their input file: a finished load never reads it again. */
export async function finishedLoadInputs(db: Kysely<Database>, limit: number): Promise<{ id: string; inputPath: string }[]> {
  const rows = await db
    .selectFrom("list_loads")
    .select(["id", "input_path"])
    .where("status", "in", ["completed", "failed"])
    .where("input_path", "<>", "")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, inputPath: r.input_path }));
}

export async function clearLoadInput(db: Kysely<Database>, loadId: string): Promise<void> {
  await db.updateTable("list_loads").set({ input_path: "" }).where("id", "=", loadId).execute();
}

/** Which of these input files a queued or running scrub job or list load still reads. */
export async function inputPathsInUse(db: Kysely<Database>, paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const [jobs, loads] = await Promise.all([
    db.selectFrom("scrub_jobs").select("input_path").where("input_path", "in", paths).where("status", "in", ["queued", "running"]).execute(),
    db.selectFrom("list_loads").select("input_path").where("input_path", "in", paths).where("status", "in", ["queued", "running"]).execute(),
  ]);
  return new Set([...jobs, ...loads].map((r) => r.input_path));
}
