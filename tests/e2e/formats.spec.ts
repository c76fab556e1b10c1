import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import iconv from "iconv-lite";
import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin } from "./helpers";
import { rawXlsxBytes, sheetXml, writeXlsx, zipBytes } from "scrub-service/testing";

/*
 * #15 in the browser, JavaScript on and off: every file people have goes through the purge wizard, whose column
 * step says what it was read as; a workbook's second sheet is picked and scrubbed; the results keep every
 * input column in UTF-8. A zip bomb and a damaged file are refused with their own sentence. The FTC's files
 * load into the DNC list from DNC Management. Fixture files are generated here (nothing binary committed).
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-formats-"));

async function xlsxBuffer(): Promise<Buffer> {
  const p = path.join(tmp, `two-${Date.now()}-${Math.random()}.xlsx`);
  await writeXlsx(p, [
    { name: "Notes", rows: [["Note"], ["exported for the sales team"]] },
    {
      name: "Leads",
      rows: [
        ["Name", "Mobile", "City"],
        ["José", 3055552102, "Miami"],
        ["Zoë", 2125552101, "New York"],
      ],
    },
  ]);
  return fs.readFileSync(p);
}
const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
});

async function uploadToColumnStep(page: Page, file: { name: string; buffer: Buffer }) {
  await page.goto("/purge?step=4&type=LitigationOnly&mode=csv");
  await page.getByLabel("CSV file").setInputFiles({ ...file, mimeType: "application/octet-stream" });
  await page.getByRole("button", { name: "Next" }).click();
}

async function purgeAndReadGood(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Start Purging" }).click();
  await expect(page.getByText("Step 6 of 6: Results")).toBeVisible();
  await expect(page.getByTestId("results")).toBeVisible();
  const href = await page.getByTestId("download-good").first().getAttribute("href");
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  return res.text();
}

test("an .xlsx with two sheets: the second is picked in the column step and scrubbed; cells stay in UTF-8", async ({ page, javaScriptEnabled }) => {
  await uploadToColumnStep(page, { name: "workbook.xlsx", buffer: await xlsxBuffer() });
  await expect(page.getByText("Step 5 of 6: Column Selection")).toBeVisible();
  await expect(page.getByTestId("detected-input")).toHaveText("Read as: Excel workbook (.xlsx), sheet Notes");
  await expect(page.getByLabel("Sheet")).toHaveValue("Notes");
  await page.getByLabel("Sheet").selectOption("Leads");
  // with JavaScript the choice shows at once; without, the GET form's button does
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Show sheet" }).click();
  await expect(page.getByTestId("detected-input")).toHaveText("Read as: Excel workbook (.xlsx), sheet Leads");
  await expect(page).toHaveURL(/sheet=Leads/);
  await expect(page.getByLabel("Phone number column")).toHaveValue("Mobile");
  await expect(page.getByRole("table", { name: "File preview" })).toContainText("José");
  expect(await purgeAndReadGood(page)).toBe("Name,Mobile,City,phone_e164\nJosé,3055552102,Miami,+13055552102\nZoë,2125552101,New York,+12125552101\n");
});

test("UTF-16LE tab text, Windows-1252 CSV, .csv.gz and .zip: each is named in the column step; results are UTF-8 with every column", async ({ page }) => {
  const cases = [
    { name: "unicode.txt", buffer: utf16("Name\tPhone\tNote\r\nJosé\t2125552101\tañejo\r\n"), read: "CSV, UTF-16LE, tab-delimited" },
    { name: "windows.csv", buffer: iconv.encode("Name,Phone,Note\r\nJosé,2125552101,café\r\n", "win1252"), read: "CSV, Windows-1252, comma-delimited" },
    { name: "leads.csv.gz", buffer: zlib.gzipSync("Name,Phone,Note\nJosé,2125552101,x\n"), read: "gzip-compressed CSV, UTF-8, comma-delimited" },
    {
      name: "leads.zip",
      buffer: zipBytes([{ name: "leads.csv", data: Buffer.from("Name;Phone;Note\nJosé;2125552101;x\n") }]),
      read: "zip-compressed CSV, UTF-8, semicolon-delimited",
    },
  ];
  for (const c of cases) {
    await uploadToColumnStep(page, c);
    await expect(page.getByText("Step 5 of 6: Column Selection"), c.name).toBeVisible();
    await expect(page.getByTestId("detected-input"), c.name).toHaveText(`Read as: ${c.read}`);
    await expect(page.getByLabel("Phone number column")).toHaveValue("Phone");
    const good = await purgeAndReadGood(page);
    expect(good.replace(/^\uFEFF/, "").split("\n")[1], c.name).toMatch(/^José[,;\t]2125552101[,;\t]/);
  }
});

test("a zip bomb and a damaged workbook are refused at the upload with their own sentence", async ({ page }) => {
  const bomb = zipBytes([{ name: "big.csv", data: Buffer.alloc(64 * 1024 * 1024, 0x31) }]);
  await uploadToColumnStep(page, { name: "bomb.zip", buffer: bomb });
  await expect(page.getByTestId("purge-error")).toContainText(/The compressed file was refused: .* unpack to 64 MB/);
  await expect(page.getByText("Step 4 of 6: Upload Data")).toBeVisible();
  const damaged = (await xlsxBuffer()).subarray(0, 900);
  await uploadToColumnStep(page, { name: "broken.xlsx", buffer: damaged });
  await expect(page.getByTestId("purge-error")).toContainText("The zip file is damaged and cannot be opened");
});

test("the 1.6 KB workbook with a cell at column ZZZZZZ is refused at the upload; the server goes on serving (issue #26)", async ({ page }) => {
  const zzz = rawXlsxBytes({ sheet: sheetXml(['<row r="1"><c r="A1" t="inlineStr"><is><t>Phone</t></is></c><c r="ZZZZZZ1"><v>2125552101</v></c></row>']) });
  expect(zzz.length).toBeLessThan(2048);
  await uploadToColumnStep(page, { name: "zzz.xlsx", buffer: zzz });
  await expect(page.getByTestId("purge-error")).toContainText(`a cell is at "ZZZZZZ1", outside Excel's sheet`);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("DNC Management loads an FTC full-list .zip (NPA,NXXXXXX per area-code file) and applies a change list", async ({ page, javaScriptEnabled }) => {
  const base = 2000 + Math.floor(Math.random() * 6000);
  // area codes 212 and 305 with exchanges chosen per run so the two projects do not collide
  const nxx = 300 + Math.floor(Math.random() * 600);
  const full = zipBytes([
    { name: "212.txt", data: Buffer.from([0, 1, 2].map((i) => `212,${nxx}${String(base + i).padStart(4, "0")}`).join("\r\n") + "\r\n") },
    { name: "305.txt", data: Buffer.from([0, 1].map((i) => `305,${nxx}${String(base + i).padStart(4, "0")}`).join("\n") + "\n") },
  ]);
  await page.goto("/dnc?dialog=add&type=1");
  const add = page.getByRole("dialog", { name: "Add Numbers" });
  await add.getByText("CSV", { exact: true }).click();
  await add.getByLabel("CSV file").setInputFiles({ name: "ftc-full.zip", mimeType: "application/zip", buffer: full });
  if (javaScriptEnabled) await expect(add.getByTestId("upload-done")).toContainText("Uploaded ftc-full.zip");
  await add.getByRole("button", { name: "Add Numbers" }).click();
  // a file load runs in the background queue behind the progress page: a loaded CI machine can take longer than 10 s
  await expect(page.getByText("Numbers Added Successfully")).toBeVisible({ timeout: 30_000 });

  const changes = zlib.gzipSync(`212,${nxx}${String(base + 3).padStart(4, "0")},A,2026-11-20\n212,${nxx}${String(base).padStart(4, "0")},D,2026-11-20\n`);
  await page.goto("/dnc?dialog=changes&type=1");
  const dialog = page.getByRole("dialog", { name: "Apply FTC Change List" });
  await dialog.getByText("CSV", { exact: true }).click();
  await dialog.getByLabel("CSV file").setInputFiles({ name: "changes.txt.gz", mimeType: "application/gzip", buffer: changes });
  if (javaScriptEnabled) await expect(dialog.getByTestId("upload-done")).toContainText("Uploaded changes.txt.gz");
  await dialog.getByRole("button", { name: "Apply FTC Change List" }).click();
  await expect(page).toHaveURL(/\/dnc$/, { timeout: 30_000 });
  await expect(page.getByText(/change list: 1 added, 1 removed/).first()).toBeVisible();
});
