import { DEFAULT_TIME_ZONE, isValidTimeZone } from "./format";
import { TIME_ZONE_COOKIE } from "./time-zone";

/** The zone the browser stored in the `tz` cookie (app/utils/time-zone.tsx), or UTC: never an unchecked value. */
export function viewerTimeZone(request: Request): string {
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== TIME_ZONE_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return DEFAULT_TIME_ZONE;
    }
    return isValidTimeZone(value) ? value : DEFAULT_TIME_ZONE;
  }
  return DEFAULT_TIME_ZONE;
}
