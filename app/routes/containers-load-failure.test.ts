import { describe, expect, it, vi } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { makeRequest, testContext } from "../../tests/setup/request";
import { createSignedInUser } from "../../tests/setup/routes";

// The database answers, but reading containers and DNC lists fails: the pages say so instead of crashing.
vi.mock("~/models/container.server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("~/models/container.server")>()),
  listContainers: async () => {
    throw new Error("simulated read failure");
  },
}));
vi.mock("~/models/dnc.server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("~/models/dnc.server")>()),
  listDncLists: async () => {
    throw new Error("simulated read failure");
  },
}));

const { loader: containersLoader } = await import("~/routes/_app.containers._index/route");
const { loader: dncLoader } = await import("~/routes/_app.dnc._index/route");
const { handle } = useAppTestDb();

async function cookieFor(role: "UnlimitedUser" | "Admin") {
  const { cookie } = await createSignedInUser(handle().db, { email: `${role}@failure.test`, role, firstName: "F", lastName: "L", company: "" });
  return cookie;
}

describe("load failures", () => {
  it("shows 'Failed to load containers from server.' and logs the cause", async () => {
    const logged = vi.fn();
    console.error = logged;
    const cookie = await cookieFor("UnlimitedUser");
    const r = (await containersLoader({ request: makeRequest("/containers", { cookie }), params: {}, context: testContext })) as {
      errors: string[];
      containers: unknown[];
    };
    expect(r.errors).toEqual(["Failed to load containers from server."]);
    expect(r.containers).toEqual([]);
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it("shows 'Failed to load DNC lists from server.'", async () => {
    const logged = vi.fn();
    console.error = logged;
    const cookie = await cookieFor("Admin");
    const r = (await dncLoader({ request: makeRequest("/dnc", { cookie }), params: {}, context: testContext })) as { loadError: string | null };
    expect(r.loadError).toBe("Failed to load DNC lists from server.");
    expect(logged).toHaveBeenCalledTimes(1);
  });
});
