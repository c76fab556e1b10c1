import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Proof of every scrub (issue 16): where each list version came from, the DNC registry clock, signed scrub
// certificates and the keys that sign them, and the admin settings that govern them (decision 110).
export async function up(db: Kysely<any>): Promise<void> {
  // List provenance: each completed load names the bytes it read and the list version it produced.
  await db.schema
    .alterTable("list_loads")
    .addColumn("source_sha256", "text")
    .addColumn("source_format", "text")
    .addColumn("registry_date", "timestamptz")
    .addColumn("list_version", "bigint")
    .addColumn("list_size", "bigint")
    .execute();
  await sql`create index list_loads_version on list_loads (list_id, list_version) where status = 'completed'`.execute(db);
  // The registry date of the list's current version, and the version whose 25-day warning went out.
  await db.schema.alterTable("lists").addColumn("registry_date", "timestamptz").addColumn("age_warned_version", "bigint").execute();
  await sql`update lists set registry_date = updated_at where size > 0`.execute(db);

  await db.schema
    .alterTable("scrub_jobs")
    .addColumn("input_sha256", "text")
    .addColumn("valid_until", "timestamptz")
    .addColumn("dnc_age_days", "integer")
    .addColumn("remind_at", "timestamptz")
    .addColumn("reminder_sent_at", "timestamptz")
    .addColumn("results_deleted_at", "timestamptz")
    .execute();
  await sql`create index scrub_jobs_reminders on scrub_jobs (remind_at) where remind_at is not null and reminder_sent_at is null`.execute(db);

  // No foreign keys: a certificate outlives its result files, its job row and its owner's account
  // (TCPA claims can be brought four years after a call).
  await db.schema
    .createTable("scrub_certificates")
    .addColumn("job_id", "uuid", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull())
    .addColumn("document", "text", (c) => c.notNull())
    .addColumn("key_id", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("scrub_certificates_user").on("scrub_certificates").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("certificate_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("public_key", "text", (c) => c.notNull())
    // null for a key given in CERT_SIGNING_KEY (the private half never enters the database)
    .addColumn("private_key", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("retired_at", "timestamptz")
    .execute();

  await db.schema
    .createTable("app_settings")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "jsonb", (c) => c.notNull())
    .addColumn("updated_by", "uuid")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["app_settings", "certificate_keys", "scrub_certificates"]) await db.schema.dropTable(t).ifExists().execute();
  await sql`drop index if exists scrub_jobs_reminders`.execute(db);
  for (const c of ["results_deleted_at", "reminder_sent_at", "remind_at", "dnc_age_days", "valid_until", "input_sha256"]) {
    await db.schema.alterTable("scrub_jobs").dropColumn(c).execute();
  }
  for (const c of ["age_warned_version", "registry_date"]) await db.schema.alterTable("lists").dropColumn(c).execute();
  await sql`drop index if exists list_loads_version`.execute(db);
  for (const c of ["list_size", "list_version", "registry_date", "source_format", "source_sha256"]) {
    await db.schema.alterTable("list_loads").dropColumn(c).execute();
  }
}
