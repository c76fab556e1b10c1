import { sql, type Kysely } from "kysely";
import type { Database } from "db/schema";
import { freshnessRuleDays } from "../evaluation";
import { ADMIN_LIST_KINDS } from "../list-types";

/**
 * The queue gauges, each admin list's age since its registry date, and each list's freshness rule (the most age
 * it may have: the federal list 31 days, each state list its own), read at scrape time. The alert compares each
 * list's age with its own rule (ops/prometheus/alerts.yml, ListPastFreshnessRule; decision 174).
 */
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
    listRules: listRuleSeconds(),
  };
}

/** Every admin list with a freshness rule and its rule in seconds (constant: the registry's data). */
export function listRuleSeconds(): { list: string; seconds: number }[] {
  return ADMIN_LIST_KINDS.flatMap((kind) => {
    const days = freshnessRuleDays(kind);
    return days === null ? [] : [{ list: kind, seconds: days * 86_400 }];
  });
}
