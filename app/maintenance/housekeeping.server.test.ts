import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { runHousekeeping, sweepExpired, SPENT_TOKEN_TTL_MS, THROTTLE_ROW_TTL_MS } from "./housekeeping.server";
import { recordCalls } from "scrub-service";
import { checkCallRecords } from "scrub-service/domain";

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
    expect((await db.selectFrom("login_throttle").select("key").orderBy("key").execute()).map((r) => r.key)).toEqual(["old-but-locked", "recent"]);
    expect((await db.selectFrom("auth_tokens").select("token_hash").orderBy("token_hash").execute()).map((r) => r.token_hash)).toEqual([
      "spent-yesterday",
      "valid",
    ]);
    // A second run finds nothing more.
    expect(await sweepExpired(db, now)).toEqual({ sessions: 0, throttleRows: 0, tokens: 0 });
  });

  it("drops call records older than five years (5 years + 1 day gone, 5 years - 1 day kept, decision 185)", async () => {
    const db = handle().db;
    const { id: userId } = await db
      .insertInto("users")
      .values({ email: "calls-sweep@example.com", role: "NormalUser", status: "Active", first_name: "", last_name: "", company: "", phone_number: "" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const DAY = 86_400_000;
    const fiveYearsAgo = new Date("2021-11-20T12:00:00Z").getTime();
    for (const at of [fiveYearsAgo - DAY, fiveYearsAgo + DAY, fiveYearsAgo - 60 * DAY]) {
      // each written while it was recent
      const r = checkCallRecords([{ number: "2125552345", at: new Date(at).toISOString(), outcome: "attempted" }], at + 3600_000);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      await recordCalls(db, userId, r.records);
    }
    await runHousekeeping(db, now);
    const left = await db.selectFrom("call_records").select("at").where("user_id", "=", userId).execute();
    expect(left.map((r) => new Date(r.at).toISOString())).toEqual(["2021-11-21T12:00:00.000Z"]);
  });

  it("drops opt-outs received more than five years ago and keeps the rest (decision 195)", async () => {
    const db = handle().db;
    const { id: userId } = await db
      .insertInto("users")
      .values({ email: "opt-outs-sweep@example.com", role: "NormalUser", status: "Active", first_name: "", last_name: "", company: "", phone_number: "" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const DAY = 86_400_000;
    const fiveYearsAgo = new Date("2021-11-20T12:00:00Z").getTime();
    for (const at of [fiveYearsAgo - DAY, fiveYearsAgo + DAY]) {
      await db
        .insertInto("opt_outs")
        .values({
          user_id: userId,
          number: 2125552345,
          received_at: new Date(at),
          honoured_at: new Date(at),
          channel: "call",
          words: "Stop calling",
          source: "api",
        })
        .execute();
    }
    await runHousekeeping(db, now);
    const left = await db.selectFrom("opt_outs").select("received_at").where("user_id", "=", userId).execute();
    expect(left.map((r) => new Date(r.received_at).toISOString())).toEqual(["2021-11-21T12:00:00.000Z"]);
  });
});
