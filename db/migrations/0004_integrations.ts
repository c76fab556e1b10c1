import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
export async function up(db: Kysely<any>): Promise<void> {
  // An integration: a customer's connection to the public API (its keys, default container, webhook, toggles).
  await db.schema
    .createTable("integrations")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("container_id", "integer", (c) => c.references("lists.id").onDelete("set null"))
    .addColumn("webhook_url", "text")
    // AES-256-GCM ciphertext of the signing secret (the secret must be usable to sign, so it is not hashed).
    .addColumn("webhook_secret_enc", "text")
    .addColumn("webhook_secret_prefix", "text")
    .addColumn("webhook_enabled", "boolean", (c) => c.notNull().defaultTo(true))
    // Only jobs finished after this moment notify (turning notifications on does not replay old jobs).
    .addColumn("webhook_enabled_since", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("rate_limit_enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("auto_retry_enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("deleted_at", "timestamptz")
    .execute();
  await db.schema.createIndex("integrations_user").on("integrations").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("integration_id", "uuid", (c) => c.notNull().references("integrations.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("last_used_at", "timestamptz")
    .addColumn("revoked_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("api_keys_user").on("api_keys").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("api_keys_integration").on("api_keys").column("integration_id").execute();

  // Fixed hourly windows, one row per bucket (key:<id> or integration:<id>) and window; atomic upsert.
  await db.schema
    .createTable("api_rate_limits")
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("window_start", "timestamptz", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("api_rate_limits_pk", ["bucket", "window_start"])
    .execute();

  // One event per finished job and integration; its delivery state drives the retries.
  await db.schema
    .createTable("webhook_events")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("integration_id", "uuid", (c) => c.notNull().references("integrations.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("job_id", "uuid", (c) => c.notNull().references("scrub_jobs.id").onDelete("cascade"))
    .addColumn("event", "text", (c) => c.notNull().check(sql`event in ('scrub.completed','scrub.failed')`))
    .addColumn("payload", "text")
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status in ('pending','delivered','failed')`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("lease_until", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .addUniqueConstraint("webhook_events_once", ["integration_id", "job_id"])
    .execute();
  await sql`create index webhook_events_due on webhook_events (next_attempt_at) where status = 'pending'`.execute(db);

  // Every HTTP attempt, for the delivery log.
  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("event_id", "uuid", (c) => c.notNull().references("webhook_events.id").onDelete("cascade"))
    .addColumn("integration_id", "uuid", (c) => c.notNull().references("integrations.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("webhook_deliveries_user").on("webhook_deliveries").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("scrub_jobs_api_key").on("scrub_jobs").columns(["api_key_id", "finished_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("scrub_jobs_api_key").ifExists().execute();
  for (const t of ["webhook_deliveries", "webhook_events", "api_rate_limits", "api_keys", "integrations"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
