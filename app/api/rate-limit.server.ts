import { sql, type Kysely } from "kysely";
import type { Database } from "db/schema";

/** The limit the Integrations page states: 1000 requests per hour per key. */
export const API_REQUESTS_PER_HOUR = 1000;
const WINDOW_SECONDS = 3600;

export interface RateLimitResult {
  limit: number;
  remaining: number;
  /** Unix seconds when the current window ends. */
  reset: number;
  limited: boolean;
  /** Seconds until a request can succeed (0 when not limited). */
  retryAfter: number;
  /** The window `limit` counts over, in seconds (X-RateLimit-Window): 3600 here, 1 for lookups. */
  windowSeconds: number;
}

/**
 * Counts one request against each bucket (fixed hourly windows in PostgreSQL: one atomic upsert per
 * bucket, so every replica sees the same counts) and tells whether any bucket is over the limit.
 * Buckets: always "key:<id>"; with the integration's rate-limit toggle on, also "integration:<id>"
 * (all keys of the integration share one 1000/h budget). See docs/decisions/051-api-rate-limits.md.
 */
export async function hitRateLimit(db: Kysely<Database>, buckets: string[], limit: number = API_REQUESTS_PER_HOUR): Promise<RateLimitResult> {
  // One statement for all buckets: one round trip, each row's increment atomic.
  const rows = await sql<{ count: number; window_start: Date }>`
    insert into api_rate_limits (bucket, window_start, count)
    select b, date_trunc('hour', now()), 1 from unnest(${sql.val(buckets)}::text[]) as b
    on conflict (bucket, window_start) do update set count = api_rate_limits.count + 1
    returning count, window_start`
    .execute(db)
    .then((r) => r.rows);
  const highest = Math.max(...rows.map((r) => Number(r.count)));
  const windowStart = new Date(rows[0].window_start).getTime();
  const reset = Math.floor(windowStart / 1000) + WINDOW_SECONDS;
  const limited = highest > limit;
  const nowSeconds = Math.floor(Date.now() / 1000);
  return {
    limit,
    remaining: Math.max(0, limit - highest),
    reset,
    limited,
    retryAfter: limited ? Math.max(1, reset - nowSeconds) : 0,
    windowSeconds: WINDOW_SECONDS,
  };
}

/** Drops windows that ended more than an hour ago. */
export async function purgeOldRateLimitWindows(db: Kysely<Database>): Promise<void> {
  await db
    .deleteFrom("api_rate_limits")
    .where("window_start", "<", sql<Date>`date_trunc('hour', now()) - interval '1 hour'`)
    .execute();
}
