import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { makeRequest } from "../../tests/setup/request";
import { callRoute, createSignedInUser, statusOf } from "../../tests/setup/routes";
import type { RoleName } from "db/schema";

// Before anything reads the environment: uploads go to a fresh directory, and a small cap makes "too large" testable.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "containers-test-"));
process.env.DATA_DIR = dataDir;
process.env.MAX_UPLOAD_BYTES = "4096";

const { getSession } = await import("~/utils/session.server");
const { getScrubService } = await import("~/utils/scrub.server");
const { createBankTransferTransaction, markTransactionPaid } = await import("~/models/transaction.server");
const containers = await import("~/routes/_app.containers._index/route");
const containerLoad = await import("./_app.containers.loads.$loadId");
const dnc = await import("~/routes/_app.dnc._index/route");
const dncLoad = await import("./_app.dnc.loads.$loadId");
const listUploads = await import("./resources.list-uploads");

const { handle } = useAppTestDb();
const db = () => handle().db;

afterAll(async () => {
  await (await getScrubService()).close();
});

let seq = 0;
async function signedInUser(role: RoleName = "NormalUser") {
  seq++;
  return createSignedInUser(db(), { email: `c${seq}@containers.test`, role, firstName: "Cam", lastName: `N${seq}`, company: "Acme" });
}

let superAdminId = "";
async function withPlan(userId: string, planId = "beginner") {
  const { transaction } = await createBankTransferTransaction(db(), { userId, planId });
  await markTransactionPaid(db(), { id: transaction.id, adminId: superAdminId });
}

const run = callRoute;
/** What the database holds for a list (migration 0022's list_block_numbers expands its exchange blocks). */
async function numbersOnList(listId: number): Promise<number[]> {
  const r = await sql<{ number: string }>`select number from list_block_numbers(${listId}) order by number`.execute(db());
  return r.rows.map((x) => Number(x.number));
}
async function numbersOfKind(kind: string): Promise<number[]> {
  const list = await db()
    .selectFrom("lists")
    .select("id")
    .where("kind", "=", kind as never)
    .executeTakeFirstOrThrow();
  return numbersOnList(list.id);
}
function bodyOf<T>(r: unknown): T {
  const d = r as { type?: string; data?: unknown };
  return (d?.type === "DataWithResponseInit" ? d.data : r) as T;
}
function multipart(pathname: string, cookie: string, fields: Record<string, string | File>): Request {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return new Request(`http://localhost${pathname}`, { method: "POST", body: fd, headers: { Cookie: cookie } });
}
async function toastOf(cookie: string) {
  return (await getSession(makeRequest("/", { cookie }))).get("toast") as { kind: string; title: string; description?: string } | undefined;
}
type Reply = { intent: string; result: { error?: Record<string, string[]> } };
function errorsOf(r: unknown): Record<string, string[]> {
  return bodyOf<Reply>(r).result.error ?? {};
}
/** Files in the upload store, except files staged for a form that was not sent yet. */
async function uploadsLeft(): Promise<string[]> {
  const root = path.join(dataDir, "uploads");
  if (!fs.existsSync(root)) return [];
  const staged = (dir: string, name: string) => {
    const meta = path.join(dir, `${name.split(".")[0]}.json`);
    return fs.existsSync(meta) && JSON.parse(fs.readFileSync(meta, "utf8")).staged === true;
  };
  return fs.readdirSync(root).flatMap((u) =>
    fs
      .readdirSync(path.join(root, u))
      .filter((n) => !staged(path.join(root, u), n))
      .map((n) => `${u}/${n}`),
  );
}

beforeAll(async () => {
  superAdminId = (await signedInUser("SuperAdmin")).id;
});

