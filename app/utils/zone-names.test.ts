import { describe, expect, it } from "vitest";
import { zoneName, zoneSetName } from "./zone-names";

describe("time zones as people name them (#44)", () => {
  it("names every North American zone the numbering data uses", () => {
    const cases: Record<string, string> = {
      "America/New_York": "Eastern",
      "America/Detroit": "Eastern",
      "America/Indiana/Indianapolis": "Eastern",
      "America/Kentucky/Louisville": "Eastern",
      "America/Toronto": "Eastern",
      "America/Chicago": "Central",
      "America/Indiana/Knox": "Central",
      "America/North_Dakota/Center": "Central",
      "America/Winnipeg": "Central",
      "America/Regina": "Central (no daylight time)",
      "America/Denver": "Mountain",
      "America/Boise": "Mountain",
      "America/Edmonton": "Mountain",
      "America/Phoenix": "Arizona",
      "America/Los_Angeles": "Pacific",
      "America/Vancouver": "Pacific",
      "America/Anchorage": "Alaska",
      "America/Juneau": "Alaska",
      "Pacific/Honolulu": "Hawaii-Aleutian",
      "America/Adak": "Hawaii-Aleutian",
      "America/Puerto_Rico": "Atlantic",
      "America/St_Thomas": "Atlantic",
      "America/Halifax": "Atlantic",
      "America/St_Johns": "Newfoundland",
      "Pacific/Pago_Pago": "Samoa",
      "Pacific/Guam": "Chamorro",
      "Pacific/Saipan": "Chamorro",
      "America/Jamaica": "Eastern (no daylight time)",
    };
    for (const [zone, name] of Object.entries(cases)) expect(zoneName(zone), zone).toBe(name);
  });

  it("keeps an id it cannot name, and names a set once per name", () => {
    expect(zoneName("Europe/Paris")).toBe("Europe/Paris");
    expect(zoneName("Not/AZone")).toBe("Not/AZone");
    expect(zoneSetName("America/Denver|America/North_Dakota/Center")).toBe("Mountain + Central");
    expect(zoneSetName("America/New_York|America/Detroit")).toBe("Eastern");
  });
});
