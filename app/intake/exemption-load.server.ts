import fs from "node:fs/promises";
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import {
  createExemptionList,
  deleteExemptionList,
  ExemptionInputError,
  loadExemptions,
  readExemptionRows,
  type ExemptionLoadResult,
} from "~/models/exemption.server";
import type { ExemptionIndex } from "scrub-service";
import { getPlanState } from "~/models/usage.server";
import { recordAudit } from "~/models/user.server";
import type { StoredUpload } from "./upload-store.server";

/**
 * Loading a customer's exemption rows, for every caller (the containers page, the API): the text (typed) or the
 * upload (any format the scrub reads) read on the exemption thread, never on this event loop (decision 176), every
 * row checked (ExemptionInputError names each bad line and each limit), then written as a new generation the list
 * moves to at once, or not at all, within the plan's limit on exemption records, and an audit row.
 */

/** A CSV of 1,000,000 rows of `phone,basis,date` is about 32 MB; the cap leaves room for quoting and extra columns. */
export const MAX_EXEMPTION_FILE_BYTES = 64 * 1024 * 1024;

/** A user without a plan (and not unlimited) keeps no exemption records: the plan's limit is what they may hold. */
export const NO_PLAN_FOR_EXEMPTIONS = "You need an active plan to keep exemption lists. Choose a plan under Pricing to get started.";

export type ExemptionSource = { kind: "text"; text: string } | { kind: "file"; upload: StoredUpload };

/** The rows of a source, every one checked (throws ExemptionInputError naming each bad line). */
export async function readExemptionSource(source: ExemptionSource, now?: Date): Promise<ExemptionIndex> {
  if (source.kind === "text") return readExemptionRows({ text: source.text }, now);
  const { size } = await fs.stat(source.upload.path);
  if (size > MAX_EXEMPTION_FILE_BYTES) {
    throw new ExemptionInputError([`The file is larger than ${MAX_EXEMPTION_FILE_BYTES / 1024 / 1024} MB; an exemption list holds at most 1,000,000 rows.`]);
  }
  return readExemptionRows({ path: source.upload.path }, now);
}

export async function submitExemptionLoad(
  db: Kysely<Database>,
  input: { userId: string; listId: number; listName: string; mode: "add" | "replace"; rows: ExemptionIndex; origin: "web" | "api" },
): Promise<ExemptionLoadResult> {
  const { rows } = input;
  const plan = await getPlanState(db, input.userId);
  if (!plan.hasAccess) throw new ExemptionInputError([NO_PLAN_FOR_EXEMPTIONS]);
  const limit = plan.exemption.limit === null ? null : { max: plan.exemption.limit, planName: plan.plan?.name ?? "current" };
  const result = await loadExemptions(db, { listId: input.listId, userId: input.userId, mode: input.mode, rows, limit });
  await recordAudit(db, {
    actorId: input.userId,
    action: "exemptions.load",
    targetType: "exemption_list",
    targetId: String(input.listId),
    details: { name: input.listName, mode: input.mode, rows: rows.numbers.length, size: result.list.size, version: result.list.version, source: input.origin },
  });
  return result;
}

/**
 * A new list with its first rows, for every caller: created, audited and loaded, or, when the load is refused (the
 * plan's limit), not created at all.
 */
export async function createExemptionListWithRows(
  db: Kysely<Database>,
  input: { userId: string; name: string; description?: string; rows: ExemptionIndex; origin: "web" | "api"; apiKeyId?: string },
): Promise<ExemptionLoadResult> {
  const list = await createExemptionList(db, { userId: input.userId, name: input.name, description: input.description });
  try {
    const result = await submitExemptionLoad(db, {
      userId: input.userId,
      listId: list.id,
      listName: list.name,
      mode: "replace",
      rows: input.rows,
      origin: input.origin,
    });
    await recordAudit(db, {
      actorId: input.userId,
      action: "exemptions.create",
      targetType: "exemption_list",
      targetId: String(list.id),
      details: { name: list.name, source: input.origin, ...(input.apiKeyId ? { apiKeyId: input.apiKeyId } : {}) },
    });
    return result;
  } catch (e) {
    await deleteExemptionList(db, { id: list.id, userId: input.userId });
    throw e;
  }
}
