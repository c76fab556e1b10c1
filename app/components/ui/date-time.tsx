import { formatDate, formatDateTime } from "~/utils/format";
import { useTimeZone } from "~/utils/time-zone";

/**
 * A moment on screen, in the viewer's zone: `<time datetime="…ISO…">Nov 05, 2026, 3:04 PM EST</time>`.
 * suppressHydrationWarning: the server and the browser may name a zone from different ICU data; the browser's
 * text then simply wins (the zone itself is the same on both sides, see time-zone.tsx).
 */
export function DateTime({ value, dateOnly = false, className }: { value: string | Date | null | undefined; dateOnly?: boolean; className?: string }) {
  const zone = useTimeZone();
  if (value == null) return <>N/A</>;
  const iso = typeof value === "string" ? value : value.toISOString();
  return (
    <time dateTime={iso} className={className} suppressHydrationWarning>
      {dateOnly ? formatDate(iso, zone) : formatDateTime(iso, zone)}
    </time>
  );
}

/** The day of a moment in the viewer's zone: "Nov 05, 2026". */
export function DateOnly({ value, className }: { value: string | Date | null | undefined; className?: string }) {
  return <DateTime value={value} dateOnly className={className} />;
}

/**
 * A calendar day (a registry or release date, "valid until" a day): the same day for every viewer, never an instant
 * shifted into the viewer's zone ("2026-11-23" or its UTC midnight → "Nov 23, 2026").
 */
export function CalendarDate({ value, className }: { value: string | Date | null | undefined; className?: string }) {
  if (value == null) return <>N/A</>;
  const iso = typeof value === "string" ? value : value.toISOString();
  return (
    <time dateTime={iso.slice(0, 10)} className={className}>
      {formatDate(iso.length === 10 ? `${iso}T00:00:00Z` : iso, "UTC")}
    </time>
  );
}
