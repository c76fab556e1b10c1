import fs from "node:fs";
import { expect, test } from "./fixtures";
import { signInAsAdmin } from "./helpers";
import { horizontalOverflow } from "./screens";

/*
 * Call History (issue #46, decision 185 "The screen"), JavaScript on and off, at 390 px: a bad call log is refused
 * whole with its lines named, a log whose columns are not recognised is mapped by hand, a good one is imported, and
 * the number's counts and rows are shown.
 */

test.use({ viewport: { width: 390, height: 844 } });

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

test("import a call log, then see a number's counts and records", async ({ page }) => {
  const number = `415555${String(2000 + Math.floor(Math.random() * 1000))}`;
  const tag = Date.now().toString(36);
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("navigation").getByRole("link", { name: "Call History" }).first().click();
  await expect(page).toHaveURL(/\/call-history$/);
  await expect(page.getByRole("heading", { name: "Call History", level: 1 })).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);

  // a bad file: nothing recorded, the lines named
  await page.getByLabel("Call log file").setInputFiles({
    name: "bad.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`number,at,outcome\n${number},${ago(10)},connected\n${number},yesterday,connected\n`),
  });
  await page.getByRole("button", { name: "Import Calls" }).click();
  await expect(page.getByTestId("call-import-errors")).toContainText("Line 3, at:");
  await expect(page.getByTestId("call-import-errors")).toContainText("Nothing was recorded.");
  expect(await horizontalOverflow(page)).toBe(0);

  // columns not known by their names: chosen by hand
  await page.getByLabel("Call log file").setInputFiles({
    name: "dialer.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`Tel,When,Result\n${number},${ago(120)},attempted\n`),
  });
  await page.getByRole("button", { name: "Import Calls" }).click();
  const mapping = page.getByTestId("call-mapping-form");
  await expect(mapping).toContainText("dialer.csv");
  await mapping.getByLabel("Number (required)").selectOption("Tel");
  await mapping.getByLabel("Instant (required)").selectOption("When");
  await mapping.getByLabel("Outcome (required)").selectOption("Result");
  expect(await horizontalOverflow(page)).toBe(0);
  await mapping.getByRole("button", { name: "Import Calls" }).click();
  await expect(page.getByText("1 recorded, 0 repeats ignored.")).toBeVisible();

  // a log by its column names: two calls and a text, one repeated dialer id
  const csv = [
    "number,at,outcome,channel,subject,dialer_call_id",
    `${number},${ago(30)},connected,call,Spring webinar,${tag}-1`,
    `${number},${ago(60)},attempted,text,Spring webinar,${tag}-2`,
    `${number},${ago(30)},connected,call,Spring webinar,${tag}-1`,
    `${number},${ago(3 * 24 * 60)},conversation,call,,${tag}-3`,
  ].join("\n");
  await page.getByLabel("Call log file").setInputFiles({ name: "calls.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Import Calls" }).click();
  await expect(page.getByText("Calls Imported")).toBeVisible();
  await expect(page.getByText("3 recorded, 1 repeat ignored.")).toBeVisible();

  // the number's history
  await page.getByLabel("Phone number").fill(`(${number.slice(0, 3)}) ${number.slice(3, 6)}-${number.slice(6)}`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\?number=/);
  await expect(page.getByTestId("calls-last-24-hours")).toContainText("3");
  await expect(page.getByTestId("calls-last-24-hours")).toContainText("2 calls, 1 text");
  await expect(page.getByTestId("calls-last-7-days")).toContainText("4");
  await expect(page.getByTestId("calls-total")).toHaveText("4");
  await expect(page.getByTestId("call-row")).toHaveCount(4);
  await expect(page.getByTestId("call-row").first()).toContainText(`${tag}-1`);
  await expect(page.getByTestId("call-row").first()).toContainText("Spring webinar");
  expect(await horizontalOverflow(page)).toBe(0);

  // the number's dossier (issue #47): a PDF for people and the JSON, downloaded by a plain form
  const dossier = page.getByTestId("dossier-form");
  await expect(dossier).toContainText(`Dossier of ${number}`);
  const [pdf] = await Promise.all([page.waitForEvent("download"), dossier.getByRole("button", { name: "Download PDF" }).click()]);
  expect(pdf.suggestedFilename()).toMatch(new RegExp(`^dossier-${number}-\\d{4}-\\d{2}-\\d{2}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
  expect(
    fs
      .readFileSync((await pdf.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");
  const [json] = await Promise.all([page.waitForEvent("download"), dossier.getByRole("button", { name: "Download JSON" }).click()]);
  const doc = JSON.parse(fs.readFileSync((await json.path())!, "utf8"));
  expect(doc).toMatchObject({ format: "number-dossier/1", number });
  expect(doc.calls).toHaveLength(4);

  // a bad entry, and a number with none
  await page.getByLabel("Phone number").fill("12");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("number-error")).toBeVisible();
  await page.getByLabel("Phone number").fill("2125550000");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("calls-empty")).toContainText("No calls or texts recorded for 2125550000.");
  expect(await horizontalOverflow(page)).toBe(0);
});

test("the wizard's purpose: debt collection holds a number over Regulation F's seven calls on its row's debt, telemarketing does not", async ({
  page,
}, info) => {
  const line = () => String(2000 + Math.floor(Math.random() * 7000));
  const [held, free] = [`415556${line()}`, `415557${line()}`];
  const tag = `${Date.now().toString(36)}-${info.project.name}`;
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  // seven calls to each number in the last two days, all about debt D-1
  const calls = ["number,at,outcome,channel,subject,dialer_call_id,debt_id"];
  for (const n of [held, free]) for (let i = 0; i < 7; i++) calls.push(`${n},${ago(60 + i * 10)},attempted,call,Collections,${tag}-${n}-${i},D-1`);
  await page.goto("/call-history");
  await page.getByLabel("Call log file").setInputFiles({ name: "debt-calls.csv", mimeType: "text/csv", buffer: Buffer.from(calls.join("\n")) });
  await page.getByRole("button", { name: "Import Calls" }).click();
  await expect(page.getByText("14 recorded, 0 repeats ignored.")).toBeVisible();

  // the file: the first number's row is about D-1, the second's about another debt
  const scrub = async (purpose: "Telemarketing" | "Debt collection") => {
    await page.goto("/purge?step=4&type=LitigationOnly&mode=csv");
    const csv = ["Name,Phone,Debt", `Ann,${held},D-1`, `Bob,${free},D-2`].join("\n");
    await page.getByLabel("CSV file").setInputFiles({ name: `debts-${tag}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Step 5 of 6: Column Selection")).toBeVisible();
    const choice = page.getByTestId("calls-choice");
    await expect(choice).toBeHidden();
    await page.getByRole("checkbox", { name: /Add calling times/ }).check();
    await expect(choice).toBeVisible();
    await choice.getByRole("radio", { name: new RegExp(`^${purpose}`) }).check();
    if (purpose === "Debt collection") await choice.getByLabel("Debt id column").selectOption("Debt");
    expect(await horizontalOverflow(page)).toBe(0);
    await page.getByRole("button", { name: "Start Purging" }).click();
    await expect(page.getByTestId("results")).toBeVisible({ timeout: 30_000 });
    const href = await page.getByTestId("download-good").first().getAttribute("href");
    const lines = (await (await page.request.get(href!)).text()).trim().split("\n");
    expect(lines[0]).toBe("Name,Phone,Debt,phone_e164,time_zone,callable_now,next_call_at,next_call_local,calling_note,calls_24h,calls_7d");
    return { counted: page.getByTestId("calls-counted"), ann: lines.find((l) => l.startsWith("Ann,"))!, bob: lines.find((l) => l.startsWith("Bob,"))! };
  };

  const debt = await scrub("Debt collection");
  await expect(debt.counted).toContainText("debt collection limits");
  await expect(debt.counted).toContainText("1 held back by a call limit");
  expect(debt.ann).toMatch(/,no,.*7 calls in 7 days about debt .*12 CFR 1006\.14\(b\)\(2\)\(i\)\(A\).*,7,7$/);
  // the same seven calls were about D-1, not the row's D-2: not held by them
  expect(debt.bob).not.toContain("12 CFR 1006.14");
  expect(debt.bob).toMatch(/,7,7$/);
  expect(await horizontalOverflow(page)).toBe(0);

  const sales = await scrub("Telemarketing");
  await expect(sales.counted).toContainText("telemarketing limits");
  await expect(sales.counted).toContainText("0 held back by a call limit");
  expect(sales.ann).not.toContain("12 CFR 1006.14");
});
