/** Test helpers for the scrub engine: databases, users, lists, services. */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DbHandle } from "../../../db/client";
import { createInProcessScrubService, type InProcessOptions, type InProcessScrubService } from "../in-process";

export function tmpDir(label = "scrub"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`));
}

export async function createUser(handle: DbHandle): Promise<string> {
  const row = await handle.db
    .insertInto("users")
    .values({
      email: `u${crypto.randomBytes(5).toString("hex")}@example.com`,
      first_name: "Test",
      last_name: "User",
      company: "Co",
      phone_number: "",
      password_hash: "x",
      role: "NormalUser",
      status: "Active",
      email_confirmed: true,
    } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function createContainer(handle: DbHandle, userId: string, name = "c"): Promise<number> {
  const row = await handle.db
    .insertInto("lists")
    .values({ kind: "container", user_id: userId, name, description: "" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function adminListIds(handle: DbHandle): Promise<{ litigation: number; dnc: number }> {
  const rows = await handle.db.selectFrom("lists").select(["id", "kind"]).where("kind", "in", ["litigation", "dnc"]).execute();
  return {
    litigation: rows.find((r) => r.kind === "litigation")!.id,
    dnc: rows.find((r) => r.kind === "dnc")!.id,
  };
}

export const REDIS_URL = process.env.REDIS_URL;
/** Redis tests run when REDIS_URL is set; under CI they must (global setup refuses CI without it). */
export const storeKinds: ("embedded" | "redis")[] = REDIS_URL ? ["embedded", "redis"] : ["embedded"];

export function uniquePrefix(): string {
  return `test:${process.pid}:${crypto.randomBytes(4).toString("hex")}:`;
}

export async function startService(
  handle: DbHandle,
  kind: "embedded" | "redis",
  extra: Partial<InProcessOptions> = {},
): Promise<InProcessScrubService> {
  return createInProcessScrubService({
    handle,
    dataDir: extra.dataDir ?? tmpDir("data"),
    redisUrl: kind === "redis" ? REDIS_URL : undefined,
    redisPrefix: kind === "redis" ? uniquePrefix() : undefined,
    threads: 2,
    listWaitMs: 0,
    progressMs: 50,
    ...extra,
  });
}

/** Deletes the Redis keys of a test service. */
export async function cleanupService(s: InProcessScrubService): Promise<void> {
  const store = s.store as { clearAll?: () => Promise<void> };
  await s.close().catch(() => {});
  if (store.clearAll) {
    const { RedisListStore } = await import("../lists/redis-store");
    const fresh = new RedisListStore({ url: REDIS_URL!, prefix: (s.store as unknown as { prefix: string }).prefix });
    await fresh.clearAll();
    await fresh.close();
  }
}
