import { describe, expect, it } from "vitest";
import { ORDER_WORDS, parseScrubOrder, type ScrubOrderInput } from "./order";

const base: ScrubOrderInput = { userId: "u1", inputPath: "/tmp/in.csv", fileName: "in.csv", suppressionType: "DNCAndLitigation" };

describe("ScrubOrder (issue #45, decision 183)", () => {
  it("fills what was not given: no column, sheet, category, container, states, calling, exemptions or instant", () => {
    expect(parseScrubOrder(base, ORDER_WORDS.api)).toEqual({
      ok: true,
      order: {
        ...base,
        columnName: null,
        sheet: null,
        categoryId: null,
        containerId: null,
        states: [],
        callingWindow: false,
        exemptionListId: null,
        evaluatedAt: null,
        purpose: "telemarketing",
        subject: "default",
        debtColumn: null,
      },
    });
  });

  it("takes a purpose, a subject and a debt column with the calling window (decision 191)", () => {
    const debt = parseScrubOrder({ ...base, callingWindow: true, purpose: "debt-collection", debtColumn: "Account", subject: "" }, ORDER_WORDS.api);
    expect(debt.ok && [debt.order.purpose, debt.order.debtColumn, debt.order.subject]).toEqual(["debt-collection", "Account", "default"]);
    const spring = parseScrubOrder({ ...base, callingWindow: true, subject: "spring" }, ORDER_WORDS.api);
    expect(spring.ok && spring.order.subject).toBe("spring");
  });

  it("refuses a purpose or a debt column without the calling window, and a debt column without debt collection, in each entry's words", () => {
    expect(parseScrubOrder({ ...base, purpose: "debt-collection" }, ORDER_WORDS.api)).toMatchObject({
      ok: false,
      field: "purpose",
      rule: "calls-apply",
      message: "purpose applies with calling_window=true only",
    });
    expect(parseScrubOrder({ ...base, purpose: "debt-collection", debtColumn: "Account" }, ORDER_WORDS.cli)).toMatchObject({
      field: "debtColumn",
      message: "--debt-column applies with --calling-window only.",
    });
    expect(parseScrubOrder({ ...base, callingWindow: true, debtColumn: "Account" }, ORDER_WORDS.wizard)).toMatchObject({
      field: "debtColumn",
      rule: "debt-applies",
      message: "The debt id column applies with debt collection only.",
    });
    expect(parseScrubOrder({ ...base, callingWindow: true, purpose: "fundraising" as never }, ORDER_WORDS.api)).toMatchObject({
      ok: false,
      field: "purpose",
      rule: "shape",
    });
  });

  it("holds one evaluation instant, with the calling window or an exemption list, ids as forms send them", () => {
    const withCalling = parseScrubOrder({ ...base, callingWindow: true, evaluatedAt: "2026-11-29T10:00:00-05:00" }, ORDER_WORDS.wizard);
    expect(withCalling.ok && withCalling.order.evaluatedAt?.toISOString()).toBe("2026-11-29T15:00:00.000Z");
    const withList = parseScrubOrder(
      { ...base, exemptionListId: "12", containerId: "", sheet: "", categoryId: "", evaluatedAt: "2026-11-29T15:00:00Z" },
      ORDER_WORDS.wizard,
    );
    expect(withList.ok && [withList.order.exemptionListId, withList.order.containerId, withList.order.sheet, withList.order.categoryId]).toEqual([
      12,
      null,
      null,
      null,
    ]);
    expect(withList.ok && withList.order.evaluatedAt?.toISOString()).toBe("2026-11-29T15:00:00.000Z");
  });

  it("refuses an instant without either, before its format, in each entry's words", () => {
    const alone = { ...base, evaluatedAt: "not an instant" };
    expect(parseScrubOrder(alone, ORDER_WORDS.api)).toMatchObject({
      ok: false,
      field: "evaluatedAt",
      rule: "instant-applies",
      message: "at applies with calling_window=true or exemptions only",
    });
    expect(parseScrubOrder(alone, ORDER_WORDS.wizard)).toMatchObject({ message: "at applies with calling times or an exemption list only." });
    expect(parseScrubOrder(alone, ORDER_WORDS.cli)).toMatchObject({
      message: "--at applies with --calling-window or exemptions only (the instant the calling columns and the exemptions are evaluated at).",
    });
    expect(parseScrubOrder(alone, ORDER_WORDS.service)).toMatchObject({ message: "callingAt applies with callingWindow=1 or exemptionListId only." });
  });

  it("refuses an instant that is not one, named as the entry names it", () => {
    const bad = { ...base, callingWindow: true, evaluatedAt: "2026-11-29 10:00" };
    expect(parseScrubOrder(bad, ORDER_WORDS.cli)).toMatchObject({
      ok: false,
      field: "evaluatedAt",
      rule: "instant-format",
      message: "--at must be an ISO-8601 date-time with a UTC offset, e.g. 2026-11-26T15:00:00Z or 2026-11-26T10:00:00-05:00.",
    });
    expect(parseScrubOrder({ ...bad, evaluatedAt: "2026-02-30T10:00:00Z" }, ORDER_WORDS.service)).toMatchObject({
      message: "callingAt is not a real date-time: 2026-02-30T10:00:00Z.",
    });
    expect(parseScrubOrder({ ...bad, evaluatedAt: "2100-01-01T00:00:00Z" }, ORDER_WORDS.api)).toMatchObject({
      message: "at must be between the years 2000 and 2099.",
    });
  });

  it("refuses an id that is not one and an unknown suppression type", () => {
    expect(parseScrubOrder({ ...base, containerId: "abc" }, ORDER_WORDS.cli)).toMatchObject({ ok: false, field: "containerId", rule: "shape" });
    expect(parseScrubOrder({ ...base, exemptionListId: -1 }, ORDER_WORDS.cli)).toMatchObject({ ok: false, field: "exemptionListId", rule: "shape" });
    expect(parseScrubOrder({ ...base, suppressionType: "Everything" as "DNCAndLitigation" }, ORDER_WORDS.cli)).toMatchObject({
      ok: false,
      field: "suppressionType",
    });
  });
});
