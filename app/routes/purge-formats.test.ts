import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * #15 through the purge wizard's routes and the public API, with the real engine: the column step says what the
 * file was read as; a workbook's sheet is picked with a GET parameter (works without JavaScript), changes the
 * preview and reaches the job, so the scrub reads that sheet; the API takes `sheet` and reports `input`.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "purge-formats-"));
process.env.DATA_DIR = dataDir;

import { useAppTestDb } from "../../tests/setup/db";
import { makeRequest, testContext } from "../../tests/setup/request";
import { createUser, run } from "../../tests/fixtures/purge";
import { apiRequest, bodyOf, makeKey, makeUser } from "../../tests/api/helpers";
import { rawXlsxBytes, sheetXml, writeGzip, writeGzipBomb, writeUtf16, writeXlsx } from "scrub-service/testing";
import { getScrubService } from "~/utils/scrub.server";
import { inputSummary } from "~/utils/format";
import { action, loader } from "~/routes/_app.purge/route";
import * as scrubs from "./api.v1.scrubs._index";

const { handle } = useAppTestDb();
let user: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  user = await createUser(handle().db, { role: "UnlimitedUser", firstName: "Fe", lastName: "Formats" });
});
afterAll(async () => {
  await (await getScrubService()).close();
});

const tmp = (name: string) => path.join(dataDir, name);

function uploadRequest(file: string, name = path.basename(file)) {
  const fd = new FormData();
  fd.append("intent", "upload");
  fd.append("mode", "csv");
  fd.append("file", new Blob([new Uint8Array(fs.readFileSync(file))]), name);
  return new Request("http://localhost/purge?step=4&mode=csv", { method: "POST", body: fd, headers: { Cookie: user.cookie } });
}
function location(r: unknown): URL {
  expect(r).toBeInstanceOf(Response);
  return new URL((r as Response).headers.get("Location")!, "http://localhost");
}
type Page = Exclude<Awaited<ReturnType<typeof loader>>, Response>;
async function page(url: URL | string): Promise<Page> {
  const u = typeof url === "string" ? url : url.pathname + url.search;
  return (await run(() => loader({ request: makeRequest(u, { cookie: user.cookie }), params: {}, context: testContext }))) as Page;
}
async function upload(file: string): Promise<URL> {
  return location(await run(() => action({ request: uploadRequest(file), params: {}, context: testContext })));
}

describe("the column step says what the file was read as", () => {
  it("a UTF-16LE tab file and a gzip-compressed CSV", async () => {
    const utf16 = writeUtf16(tmp("unicode.txt"), "Name\tPhone\r\nJosé\t2125552101\r\n");
    const p1 = await page(await upload(utf16));
    expect(inputSummary(p1.wizard!.preview!.input!)).toBe("CSV, UTF-16LE, tab-delimited");
    expect(p1.wizard!.preview!.rows[0]).toEqual(["José", "2125552101"]);
    const gz = await writeGzip(tmp("leads.csv.gz"), ["Phone,Name\n", "2125552101,Ann\n"]);
    expect(inputSummary((await page(await upload(gz))).wizard!.preview!.input!)).toBe("gzip-compressed CSV, UTF-8, comma-delimited");
  });

  it("a workbook of two sheets: the first by default, the second picked by ?sheet=, scrubbed from that sheet", async () => {
    const xlsx = await writeXlsx(tmp("two.xlsx"), [
      { name: "Notes", rows: [["Note"], ["exported 2026-11-20"]] },
      {
        name: "Leads",
        rows: [
          ["Name", "Mobile", "City"],
          ["José", 3055552102, "Miami"],
          ["Ann", 2125552101, "New York"],
        ],
      },
    ]);
    const step5 = await upload(xlsx);
    const first = (await page(step5)).wizard!.preview!;
    expect(first.input).toMatchObject({ format: "Excel workbook (.xlsx)", sheets: ["Notes", "Leads"], sheet: "Notes" });
    expect(inputSummary(first.input!)).toBe("Excel workbook (.xlsx), sheet Notes");
    expect(first.headers).toEqual(["Note"]);

    // the sheet picker is a GET form: the URL carries the sheet
    const picked = new URL(step5);
    picked.searchParams.set("sheet", "Leads");
    picked.searchParams.delete("column");
    const second = await page(picked);
    expect(second.wizard!.state.sheet).toBe("Leads");
    expect(second.wizard!.preview!.headers).toEqual(["Name", "Mobile", "City"]);
    expect(second.wizard!.preview!.phoneColumn).toBe("Mobile");
    expect(inputSummary(second.wizard!.preview!.input!)).toBe("Excel workbook (.xlsx), sheet Leads");
    const missing = new URL(step5);
    missing.searchParams.set("sheet", "Nope");
    expect((await page(missing)).wizard!.previewError).toBe('The workbook has no sheet named "Nope" (its sheets: Notes, Leads).');

    // Start Purging posts the sheet with the rest of the state (hidden fields)
    const started = await run(() =>
      action({
        request: makeRequest(picked.pathname + picked.search, {
          cookie: user.cookie,
          form: { intent: "start", mode: "csv", upload: picked.searchParams.get("upload")!, sheet: "Leads", column: "Mobile" },
        }),
        params: {},
        context: testContext,
      }),
    );
    const jobId = location(started).searchParams.get("job")!;
    expect(await (await getScrubService()).waitFor("job", jobId, 30_000)).toBe("completed");
    const job = await handle()
      .db.selectFrom("scrub_jobs")
      .select(["input_sheet", "input_format", "good_count", "usage_reserved"])
      .where("id", "=", jobId)
      .executeTakeFirstOrThrow();
    expect([job.input_sheet, job.input_format, Number(job.good_count), Number(job.usage_reserved)]).toEqual(["Leads", "Excel workbook (.xlsx)", 2, 2]);
    const good = await handle().db.selectFrom("result_files").select("path").where("job_id", "=", jobId).where("kind", "=", "good").executeTakeFirstOrThrow();
    expect(fs.readFileSync(good.path, "utf8")).toBe("Name,Mobile,City,phone_e164\nJosé,3055552102,Miami,+13055552102\nAnn,2125552101,New York,+12125552101\n");

    // a sheet the workbook does not have: refused with the reader's message, no job
    const refused = await run(() =>
      action({
        request: makeRequest("/purge", {
          cookie: user.cookie,
          form: { intent: "start", mode: "csv", upload: picked.searchParams.get("upload")!, sheet: "Nope", column: "Mobile" },
        }),
        params: {},
        context: testContext,
      }),
    );
    expect((refused as { data: { error: { message: string } } }).data.error.message).toBe('The workbook has no sheet named "Nope" (its sheets: Notes, Leads).');
  });
});