describe("/containers", () => {
  it("redirects anonymous visitors to sign in", async () => {
    const r = await run(containers.loader, makeRequest("/containers"));
    expect(statusOf(r)).toBe(302);
    expect((r as Response).headers.get("Location")).toMatch(/^\/login\?redirectTo=%2Fcontainers/);
  });

  it("opens the subscription dialog for a user without a plan and refuses to create", async () => {
    const u = await signedInUser();
    const page = bodyOf<{ gate: { redirectTo: string } | null; containers: unknown[] }>(
      await run(containers.loader, makeRequest("/containers", { cookie: u.cookie })),
    );
    expect(page.gate?.redirectTo).toBe("/containers?dialog=create-container");
    const cat = await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-category", name: "Solar" } }));
    expect(statusOf(cat)).toBe(302);
    const catId = (await db().selectFrom("categories").select("id").where("user_id", "=", u.id).executeTakeFirstOrThrow()).id;
    const r = await run(
      containers.action,
      multipart("/containers", u.cookie, { intent: "create-container", name: "Box", categoryId: catId, method: "manual", numbers: "2015552123" }),
    );
    expect(statusOf(r)).toBe(302);
    expect((r as Response).headers.get("Location")).toBe("/containers?dialog=create-container");
    expect(await db().selectFrom("lists").select("id").where("user_id", "=", u.id).execute()).toEqual([]);
    // After subscribing, the create-container dialog opens instead of the gate.
    await withPlan(u.id);
    const after = bodyOf<{ gate: unknown; dialog: string | null }>(
      await run(containers.loader, makeRequest("/containers?dialog=create-container", { cookie: u.cookie })),
    );
    expect(after.gate).toBeNull();
    expect(after.dialog).toBe("create-container");
  });

  it("creates categories (name required, unique per user) and returns to the container dialog", async () => {
    const u = await signedInUser();
    const empty = await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-category", name: " " } }));
    expect(statusOf(empty)).toBe(400);
    expect(errorsOf(empty).name).toEqual(["Category name is required"]);
    const ok = (await run(
      containers.action,
      makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-category", name: "Auto", returnTo: "create-container" } }),
    )) as Response;
    expect(ok.headers.get("Location")).toMatch(/^\/containers\?dialog=create-container&categoryId=[0-9a-f-]{36}$/);
    expect(await toastOf(u.cookie)).toMatchObject({ kind: "success", title: "Category Created" });
    const dup = await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-category", name: "auto" } }));
    expect(statusOf(dup)).toBe(409);
    const audit = await db().selectFrom("audit_log").select("action").where("actor_id", "=", u.id).execute();
    expect(audit.map((a) => a.action)).toContain("category.create");
  });

  it("validates manual entry with the spec's messages and creates a container with its numbers", async () => {
    const u = await signedInUser();
    await withPlan(u.id);
    await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-category", name: "Leads" } }));
    const catId = (await db().selectFrom("categories").select("id").where("user_id", "=", u.id).executeTakeFirstOrThrow()).id;

    const missing = await run(containers.action, multipart("/containers", u.cookie, { intent: "create-container", method: "manual", numbers: "" }));
    expect(statusOf(missing)).toBe(400);
    expect(errorsOf(missing)).toMatchObject({
      name: ["Container name is required"],
      categoryId: ["Please select a category"],
      numbers: ["You must enter at least one valid 10-digit phone number."],
    });
    const invalid = await run(
      containers.action,
      multipart("/containers", u.cookie, {
        intent: "create-container",
        name: "Box",
        categoryId: catId,
        method: "manual",
        numbers: "2015552123, 12345, 20155501ab",
      }),
    );
    expect(errorsOf(invalid).numbers).toEqual(["The following numbers are invalid (must be exactly 10 digits with no alphabets): 12345, 20155501ab"]);
    const noFile = await run(
      containers.action,
      multipart("/containers", u.cookie, { intent: "create-container", name: "Box", categoryId: catId, method: "csv", file: "upload:forged" }),
    );
    expect(errorsOf(noFile).file).toEqual(["You must upload a CSV file with phone numbers."]);

    const ok = (await run(
      containers.action,
      multipart("/containers", u.cookie, {
        intent: "create-container",
        name: "Box",
        categoryId: catId,
        description: "Do not call",
        method: "manual",
        numbers: "2015552123, 3125552199\n4155552100,2015552123",
      }),
    )) as Response;
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/containers");
    expect(await toastOf(u.cookie)).toMatchObject({ title: "Container Created", description: "3 numbers added, 1 already present." });
    const page = bodyOf<{ containers: Array<{ name: string; size: number; categoryName: string; description: string }> }>(
      await run(containers.loader, makeRequest("/containers", { cookie: u.cookie })),
    );
    expect(page.containers).toMatchObject([{ name: "Box", size: 3, categoryName: "Leads", description: "Do not call" }]);
    const audit = await db().selectFrom("audit_log").select("action").where("actor_id", "=", u.id).execute();
    expect(audit.map((a) => a.action)).toContain("container.create");
  });

  it("takes numbers typed the way people write them (#14: the same rule as the purge wizard and the pipeline)", async () => {
    const u = await signedInUser();
    await withPlan(u.id);
    await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-category", name: "Typed" } }));
    const catId = (await db().selectFrom("categories").select("id").where("user_id", "=", u.id).executeTakeFirstOrThrow()).id;
    const typed = "(201) 555-2123, +1 312.555.2199\n415\u00a0555\u00a02100 ext 7, tel:+1-617-555-2111";
    const r = (await run(
      containers.action,
      multipart("/containers", u.cookie, { intent: "create-container", name: "Typed", categoryId: catId, method: "manual", numbers: typed }),
    )) as Response;
    expect(r.status).toBe(302);
    const box = await db().selectFrom("lists").select("id").where("user_id", "=", u.id).executeTakeFirstOrThrow();
    expect(await numbersOnList(box.id)).toEqual([2015552123, 3125552199, 4155552100, 6175552111]);
    // an undialable number is refused with the spec's message, like a wrong length
    const bad = await run(
      containers.action,
      multipart("/containers", u.cookie, { intent: "add-numbers", id: String(box.id), method: "manual", numbers: "(911) 555-2123, 212-555-0123" }),
    );
    expect(errorsOf(bad).numbers?.[0]).toBe("The following numbers are invalid (must be exactly 10 digits with no alphabets): (911) 555-2123, 212-555-0123");
  });

  it("loads a CSV file through the service with a progress page, and counts it against the plan", async () => {
    const u = await signedInUser();
    await withPlan(u.id);
    await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-category", name: "Files" } }));
    const catId = (await db().selectFrom("categories").select("id").where("user_id", "=", u.id).executeTakeFirstOrThrow()).id;
    const csv = new File(["Phone\n2015552123\n(312) 555-2199\n4155552100\nnot a number\n"], "list.csv", { type: "text/csv" });
    const r = (await run(
      containers.action,
      multipart("/containers", u.cookie, { intent: "create-container", name: "From file", categoryId: catId, method: "csv", file: csv }),
    )) as Response;
    expect(r.status).toBe(302);
    const loadId = /^\/containers\/loads\/([0-9a-f-]{36})$/.exec(r.headers.get("Location") ?? "")?.[1];
    expect(loadId).toBeTruthy();
    expect(await toastOf(u.cookie)).toMatchObject({ title: "Container Created" });
    expect(await (await getScrubService()).waitFor("load", loadId!)).toBe("completed");
    const done = (await run(containerLoad.loader, makeRequest(`/containers/loads/${loadId}`, { cookie: u.cookie }), { loadId: loadId! })) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/containers");
    expect(await toastOf(u.cookie)).toMatchObject({ title: "Numbers Added", description: "From file: 3 numbers added, 1 invalid." });
    const box = await db().selectFrom("lists").select(["id", "size"]).where("user_id", "=", u.id).executeTakeFirstOrThrow();
    expect(Number(box.size)).toBe(3);

    // Add Numbers to the same container.
    const add = (await run(
      containers.action,
      multipart("/containers", u.cookie, { intent: "add-numbers", id: String(box.id), method: "manual", numbers: "6175552111,2015552123" }),
    )) as Response;
    expect(add.status).toBe(302);
    expect(await toastOf(u.cookie)).toMatchObject({ title: "Numbers Added", description: "1 number added, 1 already present." });
    const other = await signedInUser();
    expect(statusOf(await run(containerLoad.loader, makeRequest(`/containers/loads/${loadId}`, { cookie: other.cookie }), { loadId: loadId! }))).toBe(404);
    expect(statusOf(await run(containerLoad.loader, makeRequest(`/containers/loads/x`, { cookie: u.cookie }), { loadId: "x" }))).toBe(404);
  });

  it("refuses numbers over the container limit with the plan's message, keeping nothing", async () => {
    const u = await signedInUser();
    await withPlan(u.id); // Beginner: 25,000 container numbers
    await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-category", name: "Big" } }));
    const catId = (await db().selectFrom("categories").select("id").where("user_id", "=", u.id).executeTakeFirstOrThrow()).id;
    const many = Array.from({ length: 25_001 }, (_, i) => String(2_015_560_000 + i)).join(",");
    const r = await run(
      containers.action,
      multipart("/containers", u.cookie, { intent: "create-container", name: "Huge", categoryId: catId, method: "manual", numbers: many }),
    );
    expect(statusOf(r)).toBe(422);
    expect(errorsOf(r)[""]?.[0]).toMatch(/^Adding 25,001 numbers would exceed your Beginner plan's container limit/);
    expect(await db().selectFrom("lists").select("id").where("user_id", "=", u.id).execute()).toEqual([]);
  });

  it("reserves a CSV's numbers, not its header: a file that exactly fits the remaining limit is accepted", async () => {
    const u = await signedInUser();
    await withPlan(u.id); // Beginner: 25,000
    await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-category", name: "Edge" } }));
    const catId = (await db().selectFrom("categories").select("id").where("user_id", "=", u.id).executeTakeFirstOrThrow()).id;
    // 24,998 numbers already used this period (a completed load counts what it added).
    const { id: listId } = await db()
      .insertInto("lists")
      .values({ kind: "container", user_id: u.id, category_id: catId, name: "Old", description: "" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db()
      .insertInto("list_loads")
      .values({ list_id: listId, user_id: u.id, mode: "add", status: "completed", file_name: "old.csv", added: 24_998, usage_reserved: 24_998 })
      .execute();
    const fits = new File(["Phone\r\n2015552123\r\n3125552199\r\n\r\n"], "fits.csv", { type: "text/csv" });
    const ok = (await run(
      containers.action,
      multipart("/containers", u.cookie, { intent: "add-numbers", id: String(listId), method: "csv", file: fits }),
    )) as Response;
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toMatch(/^\/containers\/loads\//);
    const tooMany = new File(["Phone\n4155552100\n"], "one-more.csv", { type: "text/csv" });
    const refused = await run(
      containers.action,
      multipart("/containers", u.cookie, { intent: "add-numbers", id: String(listId), method: "csv", file: tooMany }),
    );
    expect(statusOf(refused)).toBe(422);
  });

  it("rejects an upload over MAX_UPLOAD_BYTES with a clear message and nothing on disk", async () => {
    const u = await signedInUser("UnlimitedUser");
    await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-category", name: "Cap" } }));
    const catId = (await db().selectFrom("categories").select("id").where("user_id", "=", u.id).executeTakeFirstOrThrow()).id;
    const before = await uploadsLeft();
    const big = new File([`Phone\n${"2015552123\n".repeat(500)}`], "big.csv");
    const r = await run(
      containers.action,
      multipart("/containers", u.cookie, { intent: "create-container", name: "Big", categoryId: catId, method: "csv", file: big }),
    );
    expect(statusOf(r)).toBe(413);
    expect(errorsOf(r)[""]).toEqual(["File is too large. The limit is 4 KB."]);
    expect(await uploadsLeft()).toEqual(before);
    expect(await db().selectFrom("lists").select("id").where("user_id", "=", u.id).execute()).toEqual([]);
  });

  it("keeps containers to their owner: edit, add and dialogs on another user's id give 404", async () => {
    const owner = await signedInUser("UnlimitedUser");
    const intruder = await signedInUser("UnlimitedUser");
    await run(containers.action, makeRequest("/containers", { cookie: owner.cookie, form: { intent: "create-category", name: "Mine" } }));
    const catId = (await db().selectFrom("categories").select("id").where("user_id", "=", owner.id).executeTakeFirstOrThrow()).id;
    await run(
      containers.action,
      multipart("/containers", owner.cookie, { intent: "create-container", name: "Private", categoryId: catId, method: "manual", numbers: "2015552123" }),
    );
    const box = await db().selectFrom("lists").select("id").where("user_id", "=", owner.id).executeTakeFirstOrThrow();
    const id = String(box.id);
    expect(statusOf(await run(containers.loader, makeRequest(`/containers?dialog=edit-container&id=${id}`, { cookie: intruder.cookie })))).toBe(404);
    expect(statusOf(await run(containers.loader, makeRequest(`/containers?dialog=add-numbers&id=abc`, { cookie: owner.cookie })))).toBe(404);
    const edit = await run(
      containers.action,
      makeRequest("/containers", { cookie: intruder.cookie, form: { intent: "edit-container", id, name: "Mine now", categoryId: catId } }),
    );
    expect(statusOf(edit)).toBe(404);
    const add = await run(containers.action, multipart("/containers", intruder.cookie, { intent: "add-numbers", id, method: "manual", numbers: "3125552199" }));
    expect(statusOf(add)).toBe(404);
    const intruderPage = bodyOf<{ containers: unknown[] }>(await run(containers.loader, makeRequest("/containers", { cookie: intruder.cookie })));
    expect(intruderPage.containers).toEqual([]);
    // The owner edits it; a foreign category is refused.
    await run(containers.action, makeRequest("/containers", { cookie: intruder.cookie, form: { intent: "create-category", name: "Theirs" } }));
    const foreignCat = (await db().selectFrom("categories").select("id").where("user_id", "=", intruder.id).executeTakeFirstOrThrow()).id;
    const foreign = await run(
      containers.action,
      makeRequest("/containers", { cookie: owner.cookie, form: { intent: "edit-container", id, name: "X", categoryId: foreignCat } }),
    );
    expect(statusOf(foreign)).toBe(400);
    const ok = (await run(
      containers.action,
      makeRequest("/containers", { cookie: owner.cookie, form: { intent: "edit-container", id, name: "Renamed", categoryId: catId, description: "new" } }),
    )) as Response;
    expect(ok.status).toBe(302);
    expect(await toastOf(owner.cookie)).toMatchObject({ title: "Container Updated" });
    const row = await db().selectFrom("lists").select(["name", "description", "size"]).where("id", "=", box.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "Renamed", description: "new" });
    expect(Number(row.size)).toBe(1);
  });

  it("answers nonsense with 400, never 500", async () => {
    const u = await signedInUser("UnlimitedUser");
    expect(statusOf(await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: { intent: "explode" } })))).toBe(400);
    expect(statusOf(await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: {} })))).toBe(400);
    const broken = new Request("http://localhost/containers", {
      method: "POST",
      body: "garbage",
      headers: { Cookie: u.cookie, "Content-Type": "multipart/form-data; boundary=xyz" },
    });
    expect(statusOf(await run(containers.action, broken))).toBe(400);
  });
});

