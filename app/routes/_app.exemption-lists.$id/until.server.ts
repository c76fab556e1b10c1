import { dayOfIsoDate, EXEMPTION_BASES, exemptionEndDay, isoDateOfDay, type ExemptionWindows } from "scrub-service/domain";

/** Until when a record lets a number on the federal list be called, in words: "2027-06-01", "ended 2026-09-01", "no end". */
export function federalUntil(
  basis: (typeof EXEMPTION_BASES)[number],
  date: string,
  federal: ExemptionWindows,
  nowMs: number,
): { text: string; ended: boolean } {
  const day = dayOfIsoDate(date);
  if (day === null) return { text: "", ended: false };
  const end = exemptionEndDay(EXEMPTION_BASES.indexOf(basis), day, federal);
  if (end === null) return { text: "No end", ended: false };
  const ended = end * 86_400_000 <= nowMs;
  return { text: ended ? `Ended ${isoDateOfDay(end)}` : `${isoDateOfDay(end)} (first day it no longer applies)`, ended };
}
