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

  // a bad entry, and a number with none
  await page.getByLabel("Phone number").fill("12");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("number-error")).toBeVisible();
  await page.getByLabel("Phone number").fill("2125550000");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("calls-empty")).toContainText("No calls or texts recorded for 2125550000.");
  expect(await horizontalOverflow(page)).toBe(0);
});
