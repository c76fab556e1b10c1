import { auditSentence } from "./audit-sentences";
import { sql, type Kysely } from "kysely";
import type { Database } from "db/schema";
import { jobStatusLabel } from "~/utils/format";
import { isAdminViewer, scopeJobs, STATS_WINDOW_DAYS, type PurgeTotals, type Viewer } from "./purge.server";

/** The dashboard's figures: container growth, active users, purges per day, the window's totals, activity feeds. */

export function startOfUtcMonth(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

export function startOfUtcDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

export interface ContainerGrowth {
  total: number;
  /** Containers that existed at the end of the previous calendar month (UTC). */
  previousMonth: number;
  /** Percent change vs the previous month's count; null when there was none to compare with. */
  growthPercent: number | null;
}

/** Containers now vs at the end of the previous calendar month; admins count every user's. */
export async function containerGrowth(db: Kysely<Database>, viewer: Viewer, now: Date): Promise<ContainerGrowth> {
  const monthStart = startOfUtcMonth(now);
  let q = db.selectFrom("lists").where("kind", "=", "container");
  if (!isAdminViewer(viewer)) q = q.where("user_id", "=", viewer.id);
  const row = await q
    .select([
      sql<string>`count(*) filter (where deleted_at is null)`.as("total"),
      sql<string>`count(*) filter (where created_at < ${monthStart} and (deleted_at is null or deleted_at >= ${monthStart}))`.as("previous"),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(row.total);
  const previousMonth = Number(row.previous);
  return {
    total,
    previousMonth,
    growthPercent: previousMonth > 0 ? ((total - previousMonth) / previousMonth) * 100 : null,
  };
}

export async function activeUserCount(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("status", "=", "Active")
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Rows processed per UTC day by completed jobs finished in the last `days` days (oldest first, zero-filled). */
export async function purgedPerDay(db: Kysely<Database>, viewer: Viewer, now: Date, days = STATS_WINDOW_DAYS): Promise<{ day: string; processed: number }[]> {
  const first = new Date(startOfUtcDay(now).getTime() - (days - 1) * 86_400_000);
  const rows = await scopeJobs(db.selectFrom("scrub_jobs"), viewer, true)
    .select([
      sql<string>`to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD')`.as("day"),
      sql<string>`sum(good_count + bad_count + invalid_count)`.as("processed"),
    ])
    .where("status", "=", "completed")
    .where("finished_at", ">=", first)
    .groupBy(sql`1`)
    .execute();
  const byDay = new Map(rows.map((r) => [r.day, Number(r.processed)]));
  const out: { day: string; processed: number }[] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    out.push({ day, processed: byDay.get(day) ?? 0 });
  }
  return out;
}

/** Totals over completed jobs finished within the stats window. */
export async function windowTotals(db: Kysely<Database>, viewer: Viewer, now: Date, days = STATS_WINDOW_DAYS): Promise<PurgeTotals> {
  const since = new Date(now.getTime() - days * 86_400_000);
  const row = await scopeJobs(db.selectFrom("scrub_jobs"), viewer, true)
    .select((eb) => [
      eb.fn.countAll<string>().as("operations"),
      sql<string>`coalesce(sum(good_count + bad_count + invalid_count), 0)`.as("processed"),
      sql<string>`coalesce(sum(good_count), 0)`.as("clean"),
    ])
    .where("status", "=", "completed")
    .where("finished_at", ">=", since)
    .executeTakeFirstOrThrow();
  const processed = Number(row.processed);
  const clean = Number(row.clean);
  return { operations: Number(row.operations), processed, clean, cleanRate: processed ? clean / processed : 0 };
}

export interface ActivityItem {
  id: string;
  kind: "scrub" | "audit";
  title: string;
  detail: string;
  actor: string | null;
  at: string;
}

/** The user's latest scrubs as activity items. */
export async function recentScrubActivity(db: Kysely<Database>, userId: string, limit = 5): Promise<ActivityItem[]> {
  const rows = await db
    .selectFrom("scrub_jobs")
    .select(["id", "file_name", "status", "rows_done", "good_count", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: "scrub",
    title: `Purge ${jobStatusLabel(r.status).toLowerCase()}`,
    detail:
      r.status === "completed"
        ? `${r.file_name}: ${Number(r.rows_done).toLocaleString("en-US")} processed, ${Number(r.good_count).toLocaleString("en-US")} clean`
        : r.file_name,
    actor: null,
    at: r.created_at.toISOString(),
  }));
}

/** The audit log (scrubs, list loads, user and payment changes) for admins. */
export async function recentAuditActivity(db: Kysely<Database>, limit = 25): Promise<ActivityItem[]> {
  const rows = await db
    .selectFrom("audit_log")
    .leftJoin("users", "users.id", "audit_log.actor_id")
    .select([
      "audit_log.id",
      "audit_log.action",
      "audit_log.target_type",
      "audit_log.details",
      "audit_log.created_at",
      "users.first_name",
      "users.last_name",
      "users.email",
    ])
    .orderBy("audit_log.created_at", "desc")
    .orderBy("audit_log.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: "audit",
    ...auditSentence(r.action, r.details),
    actor: r.email ? `${r.first_name ?? ""} ${r.last_name ?? ""}`.trim() || r.email : null,
    at: r.created_at.toISOString(),
  }));
}
