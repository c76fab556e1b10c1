import { describe, expect, it } from "vitest";
import { CALLING_RULES, CALLING_RULES_HISTORY, CALLING_RULES_VERSION } from "scrub-service";
import { LIST_TYPES } from "scrub-service/domain";
import { loader } from "./route";
import { clock12 } from "./parts";
import { hoursSpans } from "./view.server";
import { useAppTestDb } from "../../../tests/setup/db";

// the loader reads the emergency periods (decision 181) from the database
useAppTestDb();

type Data = Awaited<ReturnType<typeof loader>>;

async function load(): Promise<Data> {
  // signed out: the loader reads no request, session or cookie at all (the role matrix calls it with each role's)
  return loader();
}

describe("/rules (public)", () => {
  it("answers signed out with the rules version and every release", async () => {
    const data = await load();
    expect(data.version).toBe(CALLING_RULES_VERSION);
    expect(data.history.map((r) => r.version)).toEqual(CALLING_RULES_HISTORY.map((r) => r.version));
    expect(data.history[0].version).toBe(data.version);
  });

  it("lists every calling rule and every state list", async () => {
    const data = await load();
    const shown = [data.federal, data.canada, ...data.states].flatMap((j) => j.rules.map((r) => r.id));
    expect(shown.sort()).toEqual(CALLING_RULES.map((r) => r.id).sort());
    const lists = data.states.filter((j) => j.list).map((j) => j.code);
    expect(lists.sort()).toEqual(LIST_TYPES.flatMap((t) => ("state" in t ? [t.state.code] : [])).sort());
    expect(data.federal.list?.validDays).toBe(31);
    // a state with a list and no calling rule of its own (Colorado) is listed too
    expect(data.states.find((j) => j.code === "CO")).toMatchObject({ name: "Colorado", rules: [] });
  });

  it("Louisiana: no Sunday calls, holidays banned, with its citation and source", async () => {
    const la = (await load()).states.find((j) => j.code === "LA")!;
    expect(la.name).toBe("Louisiana");
    const rule = la.rules[0];
    expect(rule.sundayBanned).toBe(true);
    expect(rule.hours).toEqual([
      { days: "Mon–Sat", window: { from: "08:00", to: "20:00" } },
      { days: "Sun", window: null },
    ]);
    expect(rule.citation).toContain("La. R.S. 45:811");
    expect(rule.source).toMatch(/^https:\/\//);
    expect(rule.holidays.map((h) => h.name)).toContain("Mardi Gras");
    expect(rule.holidays.find((h) => h.name === "Mardi Gras")?.when).toBe("47 days before Easter Sunday");
    expect(la.list).toMatchObject({ name: "Louisiana DNC List", validDays: 31 });
    expect(la.list?.exemption.purchaseMonths).toBe(6);
  });

  it("Oregon: 8 a.m.-8 p.m. every day from 2026-01-01, also on Pacific time, with HB 3865 cited", async () => {
    const or = (await load()).states.find((j) => j.code === "OR")!;
    expect(or.name).toBe("Oregon");
    expect(or.rules.map((r) => r.id)).toEqual(["US-OR", "US-OR-PACIFIC"]);
    for (const r of or.rules) {
      expect(r.hours).toEqual([{ days: "Every day", window: { from: "08:00", to: "20:00" } }]);
      expect(r.effective).toBe("2026-01-01");
      expect(r.citation).toContain("HB 3865");
    }
    expect(clock12(or.rules[0].hours[0].window!.to)).toBe("8:00 PM");
    expect(or.rules[1].clock).toContain("Pacific time");
    expect(or.list).toBeNull();
  });

  it("hours read Monday first, runs of equal days joined", () => {
    const RI = CALLING_RULES.find((r) => r.id === "US-RI")!;
    expect(hoursSpans(RI.hours)).toEqual([
      { days: "Mon–Fri", window: { from: "09:00", to: "18:00" } },
      { days: "Sat", window: { from: "10:00", to: "17:00" } },
      { days: "Sun", window: null },
    ]);
    expect(clock12("00:00")).toBe("12:00 AM");
    expect(clock12("12:00")).toBe("12:00 PM");
    expect(clock12("21:30")).toBe("9:30 PM");
  });
});
