import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { randomToken } from "./crypto.server";
import { env } from "./env.server";

/*
 * Symmetric encryption for secrets the server must be able to use again (webhook signing secrets).
 * AES-256-GCM; the key is WEBHOOK_ENCRYPTION_KEY (any string, hashed to 32 bytes) when set, otherwise a
 * random key kept in app_secrets (embedded mode). See docs/decisions/052-webhooks.md.
 */

async function encryptionKey(db: Kysely<Database>): Promise<Buffer> {
  const configured = env().WEBHOOK_ENCRYPTION_KEY;
  if (configured) return crypto.createHash("sha256").update(configured).digest();
  await db
    .insertInto("app_secrets")
    .values({ name: "webhook_encryption_key", value: randomToken() })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db.selectFrom("app_secrets").select("value").where("name", "=", "webhook_encryption_key").executeTakeFirstOrThrow();
  return crypto.createHash("sha256").update(row.value).digest();
}

export async function sealSecret(db: Kysely<Database>, plaintext: string): Promise<string> {
  const key = await encryptionKey(db);
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [iv, tag, data].map((b) => b.toString("base64url")).join(".");
}

export async function openSecret(db: Kysely<Database>, sealed: string): Promise<string> {
  const key = await encryptionKey(db);
  const [iv, tag, data] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
}
