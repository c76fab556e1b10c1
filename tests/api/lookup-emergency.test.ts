import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "api-lookup-emergency-"));

import { useAppTestDb } from "../setup/db";
import { testContext } from "../setup/request";
import { apiRequest, bodyOf, installScrubService, makeKey, makeUser } from "./helpers";
import * as lookup from "~/routes/api.v1.lookup";
import { addEmergencyPeriod, forgetEmergencyPeriods, removeEmergencyPeriod } from "~/models/emergency-period.server";
import { stopLookupUsage } from "~/models/usage.server";
import { startService } from "scrub-service/testing";
import { createExemptionList, loadExemptions, readExemptionRows } from "scrub-service";
import type { InProcessScrubService } from "scrub-service/in-process";

/*
 * The live lookup under an emergency no-call period (decision 181): a number the period covers (its state and area
 * code, the number's local day) is not callable, nextCallAt after the period, callingNote naming it, the answer's
 * emergency_periods listing it; an area code outside the period's is untouched; an exemption record meeting the
 * statute's exceptions lets the call through; a removed period no longer applies.
 */
const { handle } = useAppTestDb();
const db = () => handle().db;

const NEW_ORLEANS = "5045552345";
const SHREVEPORT = "3182225555";
const SOURCE = "https://gov.louisiana.gov/index.cfm/newsroom/detail/1";

let key: string;
let userId: string;
let service: InProcessScrubService;

/** A Wednesday at least two days ahead, as YYYY-MM-DD, and 10:00 CST/CDT that day is 15:00 or 16:00 UTC. */
function nextWednesday(): string {
  const d = new Date(Date.now() + 2 * 86_400_000);
  while (d.getUTCDay() !== 3) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function post(body: unknown) {
  return lookup.action({ request: apiRequest("/api/v1/lookup", { key, json: body }), params: {}, context: testContext });
}

beforeAll(async () => {
  userId = await makeUser(db(), { plan: "business" });
  key = (await makeKey(db(), userId)).key;
  service = await startService(handle(), "embedded", { autoStart: false });
  installScrubService(service);
});

afterAll(async () => {
  await stopLookupUsage();
  await service?.close();
});

describe("lookup: emergency no-call periods", () => {
  it("holds the period's area code, not another; names it; lets an exempt number through; a removed period stops", async () => {
    const day = nextWednesday();
    const at = `${day}T16:00:00Z`; // 10:00 CST (or 11:00 CDT): within Louisiana's hours
    const before = await bodyOf(await post({ numbers: [NEW_ORLEANS, SHREVEPORT], suppression_type: "LitigationOnly", at }));
    expect(before.emergency_periods).toEqual([]);
    const plain = before.data.map((r: any) => [r.callableNow, r.nextCallAt, r.callingNote]);

    const added = await addEmergencyPeriod(db(), { states: "LA", areaCodes: "504", from: day, to: day, authority: "Governor of Louisiana", source: SOURCE });
    if (!added.ok) throw new Error("not added");
    forgetEmergencyPeriods();
    const res = await post({ numbers: [NEW_ORLEANS, SHREVEPORT], suppression_type: "LitigationOnly", at });
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body.emergency_periods).toEqual([
      { id: added.period.id, states: ["LA"], area_codes: [504], first_day: day, last_day: day, authority: "Governor of Louisiana", source_url: SOURCE },
    ]);
    const [held, other] = body.data;
    expect(held.callableNow).toBe(false);
    expect(held.callingNote).toBe(`Louisiana emergency period to ${day} (Governor of Louisiana, ${SOURCE})`);
    // the first lawful instant after the period: not before 8:00 local the next day
    expect(Date.parse(held.nextCallAt)).toBeGreaterThanOrEqual(Date.parse(`${day}T00:00:00Z`) + 86_400_000 + 13 * 3_600_000);
    // 318 is Louisiana too, but outside the period's area codes: as without the period
    expect([other.callableNow, other.nextCallAt, other.callingNote]).toEqual(plain[1]);

    // an express request two months old meets La. R.S. 45:844.31's exception: the normal hours
    const list = await createExemptionList(db(), { userId, name: "crm" });
    const consent = new Date(Date.parse(at) - 60 * 86_400_000).toISOString().slice(0, 10);
    const rows = await readExemptionRows({ text: `${NEW_ORLEANS},consent,${consent}\n` });
    await loadExemptions(db(), { listId: list.id, userId, mode: "replace", rows });
    const exempt = await bodyOf(await post({ numbers: [NEW_ORLEANS], suppression_type: "LitigationOnly", at, exemptions: list.id }));
    expect([exempt.data[0].callableNow, exempt.data[0].nextCallAt, exempt.data[0].callingNote]).toEqual(plain[0]);

    expect(await removeEmergencyPeriod(db(), added.period.id)).toBe(true);
    forgetEmergencyPeriods();
    const after = await bodyOf(await post({ numbers: [NEW_ORLEANS], suppression_type: "LitigationOnly", at }));
    expect(after.emergency_periods).toEqual([]);
    expect([after.data[0].callableNow, after.data[0].nextCallAt, after.data[0].callingNote]).toEqual(plain[0]);
  });
});
