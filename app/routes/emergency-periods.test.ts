import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { makeRequest } from "../../tests/setup/request";
import { callRoute, createSignedInUser, statusOf, type RouteFn as Fn } from "../../tests/setup/routes";
import type { RoleName } from "db/schema";
import { action, loader } from "./_app.dnc.emergency";
import { loader as rulesLoader } from "./rules/route";
import { listEmergencyPeriods } from "~/models/emergency-period.server";

/*
 * The admin screen of emergency no-call periods (decision 181) through its loader and action, as a browser without
 * JavaScript posts it: admins only (loader and action), a period added and listed, refusals with the engine's
 * words per field (the typed values kept), a remove, and the public /rules page listing the periods in force and
 * upcoming with their source.
 */
const { handle } = useAppTestDb();
const db = () => handle().db;
const SOURCE = "https://gov.louisiana.gov/index.cfm/newsroom/detail/5";

let seq = 0;
async function signedIn(role: RoleName) {
  seq++;
  return createSignedInUser(db(), { email: `e${seq}@emergency.test`, role, firstName: "Em", lastName: `N${seq}`, company: "Acme" });
}
const get = (cookie: string) => callRoute(loader as Fn, makeRequest("/dnc/emergency", { cookie }));
const post = (cookie: string, form: Record<string, string>) => callRoute(action as Fn, makeRequest("/dnc/emergency", { cookie, form }));
const valid = { intent: "add", states: "LA", areaCodes: "504, 985", from: "2099-09-01", to: "2099-09-10", authority: "Governor of Louisiana", source: SOURCE };

describe("/dnc/emergency", () => {
  it("is for admins only: the loader and the action", async () => {
    const user = await signedIn("NormalUser");
    expect(statusOf(await get(user.cookie))).toBe(403);
    expect(statusOf(await post(user.cookie, valid))).toBe(403);
    expect(await listEmergencyPeriods(db())).toEqual([]);
    const anonymous = await callRoute(loader as Fn, makeRequest("/dnc/emergency"));
    expect(statusOf(anonymous)).toBe(302);
  });

  it("adds a period (a plain form post), lists it, refuses bad input per field, removes it; /rules lists periods in force and upcoming", async () => {
    const admin = await signedIn("Admin");
    const added = (await post(admin.cookie, valid)) as Response;
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe("/dnc/emergency");
    const page = (await get(admin.cookie)) as {
      periods: { id: number; states: string[]; areaCodes: number[] | null; firstDay: string; lastDay: string; authority: string; sourceUrl: string }[];
    };
    expect(page.periods).toHaveLength(1);
    expect(page.periods[0]).toMatchObject({
      states: ["LA"],
      areaCodes: [504, 985],
      firstDay: "2099-09-01",
      lastDay: "2099-09-10",
      authority: "Governor of Louisiana",
      sourceUrl: SOURCE,
    });
    const [stored] = await listEmergencyPeriods(db());
    expect(stored.createdBy).toBe(admin.id);

    const refused = (await post(admin.cookie, { ...valid, areaCodes: "504, 318, 212", from: "2099-09-11", source: "ftp://nope" })) as {
      data: unknown;
      init: { status: number };
    };
    expect(statusOf(refused)).toBe(400);
    expect(refused.data).toEqual({
      errors: {
        areaCodes: ["Area code 212 (NY) not in LA."],
        to: ["The last day (2099-09-10) is before the first day (2099-09-11)."],
        source: ["The source must be a web address starting with http:// or https://."],
      },
      values: { states: "LA", areaCodes: "504, 318, 212", from: "2099-09-11", to: "2099-09-10", authority: "Governor of Louisiana", source: "ftp://nope" },
    });
    expect(await listEmergencyPeriods(db())).toHaveLength(1);

    // a period over long ago is not on /rules; one in force and one upcoming are, with their source
    await post(admin.cookie, { ...valid, states: "NY", areaCodes: "", from: "2001-01-01", to: "2001-01-02", source: "https://www.governor.ny.gov/old" });
    const today = new Date().toISOString().slice(0, 10);
    await post(admin.cookie, { ...valid, states: "NY", areaCodes: "", from: "2001-01-01", to: today, source: "https://www.governor.ny.gov/now" });
    const rules = (await callRoute(rulesLoader as Fn, makeRequest("/rules"))) as {
      emergencyPeriods: { states: string[]; sourceUrl: string; status: string }[];
    };
    expect(rules.emergencyPeriods.map((p) => [p.states.join(","), p.sourceUrl, p.status])).toEqual([
      ["NY", "https://www.governor.ny.gov/now", "in force"],
      ["LA", SOURCE, "upcoming"],
    ]);

    const removed = (await post(admin.cookie, { intent: "remove", id: String(stored.id) })) as Response;
    expect(removed.status).toBe(302);
    expect((await listEmergencyPeriods(db())).map((p) => p.id)).not.toContain(stored.id);
    expect(await listEmergencyPeriods(db(), { includeRemoved: true })).toHaveLength(3);
    expect(statusOf(await post(admin.cookie, { intent: "remove", id: String(stored.id) }))).toBe(404);
  });
});
