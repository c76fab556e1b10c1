import { describe, expect, it } from "vitest";
import { checkOptOuts, MAX_OPT_OUTS_PER_REQUEST, offsetMinutesOf } from "./validate";
import { honourDeadline, honouredLate, isBusinessDay, optOutDeadline } from "./business-days";
import { decideNumber, decisionLists, decisionOrder } from "../decision/decide";
import { EXEMPTION_BASES, dayOfIsoDate } from "../exemption-rules/windows";

const NOW = Date.parse("2026-11-28T19:00:00Z");
const US = 2125550123; // New York
const TORONTO = 4165550123;
const VANCOUVER = 6045550123;
const good = { number: "(212) 555-2345", received_at: "2026-11-20T10:00:00-05:00", channel: "text", words: "STOP" };

describe("opt-out records (decision 195)", () => {
  it("takes a good record: the number through the one normalizer, the offset kept", () => {
    const r = checkOptOuts([good, { ...good, channel: "In person", subject: " spring " }], NOW);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.records[0]).toEqual({
      number: 2125552345,
      receivedMs: Date.parse("2026-11-20T15:00:00Z"),
      offsetMinutes: -300,
      channel: "text",
      words: "STOP",
      subject: null,
    });
    expect(r.records[1]).toMatchObject({ channel: "in-person", subject: "spring" });
  });

  it("names every bad record by index and field: number, channel, future instant, no offset, words", () => {
    const r = checkOptOuts(
      [
        good,
        { ...good, number: "555-1234" },
        { ...good, channel: "fax" },
        { ...good, received_at: "2026-11-28T19:06:00Z" },
        { ...good, received_at: "2026-11-20T10:00:00" },
        { ...good, words: "x".repeat(1001) },
        { ...good, words: " " },
        { ...good, received_at: "2020-01-01T00:00:00Z" },
      ],
      NOW,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => `${e.index}.${e.field}`)).toEqual([
      "1.number",
      "2.channel",
      "3.received_at",
      "4.received_at",
      "5.words",
      "6.words",
      "7.received_at",
    ]);
    expect(r.errors[2].message).toMatch(/in the future/);
  });

  it("refuses an empty request and one of more than 10,000 records", () => {
    expect(checkOptOuts([], NOW).ok).toBe(false);
    const many = checkOptOuts(new Array(MAX_OPT_OUTS_PER_REQUEST + 1).fill(good), NOW);
    expect(many).toEqual({ ok: false, errors: [{ index: -1, field: "opt_outs", message: "Send at most 10000 opt-outs per request" }] });
    expect(checkOptOuts(new Array(MAX_OPT_OUTS_PER_REQUEST).fill(good), NOW).ok).toBe(true);
  });

  it("reads the offset of an instant", () => {
    expect(offsetMinutesOf("2026-11-20T10:00:00Z")).toBe(0);
    expect(offsetMinutesOf("2026-11-20T10:00:00+0530")).toBe(330);
    expect(offsetMinutesOf("2026-11-20T10:00:00-08:00")).toBe(-480);
  });
});

