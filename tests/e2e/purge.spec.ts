import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "./fixtures";
import { DEMO_ADMIN, signIn, signInAsAdmin, signUpAndConfirm } from "./helpers";

/*
 * The purge wizard, history and dashboard, as the demo admin (no plan needed), with JavaScript on and off.
 * The js and no-js projects share one data directory, so dashboard and history figures are checked as
 * the change a purge makes, read before and after.
 */

const CSV = ["Name,Mobile Phone,City", "Ann,(202) 555-2101,DC", "Bob,202-555-2101,DC", "Cy,not a phone,LA", "Dee,310.555.2199,LA", "Eve,1.23457E+9,NY"].join(
  "\n",
);

function numberOf(text: string | null): number {
  return Number((text ?? "").replace(/[^\d.]/g, ""));
}

async function cardValue(page: Page, testId: string): Promise<number> {
  return numberOf(await page.getByTestId(`${testId}-value`).textContent());
}

async function next(page: Page) {
  await page.getByRole("button", { name: "Next" }).click();
}

async function fetchDownload(page: Page, testId: string) {
  const href = await page.getByTestId(testId).first().getAttribute("href");
  expect(href).toMatch(/^\/downloads\/[0-9a-f-]{36}$/);
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  return { text: await res.text(), disposition: res.headers()["content-disposition"] };
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a CSV purge walks all six steps and gives good, bad and invalid files; history and dashboard count it", async ({ page }, info) => {
  const fileName = `leads-${info.project.name}-${Date.now()}.csv`;

  await page.goto("/dashboard");
  const purgedBefore = await cardValue(page, "card-purged");
  await page.goto("/history");
  const operationsBefore = await cardValue(page, "stat-operations");
  const processedBefore = await cardValue(page, "stat-processed");

  await page.goto("/purge");
  await expect(page.getByRole("heading", { name: "Purge Your Data" })).toBeVisible();
  await expect(page.getByText("Step 1 of 6: Suppression Type")).toBeVisible();
  await expect(page.getByRole("radio", { name: /DNC and Litigation/ })).toBeChecked();
  await next(page);

  await expect(page.getByText("Step 2 of 6: Choose Category")).toBeVisible();
  await expect(page).toHaveURL(/type=DNCAndLitigation/);
  await next(page);
  await expect(page.getByText("Step 3 of 6: Select Container")).toBeVisible();
  await next(page);

  await expect(page.getByText("Step 4 of 6: Upload Data")).toBeVisible();
  // Next without a file: the spec's message.
  await next(page);
  await expect(page.getByText("Validation Error")).toBeVisible();
  await expect(page.getByText("Please select a CSV file")).toBeVisible();
  // A file with a header and no rows is refused with the spec's message (XHR answer with JS, the page without).
  await page.getByLabel("CSV file").setInputFiles({ name: "empty.csv", mimeType: "text/csv", buffer: Buffer.from("Phone,Name\n") });
  await next(page);
  await expect(page.getByText("CSV file appears to be empty or has no data rows")).toBeVisible();
  await expect(page.getByText("Step 4 of 6: Upload Data")).toBeVisible();
  await page.getByLabel("CSV file").setInputFiles({ name: fileName, mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await next(page);

  await expect(page.getByText("Step 5 of 6: Column Selection")).toBeVisible();
  await expect(page.getByLabel("Phone number column")).toHaveValue("Mobile Phone");
  await expect(page.getByRole("table", { name: "File preview" })).toContainText("(202) 555-2101");
  // Previous to step 4 keeps the uploaded file; Next goes on without uploading again.
  await page.getByRole("link", { name: "Previous" }).click();
  await expect(page.getByTestId("current-upload")).toContainText(fileName);
  await next(page);
  await expect(page.getByLabel("Phone number column")).toHaveValue("Mobile Phone");
  await page.getByRole("button", { name: "Start Purging" }).click();

  await expect(page.getByText("Step 6 of 6: Results")).toBeVisible();
  await expect(page.getByTestId("results")).toBeVisible();
  await expect(page.getByTestId("count-good-value")).toHaveText("2");
  await expect(page.getByTestId("count-bad-value")).toHaveText("1");
  await expect(page.getByTestId("count-invalid-value")).toHaveText("2");
  await expect(page.getByRole("table", { name: "Reasons" })).toContainText("Duplicate in file");

  // Good by clicking (a real browser download), bad and invalid through the same authorized route.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-good").click()]);
  const base = fileName.replace(/\.csv$/, "");
  expect(download.suggestedFilename()).toBe(`${base}-good.csv`);
  const good = fs.readFileSync((await download.path())!, "utf8");
  expect(good).toContain("Ann,(202) 555-2101,DC");
  expect(good).toContain("Dee,310.555.2199,LA");
  expect(good).not.toContain("Bob");
  const bad = await fetchDownload(page, "download-bad");
  expect(bad.disposition).toContain(`filename="${base}-bad.csv"`);
  expect(bad.text).toContain("Bob,202-555-2101,DC");
  expect(bad.text).toContain("duplicate");
  const invalid = await fetchDownload(page, "download-invalid");
  expect(invalid.text).toContain("not a phone");
  expect(invalid.text).toContain("1.23457E+9");

  // Previous from Results (CSV) returns to Column Selection.
  await page.getByRole("link", { name: "Previous" }).click();
  await expect(page.getByText("Step 5 of 6: Column Selection")).toBeVisible();

  await page.goto("/history");
  await expect(page.getByRole("heading", { name: "Recent Operations" })).toBeVisible();
  expect(await cardValue(page, "stat-operations")).toBe(operationsBefore + 1);
  expect(await cardValue(page, "stat-processed")).toBe(processedBefore + 5);
  const row = page.getByTestId("history-row").filter({ hasText: fileName });
  await expect(row).toContainText("DNC and Litigation");
  await expect(row).toContainText("Completed");
  await expect(row).toContainText("Demo Admin");
  await expect(row.locator("td").nth(3)).toHaveText("5");
  // one menu per row (#44): results, downloads, certificate
  await row.getByLabel(`Actions for ${fileName}`).click();
  await expect(row.getByRole("link", { name: "Open results" })).toHaveAttribute("href", /^\/purge\?step=6&job=[0-9a-f-]{36}$/);
  await expect(row.getByTestId("download-good")).toBeVisible();
  await expect(row.getByTestId("download-bad")).toContainText("Bad");
  await expect(row.getByTestId("download-invalid")).toContainText("Invalid");
  await expect(page.getByTestId("pagination-summary")).toContainText(/Showing 1 to \d+ of \d+ operations/);

  // A result file gone from disk: its link lands on History with the spec's alert (JS on and off), not nothing.
  // (tests run one at a time, so the newest job directory is this purge's)
  const jobsDir = path.join(process.env.E2E_DATA_DIR!, "jobs");
  const newest = fs
    .readdirSync(jobsDir)
    .map((id) => path.join(jobsDir, id, "invalid.csv"))
    .filter((f) => fs.existsSync(f))
    .sort((x, y) => fs.statSync(y).mtimeMs - fs.statSync(x).mtimeMs)[0];
  expect(fs.readFileSync(newest, "utf8")).toBe(invalid.text);
  fs.rmSync(newest);
  await row.getByTestId("download-invalid").click();
  await expect(page).toHaveURL(/\/history$/);
  await expect(page.getByText("Failed to download file")).toBeVisible();
  await expect(page.getByText("This result file is no longer available. Run the purge again to produce it.")).toBeVisible();

  await page.goto("/dashboard");
  expect(await cardValue(page, "card-purged")).toBe(purgedBefore + 5);
  await expect(page.getByTestId("card-success")).toContainText(/\d+\.\d%/);
  await expect(page.getByTestId("card-active-users")).toBeVisible();
  await expect(page.getByTestId("usage-suppression").getByTestId("available")).toHaveText("Unlimited");
  await expect(page.getByTestId("recent-activity")).toContainText(`Started a purge "${fileName}"`);
  await expect(page.getByRole("img", { name: /Numbers purged per day over the last 30 days/ })).toBeVisible();
});

test("a manual purge starts from step 4 and Previous returns to it with the numbers", async ({ page }) => {
  await page.goto("/purge?step=4&mode=manual");
  await expect(page.getByText("Step 4 of 6: Upload Data")).toBeVisible();
  const box = page.getByLabel("Phone numbers");

  await page.getByRole("button", { name: "Start Purging" }).click();
  await expect(page.getByText("Validation Error")).toBeVisible();
  await expect(page.getByText("Please enter phone numbers")).toBeVisible();

  await box.fill("2025552101, 12, ab, 99, x");
  await page.getByRole("button", { name: "Start Purging" }).click();
  await expect(page.getByText("Invalid phone numbers found: 12, ab, 99...")).toBeVisible();

  await box.fill("(212) 555-2101\n212.555.2101, 3125552188");
  await page.getByRole("button", { name: "Start Purging" }).click();
  await expect(page.getByText("Step 6 of 6: Results")).toBeVisible();
  await expect(page.getByTestId("count-good-value")).toHaveText("2");
  await expect(page.getByTestId("count-bad-value")).toHaveText("1");
  await expect(page.getByTestId("count-invalid-value")).toHaveText("0");
  const good = await fetchDownload(page, "download-good");
  expect(good.text.trim().split("\n")).toEqual(["Number,phone_e164", "2125552101,+12125552101", "3125552188,+13125552188"]);
  expect(good.disposition).toContain('filename="manual-entry-good.csv"');

  await page.getByRole("link", { name: "Previous" }).click();
  await expect(page.getByText("Step 4 of 6: Upload Data")).toBeVisible();
  await expect(page.getByLabel("Phone numbers")).toHaveValue("2125552101\n2125552101\n3125552188");

  await page.goto("/purge?step=6&job=00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
});

test("Start New Purge resets the wizard", async ({ page }) => {
  await page.goto("/purge?step=4&mode=manual&type=DNCAndLitigation");
  await page.getByLabel("Phone numbers").fill("2025552111");
  await page.getByRole("button", { name: "Start Purging" }).click();
  await expect(page.getByTestId("results")).toBeVisible();
  await page.getByRole("link", { name: "Start New Purge" }).click();
  await expect(page).toHaveURL(/\/purge$/);
  await expect(page.getByText("Step 1 of 6: Suppression Type")).toBeVisible();
  await expect(page.getByRole("radio", { name: /DNC and Litigation/ })).toBeChecked();
});

test("step 1 starts on DNC and Litigation (decision 124); Your choices shows the selected type, live with JS and after Next without", async ({
  page,
  javaScriptEnabled,
}) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/purge");
    const chosen = page.getByTestId("choice-suppression-type");
    await expect(page.getByRole("radio", { name: /DNC and Litigation/ })).toBeChecked();
    await expect(chosen).toHaveText("DNC and Litigation");

    await page.getByRole("radio", { name: /Litigation Only/ }).check();
    if (javaScriptEnabled) await expect(chosen).toHaveText("Litigation Only");
    await next(page);
    await expect(page.getByText("Step 2 of 6: Choose Category")).toBeVisible();
    await expect(page).toHaveURL(/type=LitigationOnly/);
    await expect(chosen).toHaveText("Litigation Only");

    await page.getByRole("button", { name: "Previous" }).click();
    await expect(page.getByText("Step 1 of 6: Suppression Type")).toBeVisible();
    await expect(page.getByRole("radio", { name: /Litigation Only/ })).toBeChecked();
    await expect(chosen).toHaveText("Litigation Only");
    await page.getByRole("radio", { name: /DNC and Litigation/ }).check();
    if (javaScriptEnabled) await expect(chosen).toHaveText("DNC and Litigation");
    await next(page);
    await expect(page).toHaveURL(/type=DNCAndLitigation/);
    await expect(chosen).toHaveText("DNC and Litigation");
  }
});

