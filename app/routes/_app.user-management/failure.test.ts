import { describe, expect, it, vi } from "vitest";
import { useAppTestDb } from "../../../tests/setup/db";
import { makeRequest, testContext } from "../../../tests/setup/request";
import { startUserSession } from "~/accounts/auth.server";
import { getSession } from "~/utils/session.server";

// The plan catalogue fails: the action answers with the spec's error toast, not a crash page.
vi.mock("~/models/user-management-plans.server", () => ({
  planCatalogue: async () => {
    throw new Error("catalogue unavailable");
  },
  planLookup: () => ({
    activePlanNames: async () => new Map(),
    activePlanIds: async () => new Map(),
    filter: () => null,
    grant: async () => {},
  }),
}));

const { action } = await import("./route");
const { handle } = useAppTestDb();

describe("User Management when something unexpected fails", () => {
  it("flashes Failed to send invitation and logs the error", async () => {
    const { id } = await handle()
      .db.insertInto("users")
      .values({
        email: "boss@example.com",
        first_name: "B",
        last_name: "A",
        company: "",
        phone_number: "",
        password_hash: "x",
        role: "Admin",
        status: "Active",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const cookie = (await startUserSession(makeRequest("/login"), id)).split(";")[0];
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = (await action({
      request: makeRequest("/user-management?dialog=create", {
        cookie,
        form: { intent: "create", firstName: "N", lastName: "U", email: "n@example.com", role: "NormalUser", plan: "none", status: "Active" },
      }),
      params: {},
      context: testContext,
    })) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/user-management");
    const toast = (await getSession(makeRequest("/", { cookie }))).get("toast");
    expect(toast).toEqual({ kind: "error", title: "Failed to send invitation", description: "Something went wrong. Please try again." });
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
    expect(await handle().db.selectFrom("users").select("id").where("email", "=", "n@example.com").executeTakeFirst()).toBeUndefined();
  });
});
