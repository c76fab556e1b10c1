import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler, jsonText, notFound } from "~/api/api.server";
import { intakeErrorToApi } from "~/api/work.server";
import { isUnlimitedRole, recordLookupUsage } from "~/models/usage.server";
import { getScrubService } from "~/utils/scrub.server";
import { checkLookupInstant, lookUp, lookupFreshness, lookupResponseJson, readLookupInput, requireLookupAccess } from "~/api/lookup.server";
import { staleListsOf } from "scrub-service/domain";
import { exemptionsOfNumbers } from "~/models/exemption.server";
import { lookupCallingTable } from "~/models/emergency-period.server";

const handle = apiHandler({
  /**
   * POST /api/v1/lookup: up to 1,000 numbers answered at once, in order: normalized number, valid or the
   * reason, and the lists and the key owner's containers holding it. Counted as DNC suppression usage once
   * answered; a list that cannot be read fails the request (503) and counts nothing. Its own request budget
   * (200 a second per key, not the API's 1000 an hour) and usage counted in memory: decision 111.
   */
  async POST({ request, api }) {
    await requireLookupAccess(api);
    const input = await readLookupInput(request);
    const { entries } = input;
    const answer = await lookUp(await getScrubService(), api.userId, entries.distinct);
    // The checked lists' freshness (decision 174): `at` must lie between now and their "valid for calls until";
    // a list past its rule is named in `stale_lists` and makes no number callable on its word.
    const now = new Date();
    const freshness = lookupFreshness(answer, input.suppressionType, now);
    checkLookupInstant(input.at, freshness, now);
    let containerId: number | null = null;
    if (input.containerId != null) {
      if (!answer.lists.some((l) => l.kind === "container" && l.id === input.containerId)) throw notFound("Container");
      containerId = input.containerId;
    } else if (input.containerId === undefined && api.containerId != null && answer.lists.some((l) => l.id === api.containerId)) {
      containerId = api.containerId; // the integration's default container, while it still exists
    }
    // the key owner's exemption list, read at one version for the numbers asked about (decision 161)
    let exemptions = null;
    if (input.exemptionListId != null) {
      const found = await exemptionsOfNumbers(api.db, { id: input.exemptionListId, userId: api.userId, numbers: entries.distinct });
      if (!found) throw notFound("Exemption list");
      exemptions = { id: found.list.id, version: found.list.version, records: found.records };
    }
    try {
      await recordLookupUsage(api.db, { userId: api.userId, amount: entries.codes.length, unlimited: isUnlimitedRole(api.role), period: api.period });
    } catch (e) {
      throw intakeErrorToApi(e);
    }
    // the emergency no-call periods at the instant (decision 181), read at most every few seconds
    const callingTable = await lookupCallingTable(api.db, input.at ?? Date.now());
    return jsonText(api, lookupResponseJson(entries, answer, {
        suppressionType: input.suppressionType,
        containerId,
        at: input.at,
        exemptions,
        staleLists: staleListsOf(freshness),
        callingTable,
      }));
  },
}, { budget: "lookup" });

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
