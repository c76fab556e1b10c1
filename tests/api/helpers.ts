import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database, RoleName } from "db/schema";
import { createApiKey, createIntegration } from "~/models/integration.server";

/** A user (Active) with an optional paid plan period covering now. */
export async function makeUser(
  db: Kysely<Database>,
  opts: { role?: RoleName; plan?: "beginner" | "business" | "premium" | null; email?: string } = {},
): Promise<string> {
  const email = opts.email ?? `u-${Math.random().toString(36).slice(2)}@api.test`;
  const user = await db
    .insertInto("users")
    .values({
      email,
      first_name: "Api",
      last_name: "User",
      company: "Acme",
      phone_number: "",
      password_hash: null,
      role: opts.role ?? "NormalUser",
      status: "Active",
      email_confirmed: true,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (opts.plan) {
    const plan = await db.selectFrom("plans").selectAll().where("id", "=", opts.plan).executeTakeFirstOrThrow();
    await db
      .insertInto("transactions")
      .values({
        user_id: user.id,
        plan_id: plan.id,
        plan_name: plan.name,
        amount_cents: plan.price_cents,
        dnc_and_litigation_scrubs: plan.suppression_limit,
        custom_dataset_records: plan.container_limit,
        status: "paid",
        transfer_reference: `T-${Math.random().toString(36).slice(2)}`,
        start_date: new Date(Date.now() - 24 * 3600_000),
        end_date: new Date(Date.now() + 29 * 24 * 3600_000),
        paid_at: new Date(),
      })
      .execute();
  }
  return user.id;
}

export async function makeKey(
  db: Kysely<Database>,
  userId: string,
  opts: { webhookUrl?: string | null; containerId?: number | null; name?: string } = {},
): Promise<{ key: string; keyId: string; integrationId: string; webhookSecret: string | null }> {
  const integration = await createIntegration(db, {
    userId,
    name: opts.name ?? "Test integration",
    description: "",
    containerId: opts.containerId ?? null,
    webhookUrl: opts.webhookUrl ?? null,
  });
  const key = await createApiKey(db, { userId, integrationId: integration.id, name: "test key" });
  if ("error" in key) throw new Error(key.error);
  return { key: key.key, keyId: key.id, integrationId: integration.id, webhookSecret: integration.webhookSecret };
}

export async function makeContainer(db: Kysely<Database>, userId: string, name = "My container"): Promise<number> {
  const row = await db.insertInto("lists").values({ kind: "container", user_id: userId, name, description: "" }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

/** A stand-in scrub service: records enqueues; tests finish jobs by writing the rows the engine would. */
export function fakeScrubService() {
  const enqueued: string[] = [];
  const loads: string[] = [];
  const service = {
    kind: "in-process",
    async enqueue(id: string) {
      enqueued.push(id);
    },
    async enqueueListLoad(id: string) {
      loads.push(id);
    },
    async countRecords(p: string) {
      const text = fs.readFileSync(p, "utf8");
      const lines = text.split("\n").filter((l) => l.trim() !== "").length;
      return Math.max(0, lines - 1);
    },
    async previewCsv(p: string, maxRows = 10) {
      const lines = fs
        .readFileSync(p, "utf8")
        .split(/\r?\n/)
        .filter((l) => l !== "");
      const headers = (lines[0] ?? "").split(",").map((h) => h.trim());
      const rows = lines.slice(1, 1 + maxRows).map((l) => l.split(","));
      const phoneColumn = headers.find((h) => /phone|number|mobile|cell|tel/i.test(h)) ?? headers[0] ?? null;
      return { headers: headers.filter(Boolean).length ? headers : [], hasHeader: true, delimiter: ",", rows, phoneColumn };
    },
  };
  return { service, enqueued, loads };
}

/** Makes getScrubService() return this service in the test process. */
export function installScrubService(service: object): void {
  const g = globalThis as unknown as { __singletons?: Map<string, unknown> };
  g.__singletons ??= new Map();
  g.__singletons.set("scrub-service", Promise.resolve(service));
}

/** Finishes a job as the engine would: counts, status, and three result files on disk. */
export async function finishJob(db: Kysely<Database>, jobId: string, dir: string, status: "completed" | "failed" = "completed"): Promise<void> {
  const job = await db.selectFrom("scrub_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
  if (status === "failed") {
    await db
      .updateTable("scrub_jobs")
      .set({ status: "failed", error: "The suppression list store did not answer.", finished_at: new Date(), usage_reserved: 0 })
      .where("id", "=", jobId)
      .execute();
    return;
  }
  fs.mkdirSync(dir, { recursive: true });
  for (const kind of ["good", "bad", "invalid"] as const) {
    const p = path.join(dir, `${jobId}-${kind}.csv`);
    fs.writeFileSync(p, kind === "good" ? "Number\n2125552142\n" : kind === "bad" ? "Number,reason\n2125552143,dnc\n" : "Number,reason\n12,too_short\n");
    await db
      .insertInto("result_files")
      .values({ job_id: jobId, user_id: job.user_id, kind, file_name: `${kind}.csv`, path: p, records: 1, bytes: fs.statSync(p).size })
      .execute();
  }
  await db
    .updateTable("scrub_jobs")
    .set({
      status: "completed",
      rows_done: 3,
      total_rows: 3,
      good_count: 1,
      bad_count: 1,
      invalid_count: 1,
      reason_counts: JSON.stringify({ dnc: 1 }),
      started_at: new Date(),
      finished_at: new Date(),
      usage_reserved: 0,
    })
    .where("id", "=", jobId)
    .execute();
}

export function apiRequest(
  pathname: string,
  opts: { key?: string; method?: string; json?: unknown; form?: FormData; body?: BodyInit; headers?: Record<string, string> } = {},
): Request {
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set("Authorization", `Bearer ${opts.key}`);
  let body: BodyInit | undefined = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers.set("Content-Type", "application/json");
  }
  if (opts.form) body = opts.form;
  return new Request(`http://localhost${pathname}`, {
    method: opts.method ?? (body !== undefined ? "POST" : "GET"),
    headers,
    body,
  });
}

export async function bodyOf(res: Response): Promise<any> {
  return JSON.parse(await res.text());
}
