import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upload-sweep-"));
process.env.DATA_DIR = dataDir;

import { useAppTestDb } from "../../tests/setup/db";
import { makeContainer, makeUser } from "../../tests/api/helpers";
import { createListLoad, createScrubJob } from "scrub-service";
import { runHousekeeping } from "~/maintenance/housekeeping.server";
import { getUpload, saveTypedNumbers, UPLOAD_TTL_MS, type StoredUpload } from "./upload-store.server";

const { handle } = useAppTestDb();
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const now = new Date();
function age(upload: StoredUpload, ms: number) {
  const t = new Date(now.getTime() - ms);
  fs.utimesSync(upload.path, t, t);
  fs.utimesSync(path.join(path.dirname(upload.path), `${upload.id}.json`), t, t);
}

describe("the hourly upload sweep", () => {
  it("removes every user's old uploads (not only the next uploader's), keeps what queued work reads, and frees finished loads' files", async () => {
    const db = handle().db;
    const alice = await makeUser(db);
    const bob = await makeUser(db);
    const oldA = await saveTypedNumbers(alice, ["2125552101"]);
    const oldB = await saveTypedNumbers(bob, ["2125552102"]);
    const freshB = await saveTypedNumbers(bob, ["2125552103"]);
    const queuedJob = await saveTypedNumbers(alice, ["2125552104"]);
    const queuedLoad = await saveTypedNumbers(bob, ["2125552105"]);
    const finishedLoad = await saveTypedNumbers(bob, ["2125552106"]);
    for (const u of [oldA, oldB, queuedJob, queuedLoad]) age(u, UPLOAD_TTL_MS + 60_000);
    const part = path.join(path.dirname(oldA.path), "0123456789abcdef0123456789abcdef.csv.part");
    fs.writeFileSync(part, "half");
    const old = new Date(now.getTime() - 2 * UPLOAD_TTL_MS);
    fs.utimesSync(part, old, old);

    await createScrubJob(db, { userId: alice, fileName: "q.csv", inputPath: queuedJob.path, suppressionType: "LitigationOnly" });
    const container = await makeContainer(db, bob);
    await createListLoad(db, { listId: container, mode: "add", userId: bob, fileName: "l.csv", inputPath: queuedLoad.path });
    const done = await createListLoad(db, { listId: container, mode: "add", userId: bob, fileName: "d.csv", inputPath: finishedLoad.path });
    await db.updateTable("list_loads").set({ status: "completed", finished_at: now }).where("id", "=", done).execute();

    await runHousekeeping(db, now);

    expect(await getUpload(alice, oldA.id)).toBeUndefined();
    expect(await getUpload(bob, oldB.id)).toBeUndefined();
    expect(fs.existsSync(oldB.path)).toBe(false);
    expect(fs.existsSync(part)).toBe(false);
    expect(await getUpload(bob, freshB.id)).toBeDefined();
    expect(await getUpload(alice, queuedJob.id)).toBeDefined();
    expect(await getUpload(bob, queuedLoad.id)).toBeDefined();
    expect(fs.existsSync(finishedLoad.path)).toBe(false);
    expect(await getUpload(bob, finishedLoad.id)).toBeUndefined();
    const row = await db.selectFrom("list_loads").select("input_path").where("id", "=", done).executeTakeFirstOrThrow();
    expect(row.input_path).toBe("");
  });
});
