import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("categories")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index categories_user_name on categories (user_id, lower(name))`.execute(db);

  await db.schema
    .createTable("lists")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('litigation','dnc','container')`))
    .addColumn("suppression_type", "smallint")
    .addColumn("user_id", "uuid", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("category_id", "uuid", (c) => c.references("categories.id").onDelete("set null"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("size", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("version", "bigint", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("deleted_at", "timestamptz")
    .addCheckConstraint("lists_container_owner", sql`kind <> 'container' or user_id is not null`)
    .execute();
  // Exactly one litigation list and one DNC list.
  await sql`create unique index lists_one_admin_list on lists (kind) where kind in ('litigation','dnc')`.execute(db);
  await db.schema.createIndex("lists_user").on("lists").columns(["user_id", "created_at"]).execute();
  await db
    .insertInto("lists")
    .values([
      { kind: "litigation", suppression_type: 0, name: "Litigation Only", description: "TCPA litigators" },
      { kind: "dnc", suppression_type: 1, name: "DNC and Litigation", description: "Do-not-call registry" },
    ])
    .execute();

  await db.schema
    .createTable("list_numbers")
    .addColumn("list_id", "integer", (c) => c.notNull().references("lists.id").onDelete("cascade"))
    .addColumn("number", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("list_numbers_pk", ["list_id", "number"])
    .execute();

  await db.schema
    .createTable("scrub_jobs")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("source", "text", (c) => c.notNull().defaultTo("web"))
    .addColumn("api_key_id", "uuid")
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("suppression_type", "text", (c) => c.notNull().check(sql`suppression_type in ('LitigationOnly','DNCAndLitigation')`))
    .addColumn("column_name", "text")
    .addColumn("container_id", "integer", (c) => c.references("lists.id").onDelete("set null"))
    .addColumn("category_id", "uuid", (c) => c.references("categories.id").onDelete("set null"))
    .addColumn("states", sql`text[]`)
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('queued','running','completed','failed')`))
    .addColumn("error", "text")
    .addColumn("input_path", "text", (c) => c.notNull())
    .addColumn("input_bytes", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("bytes_read", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("rows_done", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("total_rows", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("good_count", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("bad_count", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("invalid_count", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("reason_counts", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("usage_reserved", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("lease_owner", "text")
    .addColumn("lease_expires_at", "timestamptz")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("started_at", "timestamptz")
    .addColumn("finished_at", "timestamptz")
    .execute();
  await db.schema.createIndex("scrub_jobs_user").on("scrub_jobs").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("scrub_jobs_status").on("scrub_jobs").columns(["status", "created_at"]).execute();

  await db.schema
    .createTable("result_files")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("job_id", "uuid", (c) => c.notNull().references("scrub_jobs.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('good','bad','invalid')`))
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("records", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("bytes", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("result_files_job_kind", ["job_id", "kind"])
    .execute();

  await db.schema
    .createTable("list_loads")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("list_id", "integer", (c) => c.notNull().references("lists.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("mode", "text", (c) => c.notNull().check(sql`mode in ('add','remove','replace')`))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('queued','running','completed','failed')`))
    .addColumn("file_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("bytes_total", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("bytes_read", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("added", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("already_present", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("removed", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("invalid", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("usage_reserved", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("error", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["list_loads", "result_files", "scrub_jobs", "list_numbers", "lists", "categories"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
