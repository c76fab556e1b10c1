import { createContext, useContext, useEffect, useState } from "react";
import { DEFAULT_TIME_ZONE, isValidTimeZone } from "./format";

/**
 * The viewer's time zone for every date on screen (docs/conventions.md, "Dates"). The server renders in the zone of the `tz` cookie, or UTC (named) when there is
 * none: JavaScript off, or the first page ever. The browser hydrates with that same zone (no mismatch), then
 * switches to its own zone and stores it in the cookie, so every later server render is already right.
 */
export const TIME_ZONE_COOKIE = "tz";

const TimeZoneContext = createContext<string>(DEFAULT_TIME_ZONE);

export function useTimeZone(): string {
  return useContext(TimeZoneContext);
}

function browserTimeZone(): string | null {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return isValidTimeZone(zone) ? zone : null;
  } catch {
    return null;
  }
}

export function TimeZoneProvider({ serverZone, children }: { serverZone: string; children: React.ReactNode }) {
  const [zone, setZone] = useState(serverZone);
  useEffect(() => {
    const own = browserTimeZone();
    if (!own) return;
    if (own !== serverZone) {
      const secure = window.location.protocol === "https:" ? "; Secure" : "";
      document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(own)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
    }
    setZone(own);
  }, [serverZone]);
  return <TimeZoneContext.Provider value={zone}>{children}</TimeZoneContext.Provider>;
}
