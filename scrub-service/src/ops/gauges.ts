import { sql, type Kysely } from "kysely";
import type { Database } from "../../../db/schema";

/** The queue gauges and each admin list's age since its registry date, read at scrape time. */
export async function readGauges(db: Kysely<Database>) {
  const jobs = await db
    .selectFrom("scrub_jobs")
    .select(["status", sql<number>`count(*)::int`.as("n")])
    .where("status", "in", ["queued", "running"])
    .groupBy("status")
    .execute();
  const lists = await db
    .selectFrom("lists")
    .select(["kind", sql<number>`extract(epoch from (now() - registry_date))::float8`.as("seconds")])
    .where("kind", "!=", "container")
    .where("deleted_at", "is", null)
    .where("registry_date", "is not", null)
    .execute();
  return {
    queued: Number(jobs.find((j) => j.status === "queued")?.n ?? 0),
    running: Number(jobs.find((j) => j.status === "running")?.n ?? 0),
    listAges: lists.map((l) => ({ list: String(l.kind), seconds: Number(l.seconds) })),
  };
}
