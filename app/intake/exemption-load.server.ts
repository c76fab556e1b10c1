import fs from "node:fs/promises";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { ExemptionInputError, loadExemptions, readExemptionRows, type ExemptionLoadResult } from "~/models/exemption.server";
import type { ExemptionRow } from "scrub-service";
import { recordAudit } from "~/models/user.server";
import type { StoredUpload } from "./upload-store.server";

/**
 * Loading a customer's exemption rows, for every caller (the containers page, the API): the text (typed, or a
 * CSV upload read whole, at most MAX_EXEMPTION_FILE_BYTES), every row checked (ExemptionInputError names each
 * bad line), then all rows written in one transaction or none, and an audit row (decision 161).
 */

/** A CSV of 1,000,000 rows of `phone,basis,date` is about 32 MB; the cap leaves room for quoting and extra columns. */
export const MAX_EXEMPTION_FILE_BYTES = 64 * 1024 * 1024;

export type ExemptionSource = { kind: "text"; text: string } | { kind: "file"; upload: StoredUpload };

/** The rows of a source, every one checked (throws ExemptionInputError naming each bad line). */
export async function readExemptionSource(source: ExemptionSource, now?: Date): Promise<ExemptionRow[]> {
  return readExemptionRows(await exemptionText(source), now);
}

async function exemptionText(source: ExemptionSource): Promise<string> {
  if (source.kind === "text") return source.text;
  const { size } = await fs.stat(source.upload.path);
  if (size > MAX_EXEMPTION_FILE_BYTES) {
    throw new ExemptionInputError([`The file is larger than ${MAX_EXEMPTION_FILE_BYTES / 1024 / 1024} MB; an exemption list holds at most 1,000,000 rows.`]);
  }
  const bytes = await fs.readFile(source.upload.path);
  if (bytes.includes(0)) throw new ExemptionInputError(["The file is not a CSV text file (phone,basis,date rows)."]);
  return bytes.toString("utf8");
}

export async function submitExemptionLoad(
  db: Kysely<Database>,
  input: { userId: string; listId: number; listName: string; mode: "add" | "replace"; rows: ExemptionRow[]; origin: "web" | "api" },
): Promise<ExemptionLoadResult> {
  const { rows } = input;
  const result = await loadExemptions(db, { listId: input.listId, userId: input.userId, mode: input.mode, rows });
  await recordAudit(db, {
    actorId: input.userId,
    action: "exemptions.load",
    targetType: "exemption_list",
    targetId: String(input.listId),
    details: { name: input.listName, mode: input.mode, rows: rows.length, size: result.list.size, version: result.list.version, source: input.origin },
  });
  return result;
}
