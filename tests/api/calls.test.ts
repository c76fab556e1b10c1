import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "api-calls-"));

import { availableDbKinds, useAppTestDb } from "../setup/db";
import { testContext } from "../setup/request";
import { apiRequest, bodyOf, makeKey, makeUser } from "./helpers";
import * as calls from "~/routes/api.v1.calls._index";
import * as one from "~/routes/api.v1.calls.$id";
import { takesLargeBody } from "../../server-security.mjs";

/*
 * The call-history endpoints (issue #46, decision 185) on every available store: POST all or nothing with each bad
 * record named, repeated dialer ids ignored within and across requests, GET a number's records with its counts, DELETE
 * of a reserved attempt only, and another account's records never visible nor deletable.
 */

type Mod = { loader: (a: any) => Promise<Response> | Response; action?: (a: any) => Promise<Response> | Response };
async function call(mod: Mod, request: Request, params: Record<string, string> = {}): Promise<Response> {
  const fn = request.method === "GET" ? mod.loader : mod.action!;
  return fn({ request, params, context: testContext });
}

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();

for (const kind of availableDbKinds()) {
  describe(`POST/GET/DELETE /api/v1/calls [${kind}]`, () => {
    const { handle } = useAppTestDb(kind);
    const db = () => handle().db;
    let alice: string;
    let bob: string;
    let noPlan: string;
    beforeAll(async () => {
      alice = (await makeKey(db(), await makeUser(db(), { plan: "business" }))).key;
      bob = (await makeKey(db(), await makeUser(db(), { plan: "business" }))).key;
      noPlan = (await makeKey(db(), await makeUser(db(), { plan: null }))).key;
    });

    it("records a request's calls: 201 with the counts, repeats of a dialer id ignored within and across requests", async () => {
      const rec = { number: "(212) 555-2345", at: hoursAgo(2), subject: "spring", channel: "call", outcome: "connected", dialer_call_id: "d-1" };
      const res = await call(
        calls,
        apiRequest("/api/v1/calls", { key: alice, json: { calls: [rec, rec, { ...rec, dialer_call_id: "d-2", channel: "text", at: hoursAgo(30) }] } }),
      );
      expect(res.status).toBe(201);
      const body = await bodyOf(res);
      expect(body).toMatchObject({ recorded: 2, ignored: 1 });
      expect(body.ids).toHaveLength(2);
      const again = await bodyOf(await call(calls, apiRequest("/api/v1/calls", { key: alice, json: { calls: [rec] } })));
      expect(again).toMatchObject({ recorded: 0, ignored: 1, ids: [] });

      const list = await call(calls, apiRequest("/api/v1/calls?number=2125552345", { key: alice }));
      expect(list.status).toBe(200);
      const got = await bodyOf(list);
      expect(got).toMatchObject({
        number: "2125552345",
        total: 2,
        next_offset: null,
        last_24_hours: { calls: 1, texts: 0, total: 1 },
        last_7_days: { calls: 1, texts: 1, total: 2 },
      });
      expect(got.data[0]).toMatchObject({
        number: "2125552345",
        subject: "spring",
        channel: "call",
        outcome: "connected",
        dialer_call_id: "d-1",
        reserved: false,
        debt_id: null,
      });
      expect(got.data[1].channel).toBe("text");
      // another account sees none of it
      expect((await bodyOf(await call(calls, apiRequest("/api/v1/calls?number=2125552345", { key: bob })))).total).toBe(0);
    });

    it("refuses the whole request when a record is bad, naming each by index and field; nothing recorded", async () => {
      const good = { number: "3055552101", at: hoursAgo(1), outcome: "attempted" };
      const res = await call(
        calls,
        apiRequest("/api/v1/calls", {
          key: alice,
          json: {
            calls: [
              good,
              { ...good, at: "2026-11-28T10:00:00" },
              { ...good, channel: "fax" },
              { ...good, at: new Date(Date.now() + 3600_000).toISOString(), number: "12" },
            ],
          },
        }),
      );
      expect(res.status).toBe(422);
      const { error } = await bodyOf(res);
      expect(error.code).toBe("validation_failed");
      expect(error.details.map((d: { field: string }) => d.field)).toEqual(["calls[1].at", "calls[2].channel", "calls[3].number", "calls[3].at"]);
      expect(error.details[0].index).toBe(1);
      expect((await bodyOf(await call(calls, apiRequest("/api/v1/calls?number=3055552101", { key: alice })))).total).toBe(0);
      const over = await call(calls, apiRequest("/api/v1/calls", { key: alice, json: { calls: Array.from({ length: 10_001 }, () => good) } }));
      expect(over.status).toBe(422);
      expect((await bodyOf(over)).error.message).toBe("calls: Send at most 10000 call records per request");
      const text = await call(calls, apiRequest("/api/v1/calls", { key: alice, body: "number,at", headers: { "Content-Type": "text/csv" } }));
      expect(text.status).toBe(415);
      expect((await call(calls, apiRequest("/api/v1/calls", { key: noPlan, json: { calls: [good] } }))).status).toBe(403);
    });

    it("takes 10,000 records in one request (the large-body route admits it)", async () => {
      expect(takesLargeBody("/api/v1/calls")).toBe(true);
      expect(takesLargeBody("/api/v1/calls/1")).toBe(false);
      const many = Array.from({ length: 10_000 }, (_, i) => ({
        number: "4155552123",
        at: hoursAgo(1 + (i % 100) / 10),
        outcome: "attempted",
        dialer_call_id: `bulk-${i}`,
        subject: "s".repeat(200),
      }));
      const res = await call(calls, apiRequest("/api/v1/calls", { key: alice, json: { calls: many } }));
      expect(res.status).toBe(201);
      expect(await bodyOf(res)).toMatchObject({ recorded: 10_000, ignored: 0 });
      const page = await bodyOf(await call(calls, apiRequest("/api/v1/calls?number=4155552123&limit=500&offset=500", { key: alice })));
      expect(page).toMatchObject({ total: 10_000, next_offset: 1000 });
      expect(page.data).toHaveLength(500);
    }, 60_000);

    it("DELETE removes a reserved attempt only: 204, a call made 409, another account's 404", async () => {
      const base = { number: "6175552100", at: hoursAgo(1), outcome: "attempted" };
      const { ids } = await bodyOf(await call(calls, apiRequest("/api/v1/calls", { key: alice, json: { calls: [{ ...base, reserved: true }, base] } })));
      const del = (key: string, id: string) => call(one, apiRequest(`/api/v1/calls/${id}`, { key, method: "DELETE" }), { id });
      const theirs = await del(bob, ids[0]);
      expect(theirs.status).toBe(404);
      expect((await bodyOf(theirs)).error.code).toBe("not_found");
      const made = await del(alice, ids[1]);
      expect(made.status).toBe(409);
      expect((await bodyOf(made)).error.code).toBe("conflict");
      expect((await del(alice, ids[0])).status).toBe(204);
      expect((await del(alice, ids[0])).status).toBe(404);
      expect((await bodyOf(await call(calls, apiRequest("/api/v1/calls?number=6175552100", { key: alice })))).total).toBe(1);
    });

    it("GET needs a valid number", async () => {
      expect((await call(calls, apiRequest("/api/v1/calls", { key: alice }))).status).toBe(422);
      const bad = await call(calls, apiRequest("/api/v1/calls?number=555", { key: alice }));
      expect(bad.status).toBe(422);
      expect((await bodyOf(bad)).error.details[0].field).toBe("number");
    });
  });
}
