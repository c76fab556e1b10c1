import type { Kysely } from "kysely";
import type { Database, OptOutSource } from "db/schema";
import { appendLedger, ensureInternalDncList, optOutDraft, optOutHonouredDraft, type ScrubService } from "scrub-service";
import type { OptOut } from "scrub-service/domain";
import { honourFinishedOptOutLoads, insertOptOuts, markOptOutsHonoured, moveOptOutsToLoad, unhonouredOptOutLoads } from "~/models/opt-out.server";
import { submitListLoad } from "./submit-list-load.server";

/*
 * Recording opt-outs (issue #47, decision 195), for every caller (POST /api/v1/opt-outs, the containers screen's
 * form and its CSV import): in one transaction the customer's internal do-not-call list is found or created, a list
 * load adding the numbers to it is written (the containers' one load path, `submitListLoad`: its audit row beside it)
 * and the opt-outs with it; after the commit the numbers are loaded now, and the opt-outs are honoured at that
 * instant. Opt-outs count against no plan limit: the law requires them honoured whatever the plan.
 *
 * A load that fails after the commit leaves the opt-outs recorded and not honoured (the dashboard names them when
 * late) and throws the intake's HandOffError; the housekeeping retries it (`retryUnhonouredOptOuts`).
 */
export interface OptOutsRecorded {
  ids: string[];
  listId: number;
  loadId: string;
  honouredAt: Date;
  /** Numbers the list did not hold before. */
  added: number;
}

export async function recordOptOuts(
  db: Kysely<Database>,
  service: ScrubService,
  input: { userId: string; createdBy: string | null; source: OptOutSource; records: readonly OptOut[]; apiKeyId?: string },
): Promise<OptOutsRecorded> {
  let ids: string[] = [];
  const numbers = [...new Set(input.records.map((r) => String(r.number)))];
  const submitted = await submitListLoad(db, service, {
    userId: input.userId,
    mode: "add",
    source: { kind: "manual", numbers },
    reserve: false,
    list: async (trx) => (await ensureInternalDncList(trx, input.userId)).id,
    audit: (listId, loadId) => ({
      action: "opt_out.record",
      targetType: "container",
      targetId: String(listId),
      details: { rows: input.records.length, numbers: numbers.length, loadId, source: input.source, ...(input.apiKeyId ? { apiKeyId: input.apiKeyId } : {}) },
    }),
    withLoad: async (trx, listId, loadId) => {
      ids = await insertOptOuts(trx, { userId: input.userId, createdBy: input.createdBy, source: input.source, listId, loadId, records: input.records });
      // received: in the decision ledger with the records (decision 197)
      await appendLedger(trx, input.userId, [optOutDraft({ ids, listId, loadId, source: input.source, records: input.records })]);
    },
  });
  const honouredAt = new Date();
  await markOptOutsHonoured(db, input.userId, submitted.loadId, honouredAt);
  await appendLedger(db, input.userId, [
    optOutHonouredDraft({ numbers: input.records.map((r) => r.number), listId: submitted.listId, loadId: submitted.loadId, honouredAt, ids }),
  ]);
  return { ids, listId: submitted.listId, loadId: submitted.loadId, honouredAt, added: submitted.outcome?.added ?? 0 };
}

/** How long a load may run before its opt-outs are taken to be stranded (its process stopped) and loaded again. */
export const OPT_OUT_LOAD_STALE_MS = 30 * 60_000;

class AlreadyRetried extends Error {}

/**
 * Honours the opt-outs a failed or stopped load left recorded and not honoured (hourly, from the housekeeping): those
 * whose load finished are marked honoured at its end; the others' numbers are loaded again into the internal list by
 * a new load that takes them over in its own transaction (so two replicas never both retry one load), then honoured.
 * A retry that fails again stays for the next round. Counts of what it did.
 */
export async function retryUnhonouredOptOuts(
  db: Kysely<Database>,
  service: ScrubService,
  now: Date = new Date(),
): Promise<{ marked: number; retried: number; failed: number }> {
  let marked = 0;
  for (const done of await honourFinishedOptOutLoads(db)) {
    marked += done.ids.length;
    await appendLedger(db, done.userId, [optOutHonouredDraft(done)]);
  }
  let retried = 0;
  let failed = 0;
  for (const stranded of await unhonouredOptOutLoads(db, new Date(now.getTime() - OPT_OUT_LOAD_STALE_MS))) {
    let ids: string[] = [];
    try {
      const submitted = await submitListLoad(db, service, {
        userId: stranded.userId,
        mode: "add",
        source: { kind: "manual", numbers: stranded.numbers },
        reserve: false,
        list: async (trx) => (await ensureInternalDncList(trx, stranded.userId)).id,
        audit: (listId, loadId) => ({
          action: "opt_out.retry",
          targetType: "container",
          targetId: String(listId),
          details: { numbers: stranded.numbers.length, loadId, failedLoadId: stranded.loadId },
        }),
        withLoad: async (trx, _listId, loadId) => {
          ids = await moveOptOutsToLoad(trx, stranded.userId, stranded.loadId, loadId);
          if (ids.length === 0) throw new AlreadyRetried();
        },
      });
      const honouredAt = new Date();
      await markOptOutsHonoured(db, stranded.userId, submitted.loadId, honouredAt);
      await appendLedger(db, stranded.userId, [
        optOutHonouredDraft({ numbers: stranded.numbers.map(Number), listId: submitted.listId, loadId: submitted.loadId, honouredAt, ids }),
      ]);
      retried++;
    } catch (e) {
      if (e instanceof AlreadyRetried) continue;
      failed++;
      console.warn(`[opt-outs] retry of load ${stranded.loadId} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { marked, retried, failed };
}
