/**
 * The keys that sign certificates, kept in certificate_keys: the newest key that is not retired signs; a
 * rotation retires it (its private half is erased, its public half stays published) so every certificate
 * it signed keeps verifying. CERT_SIGNING_KEY (PKCS#8 PEM or its base64 body) overrides the database key;
 * only its public half is stored, so it is published with the others.
 */
import { engineConfig, type EngineConfig } from "../config";
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { newSigningKey, signingKeyFromPem, type SigningKey } from "./sign";

export interface PublishedKey {
  keyId: string;
  algorithm: "Ed25519";
  publicKey: string;
  status: "current" | "retired";
  createdAt: string;
  retiredAt: string | null;
}

async function publish(db: Kysely<Database>, key: SigningKey, pem: string | null): Promise<void> {
  await db
    .insertInto("certificate_keys")
    .values({ id: key.id, public_key: key.publicKey, private_key: pem })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}

/** The key that signs now (created on first use when there is none and no CERT_SIGNING_KEY). */
export async function currentSigningKey(db: Kysely<Database>, config: Pick<EngineConfig, "CERT_SIGNING_KEY"> = engineConfig()): Promise<SigningKey> {
  const fromEnv = config.CERT_SIGNING_KEY?.trim();
  if (fromEnv) {
    const key = signingKeyFromPem(fromEnv);
    await publish(db, key, null);
    return key;
  }
  const row = await db
    .selectFrom("certificate_keys")
    .select(["private_key"])
    .where("retired_at", "is", null)
    .where("private_key", "is not", null)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .executeTakeFirst();
  if (row?.private_key) return signingKeyFromPem(row.private_key);
  const { key, pem } = newSigningKey();
  await publish(db, key, pem);
  return key;
}

/**
 * Retires every database signing key (erasing its private half) and makes a new one. Certificates signed
 * before stay verifiable: their public keys stay published as retired.
 */
export async function rotateSigningKey(db: Kysely<Database>, now: Date = new Date()): Promise<{ key: SigningKey; retired: string[] }> {
  const { key, pem } = newSigningKey();
  const retired = await db.transaction().execute(async (trx) => {
    const old = await trx.updateTable("certificate_keys").set({ retired_at: now, private_key: null }).where("retired_at", "is", null).returning("id").execute();
    await trx.insertInto("certificate_keys").values({ id: key.id, public_key: key.publicKey, private_key: pem, created_at: now }).execute();
    return old.map((r) => r.id);
  });
  return { key, retired };
}

/** Every key that ever signed a certificate, current first. */
export async function publishedKeys(db: Kysely<Database>): Promise<PublishedKey[]> {
  const rows = await db
    .selectFrom("certificate_keys")
    .select(["id", "public_key", "created_at", "retired_at"])
    .orderBy("retired_at", (ob) => ob.desc().nullsFirst())
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((r) => ({
    keyId: r.id,
    algorithm: "Ed25519" as const,
    publicKey: r.public_key,
    status: r.retired_at ? ("retired" as const) : ("current" as const),
    createdAt: r.created_at.toISOString(),
    retiredAt: r.retired_at ? r.retired_at.toISOString() : null,
  }));
}

export function keyMap(keys: readonly PublishedKey[]): Map<string, string> {
  return new Map(keys.map((k) => [k.keyId, k.publicKey]));
}
