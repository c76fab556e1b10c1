import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { makeRequest } from "../../tests/setup/request";
import { callRoute, createSignedInUser, statusOf } from "../../tests/setup/routes";
import type { RoleName } from "db/schema";
import { writeGzip, writeXlsx, zipBytes } from "scrub-service/testing";

/*
 * #15: container and DNC loads of every input format. Plan usage is reserved from the rows the decoded file
 * holds (a .gz, an .xlsx), not from the line feeds of its compressed bytes; a file the decoders refuse gets its
 * own message at once, never a 500 or a queued load that fails later.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "containers-formats-test-"));
process.env.DATA_DIR = dataDir;

const { getScrubService } = await import("~/utils/scrub.server");
const { createBankTransferTransaction, markTransactionPaid } = await import("~/models/transaction.server");
const containers = await import("~/routes/_app.containers._index/route");
const dnc = await import("~/routes/_app.dnc._index/route");

const { handle } = useAppTestDb();
const db = () => handle().db;

afterAll(async () => {
  await (await getScrubService()).close();
});

let seq = 0;
async function signedInUser(role: RoleName = "NormalUser") {
  seq++;
  return createSignedInUser(db(), { email: `f${seq}@formats.test`, role, firstName: "Fay", lastName: `N${seq}`, company: "Acme" });
}
let superAdminId = "";
beforeAll(async () => {
  superAdminId = (await signedInUser("SuperAdmin")).id;
});

function multipart(pathname: string, cookie: string, fields: Record<string, string | File>): Request {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return new Request(`http://localhost${pathname}`, { method: "POST", body: fd, headers: { Cookie: cookie } });
}
type Reply = { intent: string; result: { error?: Record<string, string[]> } };
function errorsOf(r: unknown): Record<string, string[]> {
  const d = r as { type?: string; data?: unknown };
  return ((d?.type === "DataWithResponseInit" ? d.data : r) as Reply).result.error ?? {};
}
const fileOf = (p: string, name = path.basename(p)) => new File([new Uint8Array(fs.readFileSync(p))], name);
const tmp = (name: string) => path.join(dataDir, name);
const numbers = (n: number, from = 2_015_570_000) => Array.from({ length: n }, (_, i) => String(from + i));

/** A Beginner-plan user (25,000 container numbers) with 24,990 already used and one container. */
async function nearTheLimit() {
  const u = await signedInUser();
  const { transaction } = await createBankTransferTransaction(db(), { userId: u.id, planId: "beginner" });
  await markTransactionPaid(db(), { id: transaction.id, adminId: superAdminId });
  const { id: listId } = await db()
    .insertInto("lists")
    .values({ kind: "container", user_id: u.id, name: "Old", description: "" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db()
    .insertInto("list_loads")
    .values({ list_id: listId, user_id: u.id, mode: "add", status: "completed", file_name: "old.csv", added: 24_990, usage_reserved: 24_990 })
    .execute();
  const add = (file: File) =>
    callRoute(containers.action, multipart("/containers", u.cookie, { intent: "add-numbers", id: String(listId), method: "csv", file }));
  return { u, listId, add };
}

describe("container loads count the rows a compressed file or a workbook holds", () => {
  it("a .csv.gz of 11 numbers is refused over the 10 left (its compressed bytes hold no line feed to count); 10 fit", async () => {
    const { add } = await nearTheLimit();
    const over = await writeGzip(tmp("over.csv.gz"), ["Phone\n", ...numbers(11).map((n) => `${n}\n`)]);
    expect(fs.readFileSync(over).filter((b) => b === 10).length).toBeLessThan(11);
    const refused = await add(fileOf(over));
    expect(statusOf(refused)).toBe(422);
    expect(errorsOf(refused)[""]?.[0]).toMatch(/^Adding 11 numbers would exceed your Beginner plan's container limit/);

    const fits = await writeGzip(tmp("fits.csv.gz"), ["Phone\n", ...numbers(10).map((n) => `${n}\n`)]);
    const ok = (await add(fileOf(fits))) as Response;
    expect(ok.status).toBe(302);
    const load = await db().selectFrom("list_loads").select(["usage_reserved", "id"]).orderBy("created_at", "desc").limit(1).executeTakeFirstOrThrow();
    expect(Number(load.usage_reserved)).toBe(10);
    expect(await (await getScrubService()).waitFor("load", load.id)).toBe("completed");
  });

  it("an .xlsx of 11 numbers is refused over the 10 left, counted on its sheet's rows", async () => {
    const { add } = await nearTheLimit();
    const over = await writeXlsx(tmp("over.xlsx"), [{ name: "Leads", rows: [["Phone", "Name"], ...numbers(11, 2_015_580_000).map((n) => [Number(n), "x"])] }]);
    const refused = await add(fileOf(over));
    expect(statusOf(refused)).toBe(422);
    expect(errorsOf(refused)[""]?.[0]).toMatch(/^Adding 11 numbers would exceed your Beginner plan's container limit/);
    const fits = await writeXlsx(tmp("fits.xlsx"), [{ name: "Leads", rows: [["Phone"], ...numbers(10, 2_015_580_000).map((n) => [Number(n)])] }]);
    expect(((await add(fileOf(fits))) as Response).status).toBe(302);
  });

  it("a zip bomb and a damaged workbook get their own message, with no load queued", async () => {
    const { u, listId, add } = await nearTheLimit();
    const bomb = tmp("bomb.zip");
    fs.writeFileSync(bomb, zipBytes([{ name: "big.csv", data: Buffer.alloc(64 * 1024 * 1024, 0x31) }]));
    const refused = await add(fileOf(bomb));
    expect(statusOf(refused)).toBe(400);
    expect(errorsOf(refused).file?.[0]).toMatch(/^The compressed file was refused: .* unpack to 64 MB/);
    const damaged = tmp("damaged.xlsx");
    const good = await writeXlsx(tmp("good.xlsx"), [{ name: "S", rows: [["Phone"], [2015550100]] }]);
    fs.writeFileSync(damaged, fs.readFileSync(good).subarray(0, 900));
    const broken = await add(fileOf(damaged));
    expect(statusOf(broken)).toBe(400);
    expect(errorsOf(broken).file?.[0]).toMatch(/^The zip file is damaged and cannot be opened/);
    const loads = await db().selectFrom("list_loads").select("id").where("list_id", "=", listId).where("user_id", "=", u.id).execute();
    expect(loads).toHaveLength(1); // only the completed load the setup wrote
  });
});

describe("DNC loads of the FTC's files", () => {
  it("refuses a damaged .gz with its message before queueing; applies a change list from the dialog", async () => {
    const admin = await signedInUser("Admin");
    const gz = await writeGzip(
      tmp("ftc.txt.gz"),
      numbers(50).map((n) => `${n.slice(0, 3)},${n.slice(3)}\n`),
    );
    const cut = tmp("cut.txt.gz");
    fs.writeFileSync(cut, fs.readFileSync(gz).subarray(0, 20));
    const r = await callRoute(dnc.action, multipart("/dnc", admin.cookie, { intent: "load", type: "1", mode: "add", method: "csv", file: fileOf(cut) }));
    expect(statusOf(r)).toBe(400);
    expect(errorsOf(r).file?.[0]).toMatch(/^The gzip file is damaged/);

    const changes = await writeGzip(tmp("changes.txt.gz"), ["201,5570000,A,2026-11-20\n", "201,5570001,D,2026-11-20\n"]);
    const ok = (await callRoute(
      dnc.action,
      multipart("/dnc", admin.cookie, { intent: "load", type: "1", mode: "changes", method: "csv", file: fileOf(changes) }),
    )) as Response;
    const loadId = /^\/dnc\/loads\/([0-9a-f-]{36})$/.exec(ok.headers.get("Location") ?? "")?.[1];
    expect(loadId).toBeTruthy();
    expect(await (await getScrubService()).waitFor("load", loadId!)).toBe("completed");
    const load = await db().selectFrom("list_loads").selectAll().where("id", "=", loadId!).executeTakeFirstOrThrow();
    expect([load.mode, Number(load.added), Number(load.not_present), Number(load.usage_reserved)]).toEqual(["changes", 1, 1, 0]);
    expect(statusOf(await callRoute(dnc.loader, makeRequest("/dnc", { cookie: admin.cookie })))).toBe(200);
  });
});