describe("the API takes `sheet` and reports what it read", () => {
  it("scrubs the named sheet of an .xlsx; an unknown sheet is a 422 naming the sheets", async () => {
    const userId = await makeUser(handle().db, { plan: "business" });
    const { key } = await makeKey(handle().db, userId);
    const xlsx = await writeXlsx(tmp("api.xlsx"), [
      { name: "Cover", rows: [["Title"], ["x"]] },
      { name: "Data", rows: [["Phone"], [4155552103]] },
    ]);
    const post = (sheet: string) => {
      const form = new FormData();
      form.set("file", new File([new Uint8Array(fs.readFileSync(xlsx))], "api.xlsx"));
      form.set("suppression_type", "LitigationOnly");
      form.set("sheet", sheet);
      return scrubs.action({ request: apiRequest("/api/v1/scrubs", { key, form }), params: {}, context: testContext });
    };
    const res = await post("Data");
    expect(res.status).toBe(202);
    const { job } = await bodyOf(res);
    expect(await (await getScrubService()).waitFor("job", job.id, 30_000)).toBe("completed");
    const done = await handle().db.selectFrom("scrub_jobs").selectAll().where("id", "=", job.id).executeTakeFirstOrThrow();
    expect([done.input_format, done.input_encoding, done.input_delimiter, done.input_sheet, Number(done.good_count)]).toEqual([
      "Excel workbook (.xlsx)",
      "UTF-8",
      "comma",
      "Data",
      1,
    ]);
    const bad = await post("Nope");
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bodyOf(bad))).toContain('The workbook has no sheet named \\"Nope\\" (its sheets: Cover, Data).');
  });
});

describe("hostile files are refused at submission with a clear message, nothing reserved (issue #26)", () => {
  it("the workbook with a cell at ZZZZZZ and a gzip bomb: 422 through the API, the wizard says why; the process serves on", async () => {
    const userId = await makeUser(handle().db, { plan: "business" });
    const { key } = await makeKey(handle().db, userId);
    const zzz = tmp("zzz.xlsx");
    fs.writeFileSync(zzz, rawXlsxBytes({ sheet: sheetXml([`<row r="1"><c r="A1" t="inlineStr"><is><t>Phone</t></is></c><c r="ZZZZZZ1"><v>1</v></c></row>`]) }));
    // the bomb gets past the preview (its first 256 KB are rows) and is refused by the count at submission
    const bomb = writeGzipBomb(tmp("bomb.csv.gz"), "2125552101\n", 64 * 1024 * 1024, 1);
    const post = (file: string) => {
      const form = new FormData();
      form.set("file", new File([new Uint8Array(fs.readFileSync(file))], path.basename(file)));
      form.set("suppression_type", "LitigationOnly");
      return scrubs.action({ request: apiRequest("/api/v1/scrubs", { key, form }), params: {}, context: testContext });
    };
    const refusedZzz = await post(zzz);
    expect(refusedZzz.status).toBe(422);
    expect(JSON.stringify(await bodyOf(refusedZzz))).toContain('a cell is at \\"ZZZZZZ1\\", outside Excel\'s sheet');
    const refusedBomb = await post(bomb);
    expect(refusedBomb.status).toBe(422);
    expect(JSON.stringify(await bodyOf(refusedBomb))).toContain("The compressed file was refused");
    const jobs = await handle().db.selectFrom("scrub_jobs").select("id").where("user_id", "=", userId).execute();
    expect(jobs).toEqual([]);

    // the wizard: the upload step answers with the reader's words
    const step = await run(() => action({ request: uploadRequest(zzz), params: {}, context: testContext }));
    const message =
      step instanceof Response ? (await page(location(step))).wizard!.previewError : (step as { data: { error: { message: string } } }).data.error.message;
    expect(message).toMatch(/a cell is at "ZZZZZZ1", outside Excel's sheet/);
    // and the same process goes on serving: a good file still previews
    const ok = await writeGzip(tmp("ok.csv.gz"), ["Phone\n", "2125552101\n"]);
    expect((await page(await upload(ok))).wizard!.preview!.rows).toEqual([["2125552101"]]);
  });
});
