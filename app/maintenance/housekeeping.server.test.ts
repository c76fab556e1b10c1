import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { sweepExpired, SPENT_TOKEN_TTL_MS, THROTTLE_ROW_TTL_MS } from "./housekeeping.server";

const { handle } = useAppTestDb();
const now = new Date("2026-11-20T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const MIN = 60_000;

describe("housekeeping sweep", () => {
  it("deletes expired sessions, dead throttle rows and long-spent links, and keeps everything still in use", async () => {
    const db = handle().db;
    const { id: userId } = await db
      .insertInto("users")
      .values({ email: "sweep@example.com", role: "NormalUser", status: "Active", first_name: "", last_name: "", company: "", phone_number: "" })
      .returning("id")
      .executeTakeFirstOrThrow();

    await db
      .insertInto("sessions")
      .values([
        { id_hash: "expired", user_id: userId, data: "{}", expires_at: ago(MIN) },
        { id_hash: "live", user_id: userId, data: "{}", expires_at: new Date(now.getTime() + MIN) },
      ])
      .execute();
    await db
      .insertInto("login_throttle")
      .values([
        { key: "old", failures: 3, window_start: ago(THROTTLE_ROW_TTL_MS + MIN), locked_until: null },
        { key: "old-but-locked", failures: 9, window_start: ago(THROTTLE_ROW_TTL_MS + MIN), locked_until: new Date(now.getTime() + MIN) },
        { key: "recent", failures: 1, window_start: ago(10 * MIN), locked_until: null },
      ])
      .execute();
    const token = (hash: string, expires: Date, used: Date | null) => ({
      user_id: userId,
      kind: "reset" as const,
      token_hash: hash,
      expires_at: expires,
      used_at: used,
    });
    await db
      .insertInto("auth_tokens")
      .values([
        token("spent-long-ago", ago(SPENT_TOKEN_TTL_MS), ago(SPENT_TOKEN_TTL_MS + MIN)),
        token("expired-long-ago", ago(SPENT_TOKEN_TTL_MS + MIN), null),
        token("spent-yesterday", ago(MIN), ago(24 * 60 * MIN)),
        token("valid", new Date(now.getTime() + 60 * MIN), null),
      ])
      .execute();

    expect(await sweepExpired(db, now)).toEqual({ sessions: 1, throttleRows: 1, tokens: 2 });

    expect((await db.selectFrom("sessions").select("id_hash").execute()).map((r) => r.id_hash)).toEqual(["live"]);
    expect((await db.selectFrom("login_throttle").select("key").orderBy("key").execute()).map((r) => r.key)).toEqual([
      "old-but-locked",
      "recent",
    ]);
    expect((await db.selectFrom("auth_tokens").select("token_hash").orderBy("token_hash").execute()).map((r) => r.token_hash)).toEqual([
      "spent-yesterday",
      "valid",
    ]);
    // A second run finds nothing more.
    expect(await sweepExpired(db, now)).toEqual({ sessions: 0, throttleRows: 0, tokens: 0 });
  });
});
