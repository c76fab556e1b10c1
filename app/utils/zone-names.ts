/**
 * Time zones as people name them (#44): "Eastern", "Mountain", "Arizona", "Hawaii-Aleutian", from an IANA id's
 * standard offset and whether it keeps daylight time, so every zone the numbering data can name gets a name without
 * a hand-kept list. The IANA id stays in the files and in a tooltip.
 */
const BY_STANDARD_OFFSET: Record<number, string> = {
  [-210]: "Newfoundland",
  [-240]: "Atlantic",
  [-300]: "Eastern",
  [-360]: "Central",
  [-420]: "Mountain",
  [-480]: "Pacific",
  [-540]: "Alaska",
  [-600]: "Hawaii-Aleutian",
  [-660]: "Samoa",
  600: "Chamorro",
};

/** Zones on the continent's daylight-time bands that keep standard time all year. */
const USUALLY_DAYLIGHT = new Set(["Eastern", "Central", "Mountain", "Pacific"]);

const names = new Map<string, string>();

/** The zone's UTC offset in minutes at an instant (-300 for New York in winter), or null for an unknown zone. */
export function offsetMinutes(zone: string, at: Date): number | null {
  try {
    const part = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value;
    const m = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(part ?? "");
    if (!m) return null;
    return m[1] ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  } catch {
    return null;
  }
}

/** "America/Denver" → "Mountain", "America/Phoenix" → "Arizona", "America/Regina" → "Central (no daylight time)"; else the id. */
export function zoneName(zone: string): string {
  const known = names.get(zone);
  if (known) return known;
  const jan = offsetMinutes(zone, new Date(Date.UTC(2026, 0, 15)));
  const jul = offsetMinutes(zone, new Date(Date.UTC(2026, 6, 15)));
  let name = zone;
  if (jan !== null && jul !== null) {
    const base = BY_STANDARD_OFFSET[Math.min(jan, jul)];
    if (base) name = zone === "America/Phoenix" ? "Arizona" : jan === jul && USUALLY_DAYLIGHT.has(base) ? `${base} (no daylight time)` : base;
  }
  names.set(zone, name);
  return name;
}

/** A set of zones ("America/Denver|America/North_Dakota/Center") as names, each once: "Mountain + Central". */
export function zoneSetName(zones: string): string {
  return [...new Set(zones.split("|").map(zoneName))].join(" + ");
}
