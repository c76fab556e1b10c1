import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppTestDb } from "../../../tests/setup/db";
import { makeRequest } from "../../../tests/setup/request";
import { callRoute, createSignedInUser, statusOf } from "../../../tests/setup/routes";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "containers-opt-outs-"));

const { getSession } = await import("~/utils/session.server");
const { getScrubService } = await import("~/utils/scrub.server");
const { createBankTransferTransaction, markTransactionPaid } = await import("~/models/transaction.server");
const containers = await import("./route");
const { receivedInstantOf } = await import("./opt-out-actions.server");
const exemptionPage = await import("~/routes/_app.exemption-lists.$id/route");
const { createExemptionList, loadExemptions, readExemptionRows } = await import("scrub-service");

/*
 * The containers screen's opt-out dialogs (issue #47, decision 195): "Record opt-out" (field errors from the form's
 * schema and from the engine's one opt-out check; the zone's offset kept), "Import opt-outs" (a CSV file, all or
 * nothing, every bad line named), both into the internal do-not-call list; another user sees none of it.
 */

const { handle } = useAppTestDb();
const db = () => handle().db;

afterAll(async () => {
  await (await getScrubService()).close();
});

let seq = 0;
const signedInUser = (role: "NormalUser" | "SuperAdmin" = "NormalUser") =>
  createSignedInUser(db(), { email: `o${++seq}@opt-outs.test`, role, firstName: "Olga", lastName: `N${seq}`, company: "Acme" });
let adminId = "";
async function withPlan(userId: string) {
  const { transaction } = await createBankTransferTransaction(db(), { userId, planId: "beginner" });
  await markTransactionPaid(db(), { id: transaction.id, adminId });
}
function bodyOf<T>(r: unknown): T {
  const d = r as { type?: string; data?: unknown };
  return (d?.type === "DataWithResponseInit" ? d.data : r) as T;
}
type Reply = { intent: string; result: { error?: Record<string, string[] | null> } };
const errorsOf = (r: unknown) => bodyOf<Reply>(r).result.error ?? {};
function multipart(cookie: string, fields: Record<string, string | File>): Request {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return new Request("http://localhost/containers", { method: "POST", body: fd, headers: { Cookie: cookie } });
}
const toastOf = async (cookie: string) => (await getSession(makeRequest("/", { cookie }))).get("toast") as { title: string; description?: string } | undefined;
const optOutsOf = (userId: string) => db().selectFrom("opt_outs").selectAll().where("user_id", "=", userId).orderBy("id").execute();
const record = (cookie: string, form: Record<string, string>) =>
  callRoute(containers.action, makeRequest("/containers", { cookie, form: { intent: "record-opt-out", ...form } }));

beforeAll(async () => {
  adminId = (await signedInUser("SuperAdmin")).id;
});

