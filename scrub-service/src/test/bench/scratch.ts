/**
 * A scratch place for one benchmark run of one mode: embedded = its own DATA_DIR (PGlite + the embedded index);
 * services = a fresh PostgreSQL database (from DATABASE_URL) and a unique Redis key prefix (REDIS_URL) beside its
 * own DATA_DIR. `env` is what the CLI runs with; `cleanup` drops the database, the Redis keys and the directory.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { Redis } from "ioredis";

export interface Scratch {
  env: Record<string, string>;
  /** The unique Redis key prefix (services mode). */
  prefix: string | null;
  cleanup(): Promise<void>;
}

async function adminQuery(sql: string, base = process.env.DATABASE_URL): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A fresh PostgreSQL database on the server of `base`: its URL, and `drop` for the end of the run. */
export async function scratchDatabase(label: string, base = process.env.DATABASE_URL!): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${label.replace(/\W/g, "_")}_${crypto.randomBytes(4).toString("hex")}`;
  await adminQuery(`create database ${name}`, base);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`drop database if exists ${name} with (force)`, base) };
}

export async function scratch(mode: string, dir: string, label: string): Promise<Scratch> {
  const tag = crypto.randomBytes(4).toString("hex");
  const dataDir = path.join(dir, `data-${label}-${mode}-${tag}`);
  const removeDir = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (mode === "embedded") {
    return { env: { SCRUB_SERVICE_URL: "", DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "" }, prefix: null, cleanup: removeDir };
  }
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) throw new Error("services mode needs DATABASE_URL and REDIS_URL");
  const db = await scratchDatabase(label);
  const prefix = `${label}:${tag}:`;
  return {
    env: { SCRUB_SERVICE_URL: "", DATA_DIR: dataDir, DATABASE_URL: db.url, REDIS_URL: process.env.REDIS_URL, SCRUB_REDIS_PREFIX: prefix },
    prefix,
    cleanup: async () => {
      const redis = new Redis(process.env.REDIS_URL!);
      let cursor = "0";
      do {
        const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 10000);
        cursor = next;
        if (keys.length) await redis.unlink(...keys);
      } while (cursor !== "0");
      redis.disconnect();
      await db.drop();
      await removeDir();
    },
  };
}
