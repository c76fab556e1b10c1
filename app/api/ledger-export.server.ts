import {
  buildDossier,
  dossierPdf,
  DossierTooLarge,
  exportLedger,
  LedgerExportTooLarge,
  publishedDayHeads,
  type LedgerExport,
  type NumberDossier,
  type SignedDayHead,
} from "scrub-service";
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { getScrubService } from "~/utils/scrub.server";
import type { ApiContext } from "./api.server";
import { ApiError, fieldError } from "./api.server";

/*
 * The decision ledger's reads (issue #47, decision 197): a customer's export of its own entries with their proof
 * (GET /api/v1/ledger), and the signed day heads anyone may read (/.well-known/ledger-heads).
 */

/** Longest window one request may ask for, in days. */
export const MAX_LEDGER_DAYS = 366;
const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A UTC day "YYYY-MM-DD" that is a real date, or a 422 on the field. */
export function dayParam(field: string, value: string | null, fallback: string): string {
  const v = value ?? fallback;
  if (!DAY.test(v) || new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v) throw fieldError(field, "must be a date YYYY-MM-DD (UTC)");
  return v;
}

export function dayWindow(url: URL, now: Date): { from: string; to: string } {
  const today = now.toISOString().slice(0, 10);
  const to = dayParam("to", url.searchParams.get("to"), today);
  const from = dayParam("from", url.searchParams.get("from"), new Date(Date.parse(`${to}T00:00:00Z`) - 30 * DAY_MS).toISOString().slice(0, 10));
  if (from > to) throw fieldError("from", "must be on or before to");
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_LEDGER_DAYS) throw fieldError("from", `the window may hold at most ${MAX_LEDGER_DAYS} days`);
  return { from, to };
}

/** The key owner's ledger in the window: an empty export (no ledger id) before its first entry. */
export async function ledgerOfApi(
  api: ApiContext,
  from: string,
  to: string,
  now = new Date(),
): Promise<LedgerExport | { ledger: null; entries: []; dayHeads: [] }> {
  try {
    return (await exportLedger(api.db, api.userId, from, to, now)) ?? { ledger: null, entries: [], dayHeads: [] };
  } catch (e) {
    if (e instanceof LedgerExportTooLarge) throw new ApiError(422, "validation_failed", e.message, [{ field: "from", message: e.message }]);
    throw e;
  }
}

/** The key owner's dossier of one number (a DossierTooLarge window: 422 on `from`). */
export async function numberDossier(api: ApiContext, number: number, window: { from: string; to: string }, now = new Date()): Promise<NumberDossier> {
  try {
    return await dossierOf(api.db, api.userId, number, window, now);
  } catch (e) {
    if (e instanceof DossierTooLarge) throw new ApiError(422, "validation_failed", e.message, [{ field: "from", message: e.message }]);
    throw e;
  }
}

/** A customer's dossier of one number, with the lists holding it now (the live lookup's answer of its lists): API and web. */
export async function dossierOf(db: Kysely<Database>, userId: string, number: number, window: { from: string; to: string }, now = new Date()) {
  const answer = await (await getScrubService()).lookup({ userId, numbers: [number] });
  const listsNow = answer.lists
    .filter((l) => l.hits.length > 0)
    .map((l) => ({ kind: l.kind, ...(l.kind === "container" ? { id: l.id, name: l.name } : {}), version: l.version }));
  return buildDossier(db, userId, number, window, { now, listsNow });
}

/** The dossier as a file: the PDF for people (the JSON attached inside it) or the JSON itself. */
export async function dossierFile(dossier: NumberDossier, format: "pdf" | "json"): Promise<{ body: BodyInit; contentType: string }> {
  const text = JSON.stringify(dossier, null, 2) + "\n";
  if (format === "json") return { body: text, contentType: "application/json; charset=utf-8" };
  return { body: new Uint8Array(await dossierPdf(dossier, text)) as unknown as BodyInit, contentType: "application/pdf" };
}

export type { SignedDayHead };
export { DossierTooLarge, publishedDayHeads };
