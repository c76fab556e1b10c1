/**
 * The standalone scrub service (SCRUB_SERVICE_URL mode): wiring and HTTP entry only.
 *   DATABASE_URL (shared with the app), REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS + REDIS_SENTINEL_NAME, DATA_DIR (shared disk), SCRUB_SERVICE_TOKEN (required),
 *   SCRUB_SERVICE_PORT (default 3100). Run: npm run scrub-service
 * Several replicas may share one database, one Redis and one DATA_DIR (decision 125); a job whose replica
 * dies is retried on another once its lease (SCRUB_LEASE_MS, default 30 s) runs out.
 * The process relaunches itself once on huge pages when that helps (huge-pages.ts), before the service's modules load.
 * Optional: SCRUB_THREADS (worker threads), SCRUB_BATCH_BYTES (bytes per scrub batch).
 */
import { ensureHugePages } from "./huge-pages";

await ensureHugePages();
await import("./service-main");
