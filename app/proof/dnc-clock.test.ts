import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { createSignedInUser } from "../../tests/setup/routes";
import { listOutbox } from "~/utils/email.server";
import { dncClock, stateListClocks } from "~/models/dnc-clock.server";
import { staleListRefusal } from "scrub-service";
import type { AdminListKind } from "scrub-service/domain";
import { saveSettings } from "~/models/settings.server";
import { runProofHousekeeping } from "./proof-sweep.server";
import { formatDate } from "~/utils/format";

const { handle } = useAppTestDb();
const DAY = 86_400_000;
const NOW = new Date("2026-11-23T12:00:00Z");

async function ageDnc(days: number) {
  await handle()
    .db.updateTable("lists")
    .set({ registry_date: new Date(NOW.getTime() - days * DAY) })
    .where("kind", "=", "dnc")
    .execute();
}

describe("the 31-day DNC registry clock (clock injected)", () => {
  it("warns admins once per list version from 25 days, and past 31 days refuses DNC purges only when the setting says so", async () => {
    const db = handle().db;
    const admin = await createSignedInUser(db, { email: "clock-admin@example.com", role: "Admin", firstName: "A", lastName: "D", company: "Co" });
    await ageDnc(24);
    expect((await dncClock(db, NOW)).state).toBe("fresh");
    expect((await runProofHousekeeping(db, NOW)).warned).toBe(0);

    await ageDnc(32);
    const clock = await dncClock(db, NOW);
    expect(clock).toMatchObject({ state: "stale", ageDays: 32, validUntil: new Date(NOW.getTime() - DAY).toISOString() });
    expect((await runProofHousekeeping(db, NOW)).warned).toBeGreaterThan(0);
    expect((await runProofHousekeeping(db, NOW)).warned).toBe(0); // once per version
    const mail = await listOutbox(db, { to: "clock-admin@example.com" });
    expect(mail.map((m) => m.subject)).toEqual(["The DNC list is 32 days old"]);
    expect(admin.id).toBeTruthy();

    expect(await staleListRefusal(db, "DNCAndLitigation", NOW)).toBeNull(); // the setting is off by default: a warning, not a refusal
    await saveSettings(db, { refuseStaleDnc: true, resultRetentionDays: null }, admin.id);
    expect(await staleListRefusal(db, "DNCAndLitigation", NOW)).toBe(
      "The federal DNC list (release 2026-10-22, 32 days old; rule 31 days) is out of date: purges that include DNC are refused until an admin loads a newer release.",
    );
    await ageDnc(31);
    expect(await staleListRefusal(db, "DNCAndLitigation", NOW)).toBeNull();
  });

  it("holds each loaded state list to its own freshness rule: past it, DNC purges are refused when the setting says so", async () => {
    const db = handle().db;
    // a state list counts once it holds numbers (a scrub skips an empty one)
    await db.updateTable("lists").set({ size: 1 }).where("kind", "in", ["dnc-la", "dnc-tx"]).execute();
    const admin = await createSignedInUser(db, { email: "state-clock@example.com", role: "Admin", firstName: "A", lastName: "D", company: "Co" });
    await ageDnc(3);
    const ageState = (kind: AdminListKind, days: number | null) =>
      db
        .updateTable("lists")
        .set({ registry_date: days === null ? null : new Date(NOW.getTime() - days * DAY) })
        .where("kind", "=", kind)
        .execute();
    await ageState("dnc-tx", null); // never loaded: not checked
    await ageState("dnc-la", 31); // Louisiana: monthly, 31 days
    expect(await stateListClocks(db, NOW)).toEqual([expect.objectContaining({ kind: "dnc-la", ageDays: 31, validDays: 31, state: "warning" })]);
    await saveSettings(db, { refuseStaleDnc: true, resultRetentionDays: null }, admin.id);
    expect(await staleListRefusal(db, "DNCAndLitigation", NOW)).toBeNull();

    await ageState("dnc-la", 32);
    await ageState("dnc-tx", 152); // Texas: 152 days, the last fresh day
    const clocks = await stateListClocks(db, NOW);
    expect(clocks.map((c) => [c.kind, c.state])).toEqual([
      ["dnc-tx", "warning"],
      ["dnc-la", "stale"],
    ]);
    expect(await staleListRefusal(db, "DNCAndLitigation", NOW)).toBe(
      "The Louisiana DNC list (release 2026-10-22, 32 days old; rule 31 days) is out of date: purges that include DNC are refused until an admin loads a newer release.",
    );
    await ageState("dnc-tx", 153);
    await ageDnc(40);
    // every stale list at once, so an admin reloads them all instead of meeting the next one
    expect(await staleListRefusal(db, "DNCAndLitigation", NOW)).toBe(
      "The federal DNC list (release 2026-10-14, 40 days old; rule 31 days), the Louisiana DNC list (release 2026-10-22, 32 days old; rule 31 days) " +
        "and the Texas DNC list (release 2026-06-23, 153 days old; rule 152 days) are out of date: purges that include DNC are refused until an admin loads a newer release of each.",
    );
    await ageDnc(3);
    await ageState("dnc-la", 10);
    expect(await staleListRefusal(db, "DNCAndLitigation", NOW)).toMatch(
      /^The Texas DNC list \(release 2026-06-23, 153 days old; rule 152 days\) is out of date/,
    );
    await saveSettings(db, { refuseStaleDnc: false, resultRetentionDays: null }, admin.id);
    expect(await staleListRefusal(db, "DNCAndLitigation", NOW)).toBeNull();
  });

  it("sends the re-scrub reminder a customer asked for once, and deletes old result files but never certificates", async () => {
    const db = handle().db;
    const user = await createSignedInUser(db, { email: "clock-user@example.com", role: "NormalUser", firstName: "U", lastName: "S", company: "Co" });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "retention-"));
    const file = path.join(dir, "good.csv");
    fs.writeFileSync(file, "Number\n2125550101\n");
    const job = await db
      .insertInto("scrub_jobs")
      .values({
        user_id: user.id,
        file_name: "old.csv",
        source: "web",
        suppression_type: "DNCAndLitigation",
        status: "completed",
        input_path: "",
        finished_at: new Date(NOW.getTime() - 40 * DAY),
        valid_until: new Date(NOW.getTime() + 2 * DAY),
        remind_at: new Date(NOW.getTime() - 60_000),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.insertInto("result_files").values({ job_id: job.id, user_id: user.id, kind: "good", file_name: "old_Good.csv", path: file }).execute();
    await db.insertInto("scrub_certificates").values({ job_id: job.id, user_id: user.id, document: "{}", key_id: "k" }).execute();
    await saveSettings(db, { refuseStaleDnc: false, resultRetentionDays: 30 }, user.id);

    const r = await runProofHousekeeping(db, NOW);
    expect(r).toMatchObject({ reminded: 1, filesDeleted: 1 });
    expect((await runProofHousekeeping(db, NOW)).reminded).toBe(0);
    const mail = await listOutbox(db, { to: "clock-user@example.com" });
    expect(mail.map((m) => m.subject)).toEqual([`Re-scrub old.csv before ${formatDate(new Date(NOW.getTime() + 2 * DAY))}`]);
    expect(fs.existsSync(file)).toBe(false);
    expect(await db.selectFrom("result_files").select("id").where("job_id", "=", job.id).execute()).toEqual([]);
    expect(await db.selectFrom("scrub_certificates").select("job_id").where("job_id", "=", job.id).execute()).toHaveLength(1);
    const row = await db.selectFrom("scrub_jobs").select("results_deleted_at").where("id", "=", job.id).executeTakeFirstOrThrow();
    expect(row.results_deleted_at?.toISOString()).toBe(NOW.toISOString());
  });
});
