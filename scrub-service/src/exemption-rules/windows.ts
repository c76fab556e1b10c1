/**
 * When a customer's exemption record lets a number on a registry list (federal or state do-not-call) be called
 * (docs/decisions/161-exemptions.md). Pure: calendar arithmetic on whole UTC days, no I/O, safe in client code.
 *
 * A record is a basis and a calendar date. It applies at instant `at` when its date has begun (a record dated
 * after the instant never applies) and, for a purchase or an inquiry, before the window's end: the same day of
 * the month `months` calendar months later (clamped to the month's last day), which is the first day it no longer
 * applies. Written consent has no end (a do-not-call request to the seller ends it: a container entry, checked
 * as a non-exemptible list).
 */
import type { ExemptionWindows } from "../list-types";

export const EXEMPTION_BASES = ["purchase", "inquiry", "consent"] as const;
export type ExemptionBasis = (typeof EXEMPTION_BASES)[number];

/** How long each basis lets a list's numbers be called, per list (list-types.ts `exemptionWindows`). */
export type { ExemptionWindows };

export const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of an ISO date "YYYY-MM-DD" that is a real calendar date, else null. */
export function dayOfIsoDate(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return utcDay(y, mo - 1, d);
}

/** Days since 1970-01-01 of a calendar date, exact for every year (Date.UTC reads years 0–99 as 1900–1999). */
function utcDay(y: number, month0: number, d: number): number {
  const t = new Date(0);
  t.setUTCFullYear(y, month0, d);
  return t.getTime() / DAY_MS;
}

/** 1900-01-01: an exemption record dated earlier is refused (no relationship or consent is that old; decision 176). */
export const FIRST_EXEMPTION_DAY = -25_567;

/** "YYYY-MM-DD" of a day number. */
export function isoDateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function daysInMonth(y: number, month1: number): number {
  const t = new Date(0);
  t.setUTCFullYear(y, month1, 0);
  return t.getUTCDate();
}

/** The same day of the month `months` calendar months later, clamped to the last day of a shorter month. */
export function addCalendarMonths(day: number, months: number): number {
  const d = new Date(day * DAY_MS);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const y = Math.floor(total / 12);
  const m0 = total - y * 12;
  return Date.UTC(y, m0, Math.min(d.getUTCDate(), daysInMonth(y, m0 + 1))) / DAY_MS;
}

export const BASIS_PURCHASE = 0;
export const BASIS_INQUIRY = 1;
export const BASIS_CONSENT = 2;

/** The first day the record no longer applies, or null (consent: no end). */
export function exemptionEndDay(basis: number, day: number, w: ExemptionWindows): number | null {
  if (basis === BASIS_PURCHASE) return addCalendarMonths(day, w.purchaseMonths);
  if (basis === BASIS_INQUIRY) return addCalendarMonths(day, w.inquiryMonths);
  return null;
}

/** Whether a record (basis index, day) lets the number be called at `atMs` under these windows. */
export function exemptionApplies(basis: number, day: number, w: ExemptionWindows, atMs: number): boolean {
  if (day * DAY_MS > atMs) return false;
  const end = exemptionEndDay(basis, day, w);
  return end === null || atMs < end * DAY_MS;
}

/** The good.csv `exemption` cell: "purchase 2025-03-01, exempt until 2026-09-01" (consent: "consent 2025-03-01"). */
export function exemptionNote(basis: number, day: number, endDay: number | null): string {
  const head = `${EXEMPTION_BASES[basis]} ${isoDateOfDay(day)}`;
  return endDay === null ? head : `${head}, exempt until ${isoDateOfDay(endDay)}`;
}
