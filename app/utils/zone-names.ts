/**
 * Time zones as people name them (#44): "Eastern", "Mountain", "Arizona", "Hawaii-Aleutian", from an IANA id's
 * standard offset and whether it keeps daylight time, so every zone the numbering data can name gets a name without
 * a hand-kept list. The IANA id stays in the files and in a tooltip.
 */
import { isKnownZone, zoneOffsetMinutes } from "scrub-service/domain";

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

/** "America/Denver" → "Mountain", "America/Phoenix" → "Arizona", "America/Regina" → "Central (no daylight time)"; else the id. */
export function zoneName(zone: string): string {
  const known = names.get(zone);
  if (known) return known;
  let name = zone;
  if (isKnownZone(zone)) {
    // the engine's clock (the calling rules read wall time with it)
    const jan = zoneOffsetMinutes(zone, Date.UTC(2026, 0, 15));
    const jul = zoneOffsetMinutes(zone, Date.UTC(2026, 6, 15));
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
