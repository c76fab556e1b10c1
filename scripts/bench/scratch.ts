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

async function adminQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export async function scratch(mode: string, dir: string, label: string): Promise<Scratch> {
  const tag = crypto.randomBytes(4).toString("hex");
  const dataDir = path.join(dir, `data-${label}-${mode}-${tag}`);
  const removeDir = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (mode === "embedded") {
    return { env: { SCRUB_SERVICE_URL: "", DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "" }, prefix: null, cleanup: removeDir };
  }
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) throw new Error("services mode needs DATABASE_URL and REDIS_URL");
  const name = `${label.replace(/\W/g, "_")}_${tag}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  const prefix = `${label}:${tag}:`;
  return {
    env: { SCRUB_SERVICE_URL: "", DATA_DIR: dataDir, DATABASE_URL: url.toString(), REDIS_URL: process.env.REDIS_URL, SCRUB_REDIS_PREFIX: prefix },
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
      await adminQuery(`drop database if exists ${name} with (force)`);
      await removeDir();
    },
  };
}
