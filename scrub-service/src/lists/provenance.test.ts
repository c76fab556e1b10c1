/**
 * A list's release (registry) date moves only with a stated date, or on a list's very first load (issue #43,
 * decision 177): an add, remove, change list or replace without a date keeps the release the list has, on every
 * path (typed numbers, a file as the DNC page and the CLI load it). Embedded store; numbers use 555-7XXX.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "db/client";
import { createTestDb } from "../../../tests/setup/db";
import type { InProcessScrubService } from "../in-process";
import type { ListLoadMode } from "../service";
import { adminListIds, cleanupService, startService, tmpDir } from "../test/helpers";

const DAY = 86_400_000;
/** Midnight UTC `n` days ago: how a stated registry date is stored. */
const daysAgo = (n: number) => new Date(Math.floor(Date.now() / DAY) * DAY - n * DAY);

describe("a list's release date (registry_date) across loads", () => {
  let handle: DbHandle;
  let svc: InProcessScrubService;
  let dir: string;
  let texas: number;
  let dnc: number;

  beforeAll(async () => {
    handle = await createTestDb();
    dir = tmpDir("release-date");
    svc = await startService(handle, "embedded", { dataDir: dir });
    texas = (await handle.db.selectFrom("lists").select("id").where("kind", "=", "dnc-tx").executeTakeFirstOrThrow()).id;
    dnc = (await adminListIds(handle)).dnc;
  });
  afterAll(async () => {
    await cleanupService(svc);
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const releaseOf = async (listId: number) =>
    (await handle.db.selectFrom("lists").select("registry_date").where("id", "=", listId).executeTakeFirstOrThrow()).registry_date;
  const loadRow = (id: string) =>
    handle.db.selectFrom("list_loads").select(["status", "registry_date", "finished_at"]).where("id", "=", id).executeTakeFirstOrThrow();

  /** A file load as the DNC page and `npm run lists` submit it (the batch runner, list-load-job.ts). */
  async function fileLoad(listId: number, mode: ListLoadMode, lines: string[], registryDate: Date | null = null) {
    const file = path.join(dir, `load-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
    fs.writeFileSync(file, `${lines.join("\n")}\n`);
    const id = await svc.submitListLoad({ listId, mode, userId: null, inputPath: file, registryDate });
    expect(await svc.waitFor("load", id, 60_000)).toBe("completed");
    return loadRow(id);
  }

  it("the first load without a date is dated by its load time; then adds, removes and replaces without a date keep it; a stated date moves it", async () => {
    // the very first load of the Texas list, no date: its load time
    const before = Date.now();
    const first = await svc.loadNumbers({ listId: texas, mode: "add", numbers: ["5125557001"] });
    const firstRow = await loadRow(first.loadId);
    expect(firstRow.registry_date!.getTime()).toBe(firstRow.finished_at!.getTime());
    expect(firstRow.registry_date!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await releaseOf(texas))!.getTime()).toBe(firstRow.registry_date!.getTime());

    // a release of 10 days ago, stated on a replace
    const released = daysAgo(10);
    await svc.loadNumbers({ listId: texas, mode: "replace", numbers: ["5125557001", "5125557002"], registryDate: released });
    expect(await releaseOf(texas)).toEqual(released);

    // one typed number, no date (the reported bug: the release became today)
    const typed = await svc.loadNumbers({ listId: texas, mode: "add", numbers: ["5125557003"] });
    expect(typed.added).toBe(1);
    expect(await releaseOf(texas)).toEqual(released);
    expect((await loadRow(typed.loadId)).registry_date).toEqual(released); // the version's provenance says the same
    // typed removal, file add, file removal, file replace: all without a date
    await svc.loadNumbers({ listId: texas, mode: "remove", numbers: ["5125557003"] });
    expect(await releaseOf(texas)).toEqual(released);
    expect((await fileLoad(texas, "add", ["5125557004"])).registry_date).toEqual(released);
    expect((await fileLoad(texas, "remove", ["5125557004"])).registry_date).toEqual(released);
    expect((await fileLoad(texas, "replace", ["5125557005"])).registry_date).toEqual(released);
    expect(await releaseOf(texas)).toEqual(released);

    // a replace with a stated date sets it (file), as does an add with one (typed)
    const newer = daysAgo(3);
    expect((await fileLoad(texas, "replace", ["5125557006"], newer)).registry_date).toEqual(newer);
    expect(await releaseOf(texas)).toEqual(newer);
    const newest = daysAgo(1);
    await svc.loadNumbers({ listId: texas, mode: "add", numbers: ["5125557007"], registryDate: newest });
    expect(await releaseOf(texas)).toEqual(newest);
  });

  it("the federal list the same way: an FTC change list or an add without a date keeps its release", async () => {
    const released = daysAgo(10);
    await fileLoad(dnc, "replace", ["2125557101", "2125557102"], released);
    expect(await releaseOf(dnc)).toEqual(released);
    await svc.loadNumbers({ listId: dnc, mode: "add", numbers: ["2125557103"] });
    expect(await releaseOf(dnc)).toEqual(released);
    const changes = await fileLoad(dnc, "changes", ["212,5557104,A,2026-11-20", "212,5557101,D,2026-11-20"]);
    expect(changes.registry_date).toEqual(released);
    expect(await releaseOf(dnc)).toEqual(released);
  });
});
