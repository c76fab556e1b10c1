import crypto from "node:crypto";
import { DefaultQueryExecutor, type CompiledQuery } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useAppTestDb } from "../setup/db";
import { makeRequest, testContext } from "../setup/request";
import { action as forgotAction } from "~/routes/forgot-password";
import { settleAfterResponse } from "~/utils/after-response.server";
import { listOutbox } from "~/utils/email.server";

/*
 * Forgot-password timing (issue #13 item 9, docs/decisions/118): the work done before the answer is the
 * same for a real and an unknown address: the same SQL statements in the same order and no token hashing
 * or random bytes on either path. What differs (account lookup, link, mail) runs only after the action has
 * returned. Not a wall-clock test: the decision record has the measurement.
 */
const { handle } = useAppTestDb();
let ip = 0;

afterEach(() => vi.restoreAllMocks());

/** Runs the action; returns the SQL it ran and the crypto calls it made before answering. */
async function answerWork(email: string) {
  await settleAfterResponse(); // nothing of an earlier call may run inside this one's window
  const exec = vi.spyOn(DefaultQueryExecutor.prototype, "executeQuery");
  const hashes = vi.spyOn(crypto, "createHash");
  const randoms = vi.spyOn(crypto, "randomBytes");
  const answer = (await forgotAction({
    request: makeRequest("/forgot-password", { form: { email } }),
    context: { ...testContext, clientIp: `10.9.0.${++ip}` },
    params: {},
  })) as unknown as {
    data: unknown;
    init: { status?: number } | null;
  };
  // Read before yielding: work queued by afterResponse cannot have started yet.
  const work = { statements: exec.mock.calls.map(([q]) => (q as CompiledQuery).sql), hashes: hashes.mock.calls.length, randoms: randoms.mock.calls.length };
  vi.restoreAllMocks();
  return { answer, work };
}

describe("forgot password: known and unknown addresses cost the same before the answer", () => {
  it("same statements, no hashing, same answer; the mail is written only after answering", async () => {
    await handle()
      .db.insertInto("users")
      .values({
        email: "real@example.com",
        first_name: "R",
        last_name: "L",
        company: "C",
        phone_number: "",
        password_hash: null,
        role: "NormalUser",
        status: "Active",
        email_confirmed: true,
      })
      .execute();
    const known = await answerWork("real@example.com");
    const unknown = await answerWork("nobody@example.com");
    expect(known.work.statements.length).toBeGreaterThan(0);
    expect(known.work.statements).toEqual(unknown.work.statements);
    expect(known.work.statements.join("\n")).not.toMatch(/from "users"|auth_tokens|email_outbox/);
    expect(known.work).toMatchObject({ hashes: 0, randoms: 0 });
    expect(unknown.work).toMatchObject({ hashes: 0, randoms: 0 });
    expect(known.answer.data).toEqual({ sent: true, email: "real@example.com", result: undefined });
    expect(unknown.answer.data).toEqual({ sent: true, email: "nobody@example.com", result: undefined });
    expect(known.answer.init?.status ?? 200).toBe(unknown.answer.init?.status ?? 200);
    await settleAfterResponse();
    expect(await listOutbox(handle().db, { to: "real@example.com" })).toHaveLength(1);
    expect(await listOutbox(handle().db, { to: "nobody@example.com" })).toHaveLength(0);
  });
});
