import { describe, expect, it, vi } from "vitest";
import { makeRequest, testContext } from "../../tests/setup/request";

// The database fails: the page says so with the spec's texts instead of a crash page.
vi.mock("~/models/invitation.server", () => ({
  findInvitation: async () => {
    throw new Error("database unavailable");
  },
  completeInvitation: async () => {
    throw new Error("database unavailable");
  },
}));
vi.mock("~/utils/db.server", () => ({ getDb: async () => ({}) }));

const { action, loader } = await import("./auth.invitation.$");
const splat = `${"A".repeat(43)}/00000000-0000-4000-8000-000000000000`;

describe("invitation setup when the database fails", () => {
  it("shows Failed to validate invitation link / Failed to setup account. and logs the error", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const page = (await loader({ request: makeRequest(`/auth/invitation/${splat}`), params: { "*": splat }, context: testContext })) as unknown as {
      data: { state: string };
      init: { status: number };
    };
    expect(page.data.state).toBe("error");
    expect(page.init.status).toBe(500);
    const submit = (await action({
      request: makeRequest(`/auth/invitation/${splat}`, { form: { password: "a good password", confirmPassword: "a good password" } }),
      params: { "*": splat },
      context: testContext,
    })) as unknown as { data: { state: string; result: { error: Record<string, string[]> } }; init: { status: number } };
    expect(submit.init.status).toBe(500);
    expect(submit.data.result.error[""]).toEqual(["Failed to setup account."]);
    expect(logged).toHaveBeenCalledTimes(2);
    logged.mockRestore();
  });
});
