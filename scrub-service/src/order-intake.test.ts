import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../../tests/setup/db";
import type { DbHandle } from "db/client";
import { createScrubJob, ScrubOrderRefusal } from "./service";
import { createExemptionList } from "./exemptions";
import { cleanupService, createContainer, createUser, startService, tmpDir } from "./test/helpers";
import type { InProcessScrubService } from "./in-process";

/** The order's container and exemption list are its owner's: checked once, where the job row is made (issue #45). */
describe("the scrub order's intake", () => {
  let handle: DbHandle;
  let svc: InProcessScrubService;
  let alice: string;
  let bob: string;
  let input: string;
  beforeAll(async () => {
    handle = await createTestDb();
    const dir = tmpDir("order-intake");
    svc = await startService(handle, "embedded", { dataDir: dir });
    alice = await createUser(handle);
    bob = await createUser(handle);
    input = path.join(dir, "in.csv");
    fs.writeFileSync(input, "Phone\n2125552345\n");
  });
  afterAll(async () => {
    await cleanupService(svc);
    await handle.close();
  });

  const jobs = async () =>
    Number(
      (
        await handle.db
          .selectFrom("scrub_jobs")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const order = (userId: string) => ({ userId, inputPath: input, fileName: "in.csv", suppressionType: "LitigationOnly" as const });

  it("refuses another user's (or a deleted) container or exemption list before a job row exists", async () => {
    const bobsContainer = await createContainer(handle, bob);
    const bobsList = await createExemptionList(handle.db, { userId: bob, name: "bob's" });
    const before = await jobs();
    await expect(createScrubJob(handle.db, { ...order(alice), containerId: bobsContainer })).rejects.toThrow(
      new ScrubOrderRefusal("containerId", bobsContainer),
    );
    await expect(createScrubJob(handle.db, { ...order(alice), exemptionListId: bobsList.id })).rejects.toThrow(
      `No exemption list ${bobsList.id} of this user.`,
    );
    const deleted = await createContainer(handle, alice);
    await handle.db.updateTable("lists").set({ deleted_at: new Date() }).where("id", "=", deleted).execute();
    await expect(createScrubJob(handle.db, { ...order(alice), containerId: deleted })).rejects.toThrow(`No container ${deleted} of this user.`);
    expect(await jobs()).toBe(before);
    // the owner's own are taken, and the row keeps the order's one instant
    const own = await createContainer(handle, alice);
    const ownList = await createExemptionList(handle.db, { userId: alice, name: "alice's" });
    const at = new Date("2099-01-02T03:04:05Z");
    const id = await createScrubJob(handle.db, { ...order(alice), containerId: own, exemptionListId: ownList.id, evaluatedAt: at });
    const row = await handle.db
      .selectFrom("scrub_jobs")
      .select(["container_id", "exemption_list_id", "evaluated_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ container_id: own, exemption_list_id: ownList.id, evaluated_at: at });
  });

  it("a job whose container was deleted after the order was accepted fails at its start with the customer's words", async () => {
    const own = await createContainer(handle, alice);
    const id = await createScrubJob(handle.db, { ...order(alice), containerId: own });
    await handle.db.updateTable("lists").set({ deleted_at: new Date() }).where("id", "=", own).execute();
    await svc.enqueue(id);
    expect(await svc.waitFor("job", id)).toBe("failed");
    const row = await handle.db.selectFrom("scrub_jobs").select("error").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.error).toBe("The selected container no longer exists.");
  });
});
