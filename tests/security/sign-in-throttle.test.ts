import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../setup/db";
import { LOGIN_MESSAGES, verifyLogin } from "~/accounts/sign-in.server";
import { LoginError } from "~/utils/login-error.server";
import { hashPassword } from "~/utils/password.server";
import { clearLoginFailures, THROTTLE, THROTTLED_MESSAGE } from "~/utils/throttle.server";

/*
 * Sign-in throttling (issue #13 item 6, docs/decisions/116). Runs on PostgreSQL when DATABASE_URL is set
 * (CI), where parallel attempts really run side by side on separate connections.
 */
const { handle } = useAppTestDb();
const db = () => handle().db;

async function createUser(email: string, password: string) {
  await db()
    .insertInto("users")
    .values({
      email,
      first_name: "A",
      last_name: "B",
      company: "C",
      phone_number: "",
      password_hash: await hashPassword(password),
      role: "NormalUser",
      status: "Active",
      email_confirmed: true,
    })
    .execute();
}

type Outcome = "in" | "invalid" | "throttled";
async function attempt(email: string, password: string, ip: string): Promise<Outcome> {
  try {
    await verifyLogin(email, password, ip);
    return "in";
  } catch (e) {
    if (!(e instanceof LoginError)) throw e;
    if (e.message === THROTTLED_MESSAGE) return "throttled";
    expect(e.message).toBe(LOGIN_MESSAGES.invalid);
    return "invalid";
  }
}
const tally = (outcomes: Outcome[]) => ({
  in: outcomes.filter((o) => o === "in").length,
  invalid: outcomes.filter((o) => o === "invalid").length,
  throttled: outcomes.filter((o) => o === "throttled").length,
});

describe("sign-in throttling", () => {
  it("60 parallel guesses with the right password in the middle: no more than the budget has its password checked", async () => {
    await createUser("race@example.com", "right-password");
    const passwords = Array.from({ length: 60 }, (_, i) => (i === 30 ? "right-password" : `wrong-${i}`));
    const outcomes = await Promise.all(passwords.map((p) => attempt("race@example.com", p, "203.0.113.5")));
    const t = tally(outcomes);
    expect(t.invalid + t.in).toBeLessThanOrEqual(THROTTLE.perAccountIp);
    expect(t.throttled).toBeGreaterThanOrEqual(60 - THROTTLE.perAccountIp);
    // The right password got in only if it was one of the attempts inside the budget.
    if (outcomes[30] === "in") expect(t.invalid).toBeLessThan(THROTTLE.perAccountIp);
    // Once the budget is spent the right password is refused too from that address.
    expect(await attempt("race@example.com", "right-password", "203.0.113.5")).toBe("throttled");
  });

  it("guesses from one address never lock the owner out from another", async () => {
    await createUser("owner@example.com", "right-password");
    const attacker = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt("owner@example.com", `wrong-${i}`, "198.51.100.66")));
    expect(tally(attacker).invalid).toBeLessThanOrEqual(THROTTLE.perAccountIp);
    expect(await attempt("owner@example.com", "right-password", "192.0.2.10")).toBe("in");
  });

  it("guesses spread over many addresses spend the account's budget, but not for an address the owner signed in from", async () => {
    await createUser("spread@example.com", "right-password");
    expect(await attempt("spread@example.com", "right-password", "192.0.2.20")).toBe("in");
    const ips = Array.from({ length: THROTTLE.perAccount + 10 }, (_, i) => `10.44.${Math.floor(i / 250)}.${i % 250}`);
    const outcomes = await Promise.all(ips.map((ip) => attempt("spread@example.com", "wrong", ip)));
    expect(tally(outcomes).invalid).toBeLessThanOrEqual(THROTTLE.perAccount);
    expect(await attempt("spread@example.com", "right-password", "10.99.0.1")).toBe("throttled");
    expect(await attempt("spread@example.com", "right-password", "192.0.2.20")).toBe("in");
    // The e-mailed reset link proves the owner: it clears the account's counters everywhere.
    await clearLoginFailures(db(), "spread@example.com");
    expect(await attempt("spread@example.com", "right-password", "10.99.0.1")).toBe("in");
  });

  it("one address spraying many accounts is slowed on every account", async () => {
    await createUser("sprayed@example.com", "right-password");
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(`nobody${i}@example.com`, "wrong", "198.51.100.99")));
    expect(tally(outcomes).invalid).toBeLessThanOrEqual(THROTTLE.perIp);
    expect(await attempt("sprayed@example.com", "right-password", "198.51.100.99")).toBe("throttled");
  });

  it("successful sign-ins spend no budget: an office behind one address signs in all day", { timeout: 120_000 }, async () => {
    const office = "192.0.2.77";
    const people = Array.from({ length: 4 }, (_, i) => `office${i}@example.com`);
    for (const email of people) await createUser(email, "right-password");
    for (let round = 0; round < THROTTLE.perIp; round++) {
      for (const email of people) expect(await attempt(email, "right-password", office)).toBe("in");
    }
    // The address's budget is still whole for failures: a sprayer from it is slowed after perIp guesses.
    const guesses = await Promise.all(Array.from({ length: THROTTLE.perIp + 10 }, (_, i) => attempt(`guess${i}@example.com`, "wrong", office)));
    expect(tally(guesses).invalid).toBeLessThanOrEqual(THROTTLE.perIp);
    expect(tally(guesses).throttled).toBeGreaterThanOrEqual(10);
  });
});