describe("ten business days (47 CFR 64.1200(d)(3)) on the federal holiday calendar", () => {
  it("skips weekends, federal holidays and their observed days", () => {
    expect(isBusinessDay(new Date("2026-11-26T00:00:00Z"))).toBe(false); // Thanksgiving
    expect(isBusinessDay(new Date("2026-11-27T00:00:00Z"))).toBe(true);
    expect(isBusinessDay(new Date("2026-11-28T00:00:00Z"))).toBe(false); // Saturday
    expect(isBusinessDay(new Date("2026-07-03T00:00:00Z"))).toBe(false); // Independence Day (a Saturday) observed on Friday
  });

  it("the deadline is the end of the tenth business day after the day of receipt, Thanksgiving not counted", () => {
    const received = Date.parse("2026-11-16T15:00:00Z"); // a Monday
    // Tue 17 … Wed 25 are 7, Thanksgiving skipped, Fri 27, Mon 30, Tue 1 December the tenth
    expect(honourDeadline(received).toISOString()).toBe("2026-12-02T00:00:00.000Z");
    expect(honouredLate(US, received, 0, Date.parse("2026-12-01T23:59:59Z"), NOW)).toBe(false);
    expect(honouredLate(US, received, 0, Date.parse("2026-12-02T00:00:00Z"), NOW)).toBe(true);
    // not honoured yet: late once the deadline passed
    expect(honouredLate(US, received, 0, null, Date.parse("2026-12-01T12:00:00Z"))).toBe(false);
    expect(honouredLate(US, received, 0, null, Date.parse("2026-12-02T00:00:01Z"))).toBe(true);
  });

  it("a Canadian number is held to the CRTC's 14 calendar days, which a US holiday never lengthens", () => {
    const received = Date.parse("2026-11-16T15:00:00Z"); // a Monday; Thanksgiving (US) in between
    expect(optOutDeadline(US, received, 0)).toEqual({ deadline: new Date("2026-12-02T00:00:00.000Z"), rule: "47 CFR 64.1200(d)(3)" });
    const ca = optOutDeadline(TORONTO, received, 0);
    expect(ca.deadline.toISOString()).toBe("2026-12-01T00:00:00.000Z"); // the end of Monday 30 November, the 14th day
    expect(ca.rule).toMatch(/^CRTC/);
    expect(honouredLate(TORONTO, received, 0, Date.parse("2026-11-30T23:59:59Z"), NOW)).toBe(false);
    expect(honouredLate(TORONTO, received, 0, Date.parse("2026-12-01T00:00:00Z"), NOW)).toBe(true);
    expect(honouredLate(US, received, 0, Date.parse("2026-12-01T00:00:00Z"), NOW)).toBe(false);
    // on the request's clock: Monday 20:00 in Vancouver (UTC−8) is Tuesday in UTC, the 14th day still ends on Vancouver's midnight
    expect(optOutDeadline(VANCOUVER, Date.parse("2026-11-17T04:00:00Z"), -480).deadline.toISOString()).toBe("2026-12-01T08:00:00.000Z");
    // with no holiday in between, ten business days and 14 calendar days end together; Columbus Day puts a day between them
    const march = Date.parse("2026-03-02T15:00:00Z");
    expect(optOutDeadline(TORONTO, march, 0).deadline.getTime()).toBe(honourDeadline(march, 0).getTime());
    const columbus = Date.parse("2026-10-05T15:00:00Z");
    expect(honourDeadline(columbus, 0).getTime() - optOutDeadline(TORONTO, columbus, 0).deadline.getTime()).toBe(86_400_000);
  });

  it("counts on the clock the request was received on", () => {
    // Monday 20:00 in California is Tuesday in UTC: the day of receipt is still Monday, the deadline Tuesday's midnight there
    const received = Date.parse("2026-11-17T04:00:00Z");
    expect(honourDeadline(received, -480).toISOString()).toBe("2026-12-02T08:00:00.000Z");
    expect(honourDeadline(received, 0).toISOString()).toBe("2026-12-03T00:00:00.000Z");
  });
});

describe("the one decision with the internal do-not-call list", () => {
  it("is first in the order and never cleared by a written consent, whatever container is chosen", () => {
    const lists = decisionLists(decisionOrder(true, ["litigation", "dnc"], true));
    expect(lists.kinds).toEqual(["internal_dnc", "container", "litigation", "dnc"]);
    const consent = { basis: EXEMPTION_BASES.indexOf("consent"), day: dayOfIsoDate("2026-01-01")! };
    // on the DNC list only: the consent clears it
    expect(decideNumber({ code: 2125552345, hits: 0b1000, record: consent }, { lists, atMs: NOW }).outcome).toBe("good");
    // on the internal list too: the opt-out stands, and the note says the list is never exempted
    const d = decideNumber({ code: 2125552345, hits: 0b1001, record: consent }, { lists, atMs: NOW });
    expect(d).toMatchObject({ outcome: "bad", reason: "internal_dnc", words: "Your internal do-not-call list (opt-out)", cleared: ["dnc"] });
    expect(d.notApplied).toBe("your internal do-not-call list (opt-out): never exempted");
  });
});
