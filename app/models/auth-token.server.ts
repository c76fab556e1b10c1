import { sql, type Kysely } from "kysely";
import type { AuthTokenKind, Database } from "db/schema";
import { randomToken, sha256 } from "~/utils/crypto.server";
import { appUrl } from "~/utils/env.server";

/*
 * Single-use e-mail tokens: account confirmation (activation), password reset, invitation.
 * The link carries 32 random bytes (base64url); the table keeps only their SHA-256, so a leaked table gives
 * no working link. Issuing a token of a kind ends the user's older unused tokens of that kind.
 */

export type { AuthTokenKind };

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a link works: confirmation and invitation 7 days, reset 1 hour (DECISIONS.md). */
export const TOKEN_TTL_MS: Record<AuthTokenKind, number> = {
  activation: 7 * DAY_MS,
  invitation: 7 * DAY_MS,
  reset: 60 * 60 * 1000,
};

const LINK_SEGMENT: Record<AuthTokenKind, string> = {
  activation: "activation",
  reset: "resetpassword",
  invitation: "invitation",
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN = /^[A-Za-z0-9_-]{20,128}$/;

/** True when the route parameters have the shape of a real link (checked before any query: no 500s). */
export function looksLikeTokenLink(token: string | undefined, userId: string | undefined): boolean {
  return !!token && !!userId && TOKEN.test(token) && UUID.test(userId);
}

/** The path of a link: /auth/activation/{token}/{userId}, /auth/resetpassword/…, /auth/invitation/…. */
export function tokenPath(kind: AuthTokenKind, token: string, userId: string): string {
  return `/auth/${LINK_SEGMENT[kind]}/${encodeURIComponent(token)}/${encodeURIComponent(userId)}`;
}

/** The absolute link for an e-mail, on the configured origin (never the request's Host). */
export function tokenUrl(kind: AuthTokenKind, token: string, userId: string): string {
  return `${appUrl()}${tokenPath(kind, token, userId)}`;
}

export interface IssuedToken {
  /** The raw token: put it in the link, never store it. */
  token: string;
  userId: string;
  kind: AuthTokenKind;
  expiresAt: Date;
}

/** Issues a new token, ending the user's older unused tokens of the same kind. Pass a transaction if you have one. */
export async function issueToken(
  db: Kysely<Database>,
  { userId, kind, now = new Date() }: { userId: string; kind: AuthTokenKind; now?: Date },
): Promise<IssuedToken> {
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + TOKEN_TTL_MS[kind]);
  const run = async (trx: Kysely<Database>) => {
    // Lock the user row: two simultaneous issues for one user are serialized, so only the newest stays valid.
    await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().execute();
    await trx.updateTable("auth_tokens").set({ used_at: now }).where("user_id", "=", userId).where("kind", "=", kind).where("used_at", "is", null).execute();
    await trx
      .insertInto("auth_tokens")
      .values({ user_id: userId, kind, token_hash: sha256(token), expires_at: expiresAt })
      .execute();
  };
  if (db.isTransaction) await run(db);
  else await db.transaction().execute(run);
  return { token, userId, kind, expiresAt };
}

export interface ValidToken {
  userId: string;
  kind: AuthTokenKind;
  expiresAt: Date;
}

/**
 * Checks a link without using it up (for a page's load state). Null when the token is unknown, of another
 * kind, for another user, used, superseded or expired.
 */
export async function validateToken(
  db: Kysely<Database>,
  { token, userId, kind }: { token: string | undefined; userId: string | undefined; kind: AuthTokenKind },
): Promise<ValidToken | null> {
  if (!looksLikeTokenLink(token, userId)) return null;
  const row = await db
    .selectFrom("auth_tokens")
    .select(["user_id", "kind", "expires_at"])
    .where("token_hash", "=", sha256(token!))
    .where("kind", "=", kind)
    .where("user_id", "=", userId!)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .executeTakeFirst();
  return row ? { userId: row.user_id, kind: row.kind, expiresAt: row.expires_at } : null;
}

/**
 * Uses a token up, atomically: of two concurrent requests with the same link exactly one gets a result.
 * Null when it is not valid (see validateToken). Run it in the same transaction as the change it allows,
 * so a failed change leaves the link usable.
 */
export async function consumeToken(
  db: Kysely<Database>,
  { token, userId, kind }: { token: string | undefined; userId: string | undefined; kind: AuthTokenKind },
): Promise<ValidToken | null> {
  if (!looksLikeTokenLink(token, userId)) return null;
  const row = await db
    .updateTable("auth_tokens")
    .set({ used_at: sql<Date>`now()` })
    .where("token_hash", "=", sha256(token!))
    .where("kind", "=", kind)
    .where("user_id", "=", userId!)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .returning(["user_id", "kind", "expires_at"])
    .executeTakeFirst();
  return row ? { userId: row.user_id, kind: row.kind, expiresAt: row.expires_at } : null;
}

/** Ends a user's unused tokens (all kinds, or one), e.g. when the account is blocked or deleted. */
export async function revokeTokens(db: Kysely<Database>, userId: string, kind?: AuthTokenKind): Promise<void> {
  let q = db
    .updateTable("auth_tokens")
    .set({ used_at: sql<Date>`now()` })
    .where("user_id", "=", userId)
    .where("used_at", "is", null);
  if (kind) q = q.where("kind", "=", kind);
  await q.execute();
}
