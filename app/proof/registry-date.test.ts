import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { makeRequest } from "../../tests/setup/request";
import { callRoute, createSignedInUser } from "../../tests/setup/routes";
import { parseOptionalRegistryDate, parseRegistryDate } from "scrub-service/domain";

// Before anything reads the environment: uploads go to a fresh directory.
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "registry-date-test-"));

const { getScrubService } = await import("~/utils/scrub.server");
const { dncClock } = await import("~/models/dnc-clock.server");
const dnc = await import("~/routes/_app.dnc._index/route");

const { handle } = useAppTestDb();
const db = () => handle().db;
const DAY = 86_400_000;
const NOW = new Date("2026-11-23T15:00:00Z");

afterAll(async () => {
  await (await getScrubService()).close();
});

function multipart(cookie: string, fields: Record<string, string | File>): Request {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return new Request("http://localhost/dnc", { method: "POST", body: fd, headers: { Cookie: cookie } });
}
function bodyOf<T>(r: unknown): T {
  const d = r as { type?: string; data?: unknown };
  return (d?.type === "DataWithResponseInit" ? d.data : r) as T;
}
const errorsOf = (r: unknown) => bodyOf<{ result: { error?: Record<string, string[]> } }>(r).result.error ?? {};
const dayAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

describe("parseRegistryDate: a real date, not in the future, at most 365 days old", () => {
  it("accepts today, tomorrow (UTC slack) and 365 days ago as midnight UTC", () => {
    expect(parseRegistryDate("2026-11-23", NOW)).toEqual({ ok: true, date: new Date("2026-11-23T00:00:00Z") });
    expect(parseRegistryDate(" 2026-11-24 ", NOW)).toEqual({ ok: true, date: new Date("2026-11-24T00:00:00Z") });
    expect(parseRegistryDate("2025-11-23", NOW)).toMatchObject({ ok: true });
    expect(parseOptionalRegistryDate("", NOW)).toEqual({ ok: true, date: null });
    expect(parseOptionalRegistryDate(undefined, NOW)).toEqual({ ok: true, date: null });
  });
  it("refuses the rest, each with a precise message", () => {
    expect(parseRegistryDate("2026-11-25", NOW)).toEqual({
      ok: false,
      message: "Registry date 2026-11-25 is in the future: state the day the registry file was downloaded.",
    });
    expect(parseRegistryDate("2025-11-22", NOW)).toEqual({ ok: false, message: "Registry date 2025-11-22 is more than 365 days ago: check the year." });
    expect(parseRegistryDate("2026-02-30", NOW)).toEqual({ ok: false, message: "Registry date 2026-02-30 is not a real calendar date." });
    expect(parseRegistryDate("11/01/2026", NOW)).toEqual({ ok: false, message: 'Registry date must be a date written YYYY-MM-DD (got "11/01/2026").' });
    expect(parseRegistryDate("2026-11-01T00:00:00Z", NOW)).toMatchObject({ ok: false });
  });
});

