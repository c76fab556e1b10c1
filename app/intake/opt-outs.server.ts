import type { Kysely } from "kysely";
import type { Database, OptOutSource } from "db/schema";
import { appendLedger, ensureInternalDncList, optOutDraft, optOutHonouredDraft, type ScrubService } from "scrub-service";
import type { OptOut } from "scrub-service/domain";
import { insertOptOuts, markOptOutsHonoured } from "~/models/opt-out.server";
import { submitListLoad } from "./submit-list-load.server";

/*
 * Recording opt-outs (issue #47, decision 195), for every caller (POST /api/v1/opt-outs, the containers screen's
 * form and its CSV import): in one transaction the customer's internal do-not-call list is found or created, a list
 * load adding the numbers to it is written (the containers' one load path, `submitListLoad`: its audit row beside it)
 * and the opt-outs with it; after the commit the numbers are loaded now, and the opt-outs are honoured at that
 * instant. Opt-outs count against no plan limit: the law requires them honoured whatever the plan.
 *
 * A load that fails after the commit leaves the opt-outs recorded and not honoured (the dashboard names them when
 * late) and throws the intake's HandOffError; sending them again honours the new records.
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
