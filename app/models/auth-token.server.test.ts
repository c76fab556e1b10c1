import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { consumeToken, issueToken, looksLikeTokenLink, revokeTokens, TOKEN_TTL_MS, tokenPath, validateToken } from "./auth-token.server";
import { sha256 } from "~/utils/crypto.server";

const { handle } = useAppTestDb();

async function makeUser(email: string): Promise<string> {
  const row = await handle()
    .db.insertInto("users")
    .values({ email, first_name: "T", last_name: "U", company: "C", phone_number: "", password_hash: null, role: "NormalUser", status: "Draft" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

describe("auth tokens", () => {
  it("issues 32 random bytes, stores only the hash, with the kind's lifetime", async () => {
    const db = handle().db;
    const userId = await makeUser("t1@example.com");
    const before = Date.now();
    const issued = await issueToken(db, { userId, kind: "reset" });
    expect(Buffer.from(issued.token, "base64url")).toHaveLength(32);
    const rows = await db.selectFrom("auth_tokens").selectAll().where("user_id", "=", userId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(sha256(issued.token));
    expect(rows[0].token_hash).not.toContain(issued.token);
    const ttl = rows[0].expires_at.getTime() - before;
    expect(ttl).toBeGreaterThan(TOKEN_TTL_MS.reset - 60_000);
    expect(ttl).toBeLessThanOrEqual(TOKEN_TTL_MS.reset + 60_000);
    expect(TOKEN_TTL_MS.reset).toBe(3_600_000);
    expect(TOKEN_TTL_MS.activation).toBe(7 * 86_400_000);
    expect(TOKEN_TTL_MS.invitation).toBe(7 * 86_400_000);
  });

  it("validates without consuming, then consumes exactly once", async () => {
    const db = handle().db;
    const userId = await makeUser("t2@example.com");
    const { token } = await issueToken(db, { userId, kind: "activation" });
    expect(await validateToken(db, { token, userId, kind: "activation" })).toMatchObject({ userId, kind: "activation" });
    expect(await validateToken(db, { token, userId, kind: "activation" })).not.toBeNull();
    expect(await consumeToken(db, { token, userId, kind: "activation" })).toMatchObject({ userId });
    expect(await consumeToken(db, { token, userId, kind: "activation" })).toBeNull();
    expect(await validateToken(db, { token, userId, kind: "activation" })).toBeNull();
  });

  it("gives one winner when the same link is used twice at once", async () => {
    const db = handle().db;
    const userId = await makeUser("t3@example.com");
    const { token } = await issueToken(db, { userId, kind: "reset" });
    const results = await Promise.all([1, 2, 3].map(() => consumeToken(db, { token, userId, kind: "reset" })));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("refuses another user's id, another kind, expired and garbage links", async () => {
    const db = handle().db;
    const userId = await makeUser("t4@example.com");
    const other = await makeUser("t5@example.com");
    const { token } = await issueToken(db, { userId, kind: "reset" });
    expect(await consumeToken(db, { token, userId: other, kind: "reset" })).toBeNull();
    expect(await consumeToken(db, { token, userId, kind: "activation" })).toBeNull();
    expect(await consumeToken(db, { token: "not-a-token", userId, kind: "reset" })).toBeNull();
    expect(await consumeToken(db, { token, userId: "not-a-uuid", kind: "reset" })).toBeNull();
    expect(await validateToken(db, { token: undefined, userId, kind: "reset" })).toBeNull();
    // Still valid for the right user after the refusals.
    expect(await validateToken(db, { token, userId, kind: "reset" })).not.toBeNull();

    await db
      .updateTable("auth_tokens")
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where("token_hash", "=", sha256(token))
      .execute();
    expect(await validateToken(db, { token, userId, kind: "reset" })).toBeNull();
    expect(await consumeToken(db, { token, userId, kind: "reset" })).toBeNull();
  });

  it("a new token of a kind ends the older ones of that kind only", async () => {
    const db = handle().db;
    const userId = await makeUser("t6@example.com");
    const first = await issueToken(db, { userId, kind: "reset" });
    const activation = await issueToken(db, { userId, kind: "activation" });
    const second = await issueToken(db, { userId, kind: "reset" });
    expect(await validateToken(db, { token: first.token, userId, kind: "reset" })).toBeNull();
    expect(await validateToken(db, { token: second.token, userId, kind: "reset" })).not.toBeNull();
    expect(await validateToken(db, { token: activation.token, userId, kind: "activation" })).not.toBeNull();
    await revokeTokens(db, userId);
    expect(await validateToken(db, { token: second.token, userId, kind: "reset" })).toBeNull();
    expect(await validateToken(db, { token: activation.token, userId, kind: "activation" })).toBeNull();
  });

  it("of simultaneous issues for one user only one link stays valid", async () => {
    const db = handle().db;
    const userId = await makeUser("t7@example.com");
    const issued = await Promise.all([1, 2, 3, 4].map(() => issueToken(db, { userId, kind: "reset" })));
    const valid = await Promise.all(issued.map((t) => validateToken(db, { token: t.token, userId, kind: "reset" })));
    expect(valid.filter(Boolean)).toHaveLength(1);
  });

  it("builds the links the routes expect", () => {
    const id = "0b6f3c5e-2d2c-4b59-9d8e-0f4f7c1a2b3c";
    expect(tokenPath("activation", "abc", id)).toBe(`/auth/activation/abc/${id}`);
    expect(tokenPath("reset", "abc", id)).toBe(`/auth/resetpassword/abc/${id}`);
    expect(tokenPath("invitation", "abc", id)).toBe(`/auth/invitation/abc/${id}`);
    expect(looksLikeTokenLink("x".repeat(43), id)).toBe(true);
    expect(looksLikeTokenLink("x".repeat(43), "1")).toBe(false);
    expect(looksLikeTokenLink("x/../y".repeat(8), id)).toBe(false);
  });
});