describe("/dnc", () => {
  it("shows Access Denied (403) with the spec's message to non-admins, for the page and its actions", async () => {
    for (const role of ["NormalUser", "UnlimitedUser"] as const) {
      const u = await signedInUser(role);
      const r = await run(dnc.loader, makeRequest("/dnc", { cookie: u.cookie }));
      expect(statusOf(r)).toBe(403);
      expect(bodyOf<{ message: string; roles: string[] }>(r)).toMatchObject({
        accessDenied: true,
        message: "You don't have permission to access DNC Management.",
        roles: [role],
      });
      const post = await run(dnc.action, multipart("/dnc", u.cookie, { intent: "load", type: "1", mode: "add", method: "manual", numbers: "2015552123" }));
      expect(statusOf(post)).toBe(403);
    }
    const size = await db().selectFrom("lists").select("size").where("kind", "=", "dnc").executeTakeFirstOrThrow();
    expect(Number(size.size)).toBe(0);
  });

  it("lists the two fixed lists and adds, removes and replaces numbers as an admin", async () => {
    const admin = await signedInUser("Admin");
    const page = bodyOf<{ lists: Array<{ suppressionType: number; name: string; tone: string; checkedBy: string[]; phoneCount: number }> }>(
      await run(dnc.loader, makeRequest("/dnc", { cookie: admin.cookie })),
    );
    // Cards are titled with the lists' own names and say which suppression types check them (decision 126).
    expect(page.lists.slice(0, 2).map((l) => [l.suppressionType, l.name, l.tone, l.checkedBy])).toEqual([
      [0, "Litigation List", "blue", ["Litigation Only", "DNC and Litigation"]],
      [1, "DNC List", "red", ["DNC and Litigation"]],
    ]);
    // then the twelve state lists (decision 160), checked by DNC and Litigation
    expect(page.lists.slice(2, 14).map((l) => [l.suppressionType, l.tone, l.checkedBy])).toEqual(
      Array.from({ length: 12 }, (_, i) => [i + 2, "violet", ["DNC and Litigation"]]),
    );
    expect(page.lists[12].name).toBe("Texas DNC List");
    // then Canada's National DNCL (decision 179)
    expect(page.lists.slice(14).map((l) => [l.suppressionType, l.name, l.tone, l.checkedBy])).toEqual([
      [14, "Canada National DNCL", "amber", ["DNC and Litigation"]],
    ]);
    // The stored names agree with the registry (migration 0017 renamed the seeded rows).
    const stored = await db().selectFrom("lists").select(["kind", "name"]).where("kind", "in", ["litigation", "dnc"]).orderBy("suppression_type").execute();
    expect(stored).toEqual([
      { kind: "litigation", name: "Litigation List" },
      { kind: "dnc", name: "DNC List" },
    ]);
    const invalid = await run(
      dnc.action,
      multipart("/dnc", admin.cookie, { intent: "load", type: "0", mode: "add", method: "manual", numbers: "20155501234" }),
    );
    expect(errorsOf(invalid).numbers?.[0]).toBe("The following numbers are invalid (must be exactly 10 digits with no alphabets): 20155501234");

    const add = (await run(
      dnc.action,
      multipart("/dnc", admin.cookie, { intent: "load", type: "0", mode: "add", method: "manual", numbers: "2015552123,3125552199,4155552100" }),
    )) as Response;
    expect(add.headers.get("Location")).toBe("/dnc");
    expect(await toastOf(admin.cookie)).toEqual({
      kind: "success",
      title: "Numbers Added Successfully",
      description: "Numbers have been added to the DNC store.",
    });
    const remove = (await run(
      dnc.action,
      multipart("/dnc", admin.cookie, { intent: "load", type: "0", mode: "remove", method: "manual", numbers: "2015552123" }),
    )) as Response;
    expect(remove.status).toBe(302);
    expect(await toastOf(admin.cookie)).toMatchObject({ title: "DNC List Updated", description: "1 number removed." });
    const replace = (await run(
      dnc.action,
      multipart("/dnc", admin.cookie, { intent: "load", type: "0", mode: "replace", method: "manual", numbers: "6175552111" }),
    )) as Response;
    expect(replace.status).toBe(302);
    const after = bodyOf<{ lists: Array<{ phoneCount: number }> }>(await run(dnc.loader, makeRequest("/dnc", { cookie: admin.cookie })));
    expect(after.lists[0].phoneCount).toBe(1);
    expect(await numbersOfKind("litigation")).toEqual([6175552111]);
    const audit = await db().selectFrom("audit_log").select("action").where("actor_id", "=", admin.id).execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["dnc.add", "dnc.remove", "dnc.replace"]));
  });

  it("streams a file load with a progress page and edits the description", async () => {
    const admin = await signedInUser("SuperAdmin");
    const file = new File(["Phone\n2015552123\n3125552199\n"], "dnc.csv", { type: "text/csv" });
    const r = (await run(dnc.action, multipart("/dnc", admin.cookie, { intent: "load", type: "1", mode: "add", method: "csv", file }))) as Response;
    const loadId = /^\/dnc\/loads\/([0-9a-f-]{36})$/.exec(r.headers.get("Location") ?? "")?.[1];
    expect(loadId).toBeTruthy();
    expect(await (await getScrubService()).waitFor("load", loadId!)).toBe("completed");
    const done = (await run(dncLoad.loader, makeRequest(`/dnc/loads/${loadId}`, { cookie: admin.cookie }), { loadId: loadId! })) as Response;
    expect(done.headers.get("Location")).toBe("/dnc");
    expect(await toastOf(admin.cookie)).toMatchObject({ title: "Numbers Added Successfully", description: "Numbers have been added to the DNC store." });
    const user = await signedInUser();
    expect(statusOf(await run(dncLoad.loader, makeRequest(`/dnc/loads/${loadId}`, { cookie: user.cookie }), { loadId: loadId! }))).toBe(403);

    const edit = (await run(
      dnc.action,
      makeRequest("/dnc", { cookie: admin.cookie, form: { intent: "edit", type: "1", description: "Federal DNC" } }),
    )) as Response;
    expect(edit.status).toBe(302);
    expect(await toastOf(admin.cookie)).toMatchObject({ title: "DNC List Updated" });
    const page = bodyOf<{ lists: Array<{ description: string; phoneCount: number }> }>(await run(dnc.loader, makeRequest("/dnc", { cookie: admin.cookie })));
    expect(page.lists[1]).toMatchObject({ description: "Federal DNC", phoneCount: 2 });
    // The finished load's upload is deleted by the page's sweep.
    const row = await db().selectFrom("list_loads").select("input_path").where("id", "=", loadId!).executeTakeFirstOrThrow();
    expect(row.input_path).toBe("");
    expect(await uploadsLeft()).toEqual([]);
    expect(statusOf(await run(dnc.action, makeRequest("/dnc", { cookie: admin.cookie, form: { intent: "edit", type: "99" } })))).toBe(400);
  });

  it("reports a file with no valid number as Failed to add numbers.", async () => {
    const admin = await signedInUser("Admin");
    const file = new File(["Phone\nabc\n123\n"], "junk.csv", { type: "text/csv" });
    const r = (await run(dnc.action, multipart("/dnc", admin.cookie, { intent: "load", type: "0", mode: "add", method: "csv", file }))) as Response;
    const loadId = /^\/dnc\/loads\/([0-9a-f-]{36})$/.exec(r.headers.get("Location") ?? "")?.[1];
    expect(await (await getScrubService()).waitFor("load", loadId!)).toBe("completed");
    await run(dncLoad.loader, makeRequest(`/dnc/loads/${loadId}`, { cookie: admin.cookie }), { loadId: loadId! });
    expect(await toastOf(admin.cookie)).toEqual({
      kind: "error",
      title: "Failed to add numbers.",
      description: "No valid phone numbers found: 2 invalid.",
    });
  });

  it("takes formatted numbers in manual entry, like the container form and the purge wizard (#14)", async () => {
    const admin = await signedInUser("Admin");
    const add = (await run(
      dnc.action,
      multipart("/dnc", admin.cookie, {
        intent: "load",
        type: "1",
        mode: "add",
        method: "manual",
        numbers: "(202) 555-2144\n+1\u2013305\u2013555\u20132145, '7135552146",
      }),
    )) as Response;
    expect(add.headers.get("Location")).toBe("/dnc");
    expect(await numbersOfKind("dnc")).toEqual(expect.arrayContaining([2025552144, 3055552145, 7135552146]));
  });
});

