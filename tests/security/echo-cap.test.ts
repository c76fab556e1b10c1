import { describe, expect, it } from "vitest";
import { action as loginAction } from "~/routes/login";
import { action as forgotAction } from "~/routes/forgot-password";
import { MAX_ECHOED_CHARS } from "~/utils/echo-cap";
import { makeRequest, testContext } from "../setup/request";

/*
 * Echoed form values (issue #13 item 2): a failed submission writes back at most MAX_ECHOED_CHARS of each
 * value, so a 64 KiB body (the most a form route accepts, tests/security/server-security.test.ts) cannot
 * come back as a 64 KiB page field. These failures are refused by validation before any database work.
 */
const big = "a".repeat(60 * 1024);

describe("echoed values are capped", () => {
  it("login and forgot-password write back no value longer than the cap", async () => {
    const login = (await loginAction({
      request: makeRequest("/login", { form: { email: big, password: "", redirectTo: `/${big}` } }),
      context: testContext,
      params: {},
    })) as unknown as { data: { initialValue: Record<string, string> } };
    const forgot = (await forgotAction({
      request: makeRequest("/forgot-password", { form: { email: big } }),
      context: testContext,
      params: {},
    })) as unknown as {
      data: { result: { initialValue: Record<string, string> } };
    };
    for (const values of [login.data.initialValue, forgot.data.result.initialValue]) {
      expect(Object.keys(values).length).toBeGreaterThan(0);
      for (const [k, v] of Object.entries(values)) expect(v.length, k).toBeLessThanOrEqual(MAX_ECHOED_CHARS);
    }
    expect(login.data.initialValue.email).toBe(big.slice(0, MAX_ECHOED_CHARS));
  });
});