test("a new customer gets the subscription dialog on /purge; with a plan they purge and see only their own figures", async ({ page, javaScriptEnabled }) => {
  await page.context().clearCookies();
  const email = `purge-customer-${javaScriptEnabled ? "js" : "nojs"}-${Date.now()}@example.com`;
  const password = "purge-password-1";
  await signUpAndConfirm(page, { email, password, firstName: "Cara", lastName: "Quinn", company: "Quinn Leads", phone: "5552013344" }, javaScriptEnabled);
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("card-active-users")).toHaveCount(0);

  // No plan: the subscription dialog instead of the wizard.
  await page.goto("/purge");
  await expect(page.getByRole("dialog").getByRole("heading", { name: "Choose Your Plan" })).toBeVisible();
  await expect(page.getByText("Step 1 of 6: Suppression Type")).toHaveCount(0);
  await page.getByRole("dialog").getByRole("link", { name: "Get Started with Beginner" }).click();
  await page.getByRole("button", { name: "Bank Transfer" }).click();
  const reference = (await page.getByTestId("transfer-reference").textContent())!.trim();

  await page.context().clearCookies();
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/admin/payments?q=${reference}`);
  await page.getByRole("link", { name: `Review ${reference}` }).click();
  await page.getByTestId("review-panel").getByRole("button", { name: "Mark as Paid" }).click();
  await expect(page.getByText("Payment Confirmed")).toBeVisible();

  await page.context().clearCookies();
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/purge");
  await expect(page.getByText("Step 1 of 6: Suppression Type")).toBeVisible();
  await expect(page.getByText("State filter (optional)")).toBeVisible();
  await page.goto("/purge?step=4&mode=manual");
  await page.getByLabel("Phone numbers").fill("4155552101, 4155552102\n(415) 555-2101");
  await page.getByRole("button", { name: "Start Purging" }).click();
  await expect(page.getByTestId("results")).toBeVisible();
  await expect(page.getByTestId("count-good-value")).toHaveText("2");
  await expect(page.getByTestId("count-bad-value")).toHaveText("1");

  await page.goto("/history");
  expect(await cardValue(page, "stat-operations")).toBe(1);
  expect(await cardValue(page, "stat-processed")).toBe(3);
  expect(await cardValue(page, "stat-clean")).toBe(2);
  await expect(page.getByTestId("stat-clean-rate-value")).toHaveText("66.7%");
  await expect(page.getByTestId("history-row")).toHaveCount(1);
  await expect(page.getByTestId("history-row")).toContainText("Cara Quinn");
  await expect(page.getByTestId("pagination-summary")).toHaveText("Showing 1 to 1 of 1 operations");

  await page.goto("/dashboard");
  expect(await cardValue(page, "card-purged")).toBe(3);
  await expect(page.getByTestId("card-success-value")).toHaveText("66.7%");
  await expect(page.getByTestId("plan-summary")).toContainText("Beginner plan");
  await expect(page.getByTestId("usage-suppression").getByTestId("used")).toHaveText("3");
  await expect(page.getByTestId("usage-suppression").getByTestId("available")).toHaveText("99,997");
  await expect(page.getByTestId("recent-activity")).toContainText("manual-entry.csv");
});

test("a large file shows real progress while it is purged, then its results (polling with JS, refresh without)", async ({ page }) => {
  test.setTimeout(180_000);
  // 300,000 unique valid numbers (~7 MB) in an area code no other spec loads into a list.
  const rows: string[] = ["Id,Phone"];
  for (let i = 0; i < 300_000; i++) rows.push(`${i},720${220 + Math.floor(i / 10_000)}${String(i % 10_000).padStart(4, "0")}`); // exchanges 220-249: no N11
  await page.goto("/purge?step=4&mode=csv");
  await page.getByLabel("CSV file").setInputFiles({ name: "big.csv", mimeType: "text/csv", buffer: Buffer.from(rows.join("\n")) });
  await next(page);
  await expect(page.getByLabel("Phone number column")).toHaveValue("Phone");
  await page.getByRole("button", { name: "Start Purging" }).click();
  await expect(page.getByText("Step 6 of 6: Results")).toBeVisible();
  // Either still processing (then with real figures) or already done.
  await expect(page.getByTestId("processing").or(page.getByTestId("results"))).toBeVisible();
  const sawProcessing = await page.getByTestId("processing").isVisible();
  if (sawProcessing) {
    await expect(page.getByTestId("progress-text")).toHaveText(/^[\d,]+ rows processed · \d{1,2}%$/);
  }
  await expect(page.getByTestId("results")).toBeVisible({ timeout: 150_000 });
  await expect(page.getByTestId("count-good-value")).toHaveText("300,000");
  await expect(page.getByTestId("count-bad-value")).toHaveText("0");
  await expect(page.getByTestId("count-invalid-value")).toHaveText("0");
});