describe("/containers: opt-outs", () => {
  it("reads a wall time in the analyst's zone as an instant with that zone's offset", () => {
    expect(receivedInstantOf("2026-11-20T10:00", "America/New_York")).toBe("2026-11-20T10:00:00-05:00");
    expect(receivedInstantOf("2026-07-01T09:30", "America/Los_Angeles")).toBe("2026-07-01T09:30:00-07:00");
    expect(receivedInstantOf("2026-11-20T10:00", "Nowhere/Else")).toBe("2026-11-20T10:00:00+00:00");
    expect(receivedInstantOf("2026-02-30T10:00", "UTC")).toBeNull();
  });

  it("opens the Record opt-out dialog (no plan needed: the law asks it of everyone) and records one into the internal list", async () => {
    const u = await signedInUser();
    const page = bodyOf<{ dialog: string | null; gate: unknown; optOuts: unknown[] }>(
      await callRoute(containers.loader, makeRequest("/containers?dialog=record-opt-out", { cookie: u.cookie })),
    );
    expect(page).toMatchObject({ dialog: "record-opt-out", gate: null, optOuts: [] });

    // the form's own checks: every missing field named
    const empty = await record(u.cookie, {});
    expect(statusOf(empty)).toBe(400);
    expect(Object.keys(errorsOf(empty)).sort()).toEqual(["channel", "number", "receivedLocal", "words"]);
    // the engine's check: a number the normalizer refuses, a time in the future
    const future = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 16);
    const bad = await record(u.cookie, { number: "555-0100", receivedLocal: future, receivedZone: "UTC", channel: "call", words: "Stop calling me" });
    expect(statusOf(bad)).toBe(400);
    expect(Object.keys(errorsOf(bad)).sort()).toEqual(["number", "receivedLocal"]);
    expect(errorsOf(bad).receivedLocal![0]).toMatch(/^The time received is in the future/);
    expect(await optOutsOf(u.id)).toEqual([]);

    const ok = await record(u.cookie, {
      number: "(212) 555-2345",
      receivedLocal: "2026-11-20T10:00",
      receivedZone: "America/New_York",
      channel: "in-person",
      words: "Please do not call me again",
      subject: "Spring",
    });
    expect(statusOf(ok)).toBe(302);
    expect((ok as Response).headers.get("Location")).toBe("/containers");
    expect(await toastOf(u.cookie)).toMatchObject({ title: "Opt-out recorded", description: "2125552345 is on your internal do-not-call list." });
    const rows = await optOutsOf(u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: "in-person", source: "web", created_by: u.id, subject: "Spring", received_offset_minutes: -300 });
    expect(new Date(rows[0].received_at).toISOString()).toBe("2026-11-20T15:00:00.000Z");
    expect(rows[0].honoured_at).not.toBeNull();
    const list = await db().selectFrom("lists").selectAll().where("user_id", "=", u.id).where("internal_dnc", "=", true).executeTakeFirstOrThrow();
    expect(Number(list.size)).toBe(1);

    const after = bodyOf<{ optOuts: { number: string; late: boolean }[]; containers: { id: number }[] }>(
      await callRoute(containers.loader, makeRequest("/containers", { cookie: u.cookie })),
    );
    expect(after.optOuts.map((o) => o.number)).toEqual(["2125552345"]);
    expect(after.containers.map((c) => c.id)).toContain(list.id);
    // another user sees none of it
    const other = await signedInUser();
    const theirs = bodyOf<{ optOuts: unknown[]; containers: unknown[] }>(
      await callRoute(containers.loader, makeRequest("/containers", { cookie: other.cookie })),
    );
    expect(theirs).toMatchObject({ optOuts: [], containers: [] });
  });

  it("imports a CSV of opt-outs all or nothing, naming every bad line", async () => {
    const u = await signedInUser();
    await withPlan(u.id);
    const csv = (text: string) => new File([text], "opt-outs.csv", { type: "text/csv" });
    const noFile = await callRoute(containers.action, multipart(u.cookie, { intent: "import-opt-outs" }));
    expect(statusOf(noFile)).toBe(400);
    expect(errorsOf(noFile).file).toEqual(["Choose a CSV file"]);

    const badHeader = await callRoute(containers.action, multipart(u.cookie, { intent: "import-opt-outs", file: csv("number,words\n2125552345,STOP\n") }));
    expect(statusOf(badHeader)).toBe(422);
    expect(errorsOf(badHeader)[""]?.[0]).toMatch(/missing: received_at, channel/);

    const bad = await callRoute(
      containers.action,
      multipart(u.cookie, {
        intent: "import-opt-outs",
        file: csv(
          'Number,Received_At,Channel,Words\n2125552345,2026-11-20T10:00:00-05:00,text,STOP\n12,2026-11-20T10:00:00Z,fax,"no, thanks"\n3055552101,2026-11-20T10:00:00Z,email,\n',
        ),
      }),
    );
    expect(statusOf(bad)).toBe(422);
    expect(errorsOf(bad)[""]).toEqual([
      expect.stringMatching(/^Line 3: /),
      "Line 3: channel must be one of call, text, e-mail, web, in-person",
      "Line 4: words is required: what the consumer said or wrote, as received",
      "Nothing was recorded.",
    ]);
    expect(await optOutsOf(u.id)).toEqual([]);

    const ok = await callRoute(
      containers.action,
      multipart(u.cookie, {
        intent: "import-opt-outs",
        file: csv(
          'number,received_at,channel,words,subject\n2125552345,2026-11-20T10:00:00-05:00,text,STOP,\n3055552101,2025-01-06T09:00:00Z,E-mail,"Remove me, please",winter\n',
        ),
      }),
    );
    expect(statusOf(ok)).toBe(302);
    expect(await toastOf(u.cookie)).toMatchObject({ title: "Opt-outs imported", description: "2 opt-outs recorded on your internal do-not-call list." });
    const rows = await optOutsOf(u.id);
    expect(rows.map((r) => [String(r.number), r.channel, r.words, r.subject, r.source])).toEqual([
      ["2125552345", "text", "STOP", null, "csv"],
      ["3055552101", "e-mail", "Remove me, please", "winter", "csv"],
    ]);
    // an old request imported now: honoured now, far past its ten business days, so it shows late
    const page = bodyOf<{ optOuts: { number: string; late: boolean }[] }>(await callRoute(containers.loader, makeRequest("/containers", { cookie: u.cookie })));
    expect(page.optOuts.find((o) => o.number === "3055552101")?.late).toBe(true);
  });

  it("shows the revocation on the exemption list's rows: the opt-out's received and honoured instants (decision 195)", async () => {
    const u = await signedInUser();
    const list = await createExemptionList(db(), { userId: u.id, name: "Consents" });
    const rows = await readExemptionRows({ text: "2125559876,consent,2025-03-01\n3055559876,purchase,2026-10-01" });
    await loadExemptions(db(), { listId: list.id, userId: u.id, mode: "replace", rows });
    const ok = await record(u.cookie, { number: "2125559876", receivedLocal: "2026-11-25T16:45", receivedZone: "UTC", channel: "text", words: "STOP" });
    expect(statusOf(ok)).toBe(302);
    const page = bodyOf<{ records: { number: number | string; revoked: { receivedAt: string; honouredAt: string | null } | null }[] }>(
      await callRoute(exemptionPage.loader, makeRequest(`/exemption-lists/${list.id}`, { cookie: u.cookie }), { id: String(list.id) }),
    );
    expect(page.records.map((r) => [String(r.number), r.revoked?.receivedAt ?? null])).toEqual([
      ["2125559876", "2026-11-25T16:45:00.000Z"],
      ["3055559876", null],
    ]);
    expect(page.records[0].revoked!.honouredAt).not.toBeNull();
  });
});
