import type { Kysely, Transaction } from "kysely";
import type { Database, ListLoadMode } from "db/schema";
import { reserveUsage } from "~/models/usage.server";
import { recordAudit } from "~/models/user.server";
import { failListLoad } from "~/models/list-load.server";
import { createListLoad, readErrorMessage, type ScrubService } from "scrub-service";
import { CSV_MESSAGES } from "~/intake/purge-wizard";
import { HandOffError, LOAD_HAND_OFF_FAILED } from "./hand-off";
import { IntakeInputError } from "./preview.server";
import type { StoredUpload } from "./upload-store.server";

/*
 * Loading numbers into a list (a container or a DNC list), for every caller (the container and DNC dialogs,
 * the API). The engine does the work (its one normalizer, the list blocks, the list store and Bloom filters);
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
  /** Written in the load's transaction after its row (the opt-outs the load honours, decision 195). */
  withLoad?: (trx: Transaction<Database>, listId: number, loadId: string) => Promise<void>;
  /** DNC loads: the registry date the admin states for the download (default: the list keeps its release date; a first load takes its completion time). */
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

/**
 * A list file checked before its load is queued: a file the decoders refuse (a zip bomb, a damaged archive, a
 * binary file) or one without a row gets its own message now, not a failed load later. With `count`, the
 * upper bound of the numbers it may add, counted on its decoded rows (a .gz, .zip or .xlsx counts the rows it
 * holds, every member of an FTC area-code zip included), for the container reservation.
 */
async function checkListFile(service: ScrubService, upload: StoredUpload, count: boolean): Promise<number> {
  let rows: number;
  try {
    const preview = await service.previewCsv(upload.path, 1, { manyMembers: true });
    rows = preview.rows.length;
  } catch (e) {
    throw new IntakeInputError(readErrorMessage(e) ?? CSV_MESSAGES.unreadable);
  }
  if (!rows) throw new IntakeInputError(CSV_MESSAGES.empty);
  if (!count) return 0;
  let numbers: number;
  try {
    numbers = await service.countRecords(upload.path, { manyMembers: true, skipHeader: true });
  } catch (e) {
    // refused while counting (a bomb found past the preview): never a reservation made on anything else
    const message = readErrorMessage(e);
    if (!message) throw e;
    throw new IntakeInputError(message);
  }
  if (numbers <= 0) throw new IntakeInputError(CSV_MESSAGES.empty);
  return numbers;
}

/** Throws IntakeInputError, NoPlanError / UsageLimitError (plan), whatever `list` throws, or HandOffError. */
export async function submitListLoad(db: Kysely<Database>, service: ScrubService, input: ListLoadSubmission): Promise<SubmittedLoad> {
  const { source } = input;
  if (source.kind === "manual" && input.mode === "changes") {
    throw new IntakeInputError("An FTC change list is a file (each record says add or delete): upload the file.");
  }
  const fileNumbers = source.kind === "file" ? await checkListFile(service, source.upload, input.reserve) : 0;
  const amount = !input.reserve ? 0 : source.kind === "manual" ? source.numbers.length : fileNumbers;
  const { loadId, listId } = await db.transaction().execute(async (trx) => {
    const listId = typeof input.list === "number" ? input.list : await input.list(trx);
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
    await input.withLoad?.(trx, listId, loadId);
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
