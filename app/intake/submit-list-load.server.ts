import type { Kysely, Transaction } from "kysely";
import type { Database, ListLoadMode } from "../../db/schema";
import { reserveUsage } from "~/models/usage.server";
import { recordAudit } from "~/models/user.server";
import { failListLoad } from "~/models/list-load.server";
import { createListLoad, type ScrubService } from "~/utils/scrub.server";
import { CSV_MESSAGES } from "~/utils/purge-wizard";
import { HandOffError, LOAD_HAND_OFF_FAILED } from "./hand-off";
import { IntakeInputError } from "./preview.server";
import type { StoredUpload } from "./upload-store.server";

/*
 * Loading numbers into a list (a container or a DNC list), for every caller (the container and DNC dialogs,
 * the API). The engine does the work (its one normalizer, list_numbers, the list store and Bloom filters);
 * the intake only:
 *   1. in one transaction: creates the list when asked, reserves container usage (customers' containers only),
 *      inserts the list_loads row and its audit row,
 *   2. after the commit: runs typed numbers now (the counts come back) or hands a file to the service's queue.
 * A failed hand-off marks the load failed (its usage released) and throws HandOffError.
 */

export type LoadSource = { kind: "manual"; numbers: string[] } | { kind: "file"; upload: StoredUpload };

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string;
  details: Record<string, unknown>;
}

export interface ListLoadSubmission {
  userId: string;
  mode: ListLoadMode;
  source: LoadSource;
  /** Customers' containers count against the plan; admin DNC loads reserve nothing. */
  reserve: boolean;
  /** An existing list, or one to create inside the load's transaction (create-container). */
  list: number | ((trx: Transaction<Database>) => Promise<number>);
  /** The audit row written with the load. */
  audit: (listId: number, loadId: string) => AuditEntry;
  /** DNC loads: the registry date the admin states for the download (default: when the load completes). */
  registryDate?: Date | null;
}

export interface ManualLoadOutcome {
  added: number;
  alreadyPresent: number;
  removed: number;
  invalid: number;
  rejected: { value: string; reason: string }[];
  size: number;
}

export interface SubmittedLoad {
  loadId: string;
  listId: number;
  /** Counts of typed numbers (loaded at once); null for a file (progress is in list_loads). */
  outcome: ManualLoadOutcome | null;
}

/** Upper bound of the numbers a load may add (what is reserved against the container limit). */
export function loadAmount(source: LoadSource): number {
  return source.kind === "manual" ? source.numbers.length : source.upload.lines;
}

/** Throws IntakeInputError, NoPlanError / UsageLimitError (plan), whatever `list` throws, or HandOffError. */
export async function submitListLoad(db: Kysely<Database>, service: ScrubService, input: ListLoadSubmission): Promise<SubmittedLoad> {
  const { source } = input;
  if (source.kind === "file" && source.upload.lines <= 0) throw new IntakeInputError(CSV_MESSAGES.empty);
  if (source.kind === "manual" && input.mode === "changes") {
    throw new IntakeInputError("An FTC change list is a file (each record says add or delete): upload the file.");
  }
  const { loadId, listId } = await db.transaction().execute(async (trx) => {
    const listId = typeof input.list === "number" ? input.list : await input.list(trx);
    const amount = input.reserve ? loadAmount(source) : 0;
    if (input.reserve) await reserveUsage(trx, { userId: input.userId, kind: "container", amount });
    const loadId = await createListLoad(trx, {
      listId,
      mode: input.mode,
      userId: input.userId,
      fileName: source.kind === "file" ? source.upload.originalName : "Manual entry",
      inputPath: source.kind === "file" ? source.upload.path : "",
      usageReserved: amount,
      registryDate: input.registryDate ?? null,
    });
    await recordAudit(trx, { actorId: input.userId, ...input.audit(listId, loadId) });
    return { loadId, listId };
  });
  try {
    if (source.kind === "file") {
      await service.enqueueListLoad(loadId);
      return { loadId, listId, outcome: null };
    }
    const r = await service.loadNumbers({
      listId,
      mode: input.mode as Exclude<typeof input.mode, "changes">,
      numbers: source.numbers,
      userId: input.userId,
      loadId,
      registryDate: input.registryDate ?? null,
    });
    return {
      loadId,
      listId,
      outcome: { added: r.added, alreadyPresent: r.alreadyPresent, removed: r.removed, invalid: r.invalid, rejected: r.rejected, size: r.size },
    };
  } catch (e) {
    console.warn(`[intake] hand-off of list load ${loadId} failed: ${e instanceof Error ? e.message : String(e)}`);
    await failListLoad(db, loadId, LOAD_HAND_OFF_FAILED);
    throw new HandOffError("load", loadId, LOAD_HAND_OFF_FAILED);
  }
}
