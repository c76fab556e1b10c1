import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { makeContainer, makeUser } from "../../tests/api/helpers";
import { dialerCampaignCache, DIALER_CAMPAIGN_CACHE_MS, findDialerCampaignCached, saveDialerCampaign } from "./dialer.server";

/*
 * The compatibility layer's campaign settings are read once a second at most (decision 196): a change through this
 * process is seen at once, one written by another process (SQL here) within DIALER_CAMPAIGN_CACHE_MS.
 */
describe("dialer campaign settings cached for the check's hot path", () => {
  const { handle } = useAppTestDb();
  const db = () => handle().db;

  it("a save through the model is seen at once; a change behind its back after the cache's second", async () => {
    const userId = await makeUser(db(), { plan: "business" });
    const a = await makeContainer(db(), userId, "A");
    const b = await makeContainer(db(), userId, "B");
    let now = 1_000_000;
    dialerCampaignCache.clock = () => now;
    try {
      expect(await findDialerCampaignCached(db(), userId, "SPRING")).toBeUndefined();
      await saveDialerCampaign(db(), userId, { campaignId: "SPRING", containerId: a, exemptionListId: null });
      expect((await findDialerCampaignCached(db(), userId, "SPRING"))?.containerId).toBe(a);
      // another process's change: not read again within the second, read after it
      await db().updateTable("dialer_campaigns").set({ container_id: b }).where("user_id", "=", userId).execute();
      expect((await findDialerCampaignCached(db(), userId, "SPRING"))?.containerId).toBe(a);
      now += DIALER_CAMPAIGN_CACHE_MS;
      expect((await findDialerCampaignCached(db(), userId, "SPRING"))?.containerId).toBe(b);
    } finally {
      dialerCampaignCache.clock = () => performance.now();
    }
  });
});