describe("staged uploads (upload progress with JavaScript)", () => {
  async function stage(cookie: string, file: File) {
    const r = (await run(listUploads.action, multipart("/resources/list-uploads", cookie, { file }))) as Response;
    return { status: r.status, body: (await r.json()) as { token?: string; error?: string; fileName?: string; bytes?: number } };
  }

  it("stages a file for its user only; the form then posts the token instead of the file", async () => {
    const u = await signedInUser("UnlimitedUser");
    const other = await signedInUser("UnlimitedUser");
    const staged = await stage(u.cookie, new File(["Phone\n2015552123\n3125552199\n"], "staged.csv", { type: "text/csv" }));
    expect(staged.status).toBe(200);
    expect(staged.body).toMatchObject({ fileName: "staged.csv", bytes: 28 });
    const token = staged.body.token!;
    await run(containers.action, makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-category", name: "Staged" } }));
    const catId = (await db().selectFrom("categories").select("id").where("user_id", "=", u.id).executeTakeFirstOrThrow()).id;
    await run(containers.action, makeRequest("/containers", { cookie: other.cookie, form: { intent: "create-category", name: "Staged" } }));
    const otherCat = (await db().selectFrom("categories").select("id").where("user_id", "=", other.id).executeTakeFirstOrThrow()).id;

    // Another user cannot use the token.
    const stolen = await run(
      containers.action,
      makeRequest("/containers", {
        cookie: other.cookie,
        form: { intent: "create-container", name: "S", categoryId: otherCat, method: "csv", uploadToken: token },
      }),
    );
    expect(errorsOf(stolen).file).toEqual(["You must upload a CSV file with phone numbers."]);

    const ok = (await run(
      containers.action,
      makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-container", name: "S", categoryId: catId, method: "csv", uploadToken: token } }),
    )) as Response;
    const loadId = /^\/containers\/loads\/([0-9a-f-]{36})$/.exec(ok.headers.get("Location") ?? "")?.[1];
    expect(loadId).toBeTruthy();
    expect(await (await getScrubService()).waitFor("load", loadId!)).toBe("completed");
    const box = await db().selectFrom("lists").select("size").where("user_id", "=", u.id).executeTakeFirstOrThrow();
    expect(Number(box.size)).toBe(2);

    // A token is used once.
    const again = await run(
      containers.action,
      makeRequest("/containers", { cookie: u.cookie, form: { intent: "create-container", name: "S2", categoryId: catId, method: "csv", uploadToken: token } }),
    );
    expect(errorsOf(again).file).toEqual(["You must upload a CSV file with phone numbers."]);
  });

  it("refuses a staged file over the cap and a request without a file", async () => {
    const u = await signedInUser();
    await withPlan(u.id); // files are read only from users with a plan
    const big = await stage(u.cookie, new File(["x".repeat(5000)], "big.csv"));
    expect(big).toEqual({ status: 413, body: { error: "File is too large. The limit is 4 KB." } });
    const none = (await run(listUploads.action, makeRequest("/resources/list-uploads", { cookie: u.cookie, form: { a: "b" } }))) as Response;
    expect(none.status).toBe(400);
    const anon = (await run(listUploads.action, multipart("/resources/list-uploads", "", { file: new File(["1"], "a.csv") }))) as Response;
    expect(anon.status).toBe(302);
  });

  it("keeps at most two staged files per user", async () => {
    const u = await signedInUser();
    await withPlan(u.id);
    for (let i = 0; i < 4; i++) expect((await stage(u.cookie, new File([`Phone\n201555012${i}\n`], `f${i}.csv`))).status).toBe(200);
    const dir = path.join(dataDir, "uploads", u.id);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith(".csv"))).toHaveLength(2);
  });
});