describe("the DNC Management load form's registry date", () => {
  it("stores a stated date on the version's provenance and the list, drives the clock, and shows in the version history", async () => {
    const admin = await createSignedInUser(db(), { email: "rd-admin@example.com", role: "Admin", firstName: "R", lastName: "D", company: "Co" });
    const stated = dayAgo(32);
    const r = (await callRoute(
      dnc.action,
      multipart(admin.cookie, { intent: "load", type: "1", mode: "add", method: "manual", numbers: "2015552123", registryDate: stated }),
    )) as Response;
    expect(r.headers.get("Location")).toBe("/dnc");
    const load = await db()
      .selectFrom("list_loads")
      .innerJoin("lists", "lists.id", "list_loads.list_id")
      .select(["list_loads.registry_date", "list_loads.list_version", "lists.registry_date as list_registry_date"])
      .where("lists.kind", "=", "dnc")
      .orderBy("list_loads.created_at", "desc")
      .executeTakeFirstOrThrow();
    expect(load.registry_date?.toISOString()).toBe(`${stated}T00:00:00.000Z`);
    expect(load.list_registry_date?.toISOString()).toBe(`${stated}T00:00:00.000Z`);
    const clock = await dncClock(db());
    expect(clock).toMatchObject({ state: "stale", ageDays: 32, validUntil: new Date(Date.parse(`${stated}T00:00:00Z`) + 31 * DAY).toISOString() });
    const audit = await db()
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "dnc.add")
      .where("actor_id", "=", admin.id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ registryDate: stated });

    // A removal without a stated date is no newer download: the clock keeps running.
    await callRoute(dnc.action, multipart(admin.cookie, { intent: "load", type: "1", mode: "remove", method: "manual", numbers: "2015552123" }));
    expect((await dncClock(db())).ageDays).toBe(32);

    // A file load with a stated date (the FTC full list), then the page's version history.
    const fresh = dayAgo(3);
    const file = new File(["201,5552124\n312,5552199\n"], "2026-11-20-full.txt", { type: "text/plain" });
    const f = (await callRoute(
      dnc.action,
      multipart(admin.cookie, { intent: "load", type: "1", mode: "replace", method: "csv", file, registryDate: fresh }),
    )) as Response;
    const loadId = /^\/dnc\/loads\/([0-9a-f-]{36})$/.exec(f.headers.get("Location") ?? "")?.[1];
    expect(await (await getScrubService()).waitFor("load", loadId!)).toBe("completed");
    expect(await dncClock(db())).toMatchObject({ state: "fresh", ageDays: 3 });
    const page = bodyOf<{ lists: { id: number; kind: string }[]; versions: Record<number, { registryDate: string; fileName: string; mode: string }[]> }>(
      await callRoute(dnc.loader, makeRequest("/dnc", { cookie: admin.cookie })),
    );
    const dncList = page.lists.find((l) => l.kind === "dnc")!;
    expect(page.versions[dncList.id].map((v) => [v.mode, v.registryDate.slice(0, 10)])).toEqual([
      ["replace", fresh],
      ["remove", stated],
      ["add", stated],
    ]);
    expect(page.versions[dncList.id][0].fileName).toBe("2026-11-20-full.txt");
  });

  it("refuses a future, impossible or absurdly old date, and a date on the litigation list, loading nothing", async () => {
    const admin = await createSignedInUser(db(), { email: "rd-admin2@example.com", role: "SuperAdmin", firstName: "R", lastName: "D", company: "Co" });
    const before = await db().selectFrom("list_loads").select("id").execute();
    const post = (fields: Record<string, string>) =>
      callRoute(dnc.action, multipart(admin.cookie, { intent: "load", mode: "add", method: "manual", numbers: "2015552125", type: "1", ...fields }));
    const future = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
    expect(errorsOf(await post({ registryDate: future })).registryDate).toEqual([
      `Registry date ${future} is in the future: state the day the registry file was downloaded.`,
    ]);
    expect(errorsOf(await post({ registryDate: "2026-02-30" })).registryDate).toEqual(["Registry date 2026-02-30 is not a real calendar date."]);
    expect(errorsOf(await post({ registryDate: dayAgo(400) })).registryDate).toEqual([
      `Registry date ${dayAgo(400)} is more than 365 days ago: check the year.`,
    ]);
    expect(errorsOf(await post({ type: "0", registryDate: dayAgo(1) })).registryDate).toEqual([
      "A registry date applies to the DNC list, the state lists and Canada's National DNCL only (the day of the registry download).",
    ]);
    expect(await db().selectFrom("list_loads").select("id").execute()).toEqual(before);
  });

  it("a state list's card takes numbers and its release's registry date (Texas, type 12); an unknown type is 404", async () => {
    const admin = await createSignedInUser(db(), { email: "rd-admin3@example.com", role: "Admin", firstName: "R", lastName: "D", company: "Co" });
    const released = dayAgo(3);
    const r = (await callRoute(
      dnc.action,
      multipart(admin.cookie, { intent: "load", type: "12", mode: "add", method: "manual", numbers: "5125552126, 2145552127", registryDate: released }),
    )) as Response;
    expect(r.status).toBe(302);
    const texas = await db().selectFrom("lists").select(["id", "size", "registry_date"]).where("kind", "=", "dnc-tx").executeTakeFirstOrThrow();
    expect([Number(texas.size), texas.registry_date?.toISOString()]).toEqual([2, `${released}T00:00:00.000Z`]);
    const page = bodyOf<{
      lists: { kind: string; name: string; registryDate: string | null; state: { code: string; validDays: number } | null; checkedBy: string[] }[];
    }>(await callRoute(dnc.loader, makeRequest("/dnc", { cookie: admin.cookie })));
    const card = page.lists.find((l) => l.kind === "dnc-tx")!;
    expect(card).toMatchObject({
      name: "Texas DNC List",
      registryDate: `${released}T00:00:00.000Z`,
      state: { code: "TX", validDays: 152 },
      checkedBy: ["DNC and Litigation"],
    });
    // twelve state lists and Canada's National DNCL (decision 179)
    expect(page.lists.filter((l) => l.state).map((l) => l.kind)).toHaveLength(13);
    const unknown = await callRoute(
      dnc.action,
      multipart(admin.cookie, { intent: "load", type: "15", mode: "add", method: "manual", numbers: "5125552128" }),
    ).catch((e) => e);
    expect(JSON.stringify(unknown)).toMatch(/Choose a suppression type|Unknown DNC list/);
  });

  it("Canada's National DNCL card (type 14) takes Canadian numbers and its release's registry date; its card says its 31-day rule", async () => {
    const admin = await createSignedInUser(db(), { email: "rd-admin4@example.com", role: "Admin", firstName: "R", lastName: "D", company: "Co" });
    const released = dayAgo(30);
    const r = (await callRoute(
      dnc.action,
      multipart(admin.cookie, { intent: "load", type: "14", mode: "add", method: "manual", numbers: "4165552126, 6045552127", registryDate: released }),
    )) as Response;
    expect(r.status).toBe(302);
    const canada = await db().selectFrom("lists").select(["size", "registry_date"]).where("kind", "=", "dnc-ca").executeTakeFirstOrThrow();
    expect([Number(canada.size), canada.registry_date?.toISOString()]).toEqual([2, `${released}T00:00:00.000Z`]);
    const page = bodyOf<{
      lists: {
        kind: string;
        name: string;
        registryDate: string | null;
        state: { code: string; country?: string; validDays: number } | null;
        checkedBy: string[];
      }[];
    }>(await callRoute(dnc.loader, makeRequest("/dnc", { cookie: admin.cookie })));
    expect(page.lists.find((l) => l.kind === "dnc-ca")).toMatchObject({
      name: "Canada National DNCL",
      registryDate: `${released}T00:00:00.000Z`,
      state: { code: "CA", country: "CA", validDays: 31 },
      checkedBy: ["DNC and Litigation"],
    });
  });
});
