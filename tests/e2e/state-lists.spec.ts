import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin } from "./helpers";

/*
 * State do-not-call lists (decision 160), with JavaScript on and off: an admin loads numbers into the Texas
 * list from its DNC Management card (with the release's registry date), and a DNC and Litigation purge then
 * turns them bad with Texas's reason and names the list and its version on the results screen. Numbers are
 * unique per run (the js and no-js projects may share a data directory).
 */

const TEXAS_CARD = "dnc-card-12";

function uniqueNumber(): string {
  const exchange = (): string => {
    const e = String(200 + Math.floor(Math.random() * 800));
    return e.endsWith("11") || e === "555" ? exchange() : e;
  };
  return `512${exchange()}${String(Math.floor(Math.random() * 10000)).padStart(4, "0")}`;
}

async function phoneCount(page: Page): Promise<number> {
  return Number((await page.getByTestId(TEXAS_CARD).getByTestId("phone-count").innerText()).replace(/,/g, ""));
}

test("an admin loads the Texas DNC list from its card; a DNC purge turns its numbers bad, naming the list and its version", async ({ page }, info) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dnc");
  await expect(page.getByRole("heading", { name: "State do-not-call lists" })).toBeVisible();
  const card = page.getByTestId(TEXAS_CARD);
  await expect(card.getByRole("heading", { name: "Texas DNC List" })).toBeVisible();
  await expect(card.getByTestId("checked-by")).toHaveText("Checked by:DNC and Litigation");
  await expect(card).toContainText("Public Utility Commission of Texas");
  // one rule, stated once (#44): the text explains the 152 days the dialog and the release line count
  await expect(card.getByTestId("state-list-facts")).toContainText("within 60 days of its release, so a release stays current 152 days");
  await expect(page.getByRole("list", { name: "State DNC lists" }).getByRole("listitem")).toHaveCount(12);

  const onTexas = uniqueNumber();
  let clean = uniqueNumber();
  while (clean === onTexas) clean = uniqueNumber();
  const before = await phoneCount(page);
  await card.getByLabel("Actions for Texas DNC List").click();
  await card.getByRole("menuitem", { name: "Add Numbers" }).click();
  const add = page.getByRole("dialog", { name: "Add Numbers" });
  await expect(add.getByText("Add numbers to Texas DNC List.")).toBeVisible();
  await add.getByLabel("Phone numbers").fill(onTexas);
  const released = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
  await add.getByLabel("Registry date").fill(released);
  await add.getByRole("button", { name: "Add Numbers" }).click();
  await expect(page.getByText("Numbers Added Successfully")).toBeVisible();
  await expect.poll(() => phoneCount(page)).toBe(before + 1);
  await expect(page.getByTestId(TEXAS_CARD).getByTestId("state-list-release")).toHaveText(
    /^Release of [A-Z][a-z]{2} \d{2}, \d{4} · \d+ days? old · current until [A-Z][a-z]{2} \d{2}, \d{4} \(152-day rule\)\.$/,
  );
  // the dashboard's list ages cover every loaded list, each against its own rule
  await page.goto("/dashboard");
  await expect(page.getByRole("list", { name: "Loaded list ages" })).toContainText(/Texas DNC List: \d+ days? old of 152/);

  await page.goto("/purge");
  await expect(page.getByRole("radio", { name: /DNC and Litigation/ })).toBeChecked();
  // no suppression type of its own: the state lists are checked by DNC and Litigation
  await expect(page.getByRole("radio")).toHaveCount(2);
  for (const step of ["Step 2 of 6: Choose Category", "Step 3 of 6: Select Container", "Step 4 of 6: Upload Data"]) {
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText(step)).toBeVisible();
  }
  const fileName = `texas-${info.project.name}-${Date.now()}.csv`;
  await page.getByLabel("CSV file").setInputFiles({ name: fileName, mimeType: "text/csv", buffer: Buffer.from(`Phone\n${onTexas}\n${clean}\n`) });
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Step 5 of 6: Column Selection")).toBeVisible();
  await page.getByRole("button", { name: "Start Purging" }).click();

  await expect(page.getByTestId("results")).toBeVisible();
  await expect(page.getByTestId("count-good-value")).toHaveText("1");
  await expect(page.getByTestId("count-bad-value")).toHaveText("1");
  await expect(page.getByRole("table", { name: "Reasons" })).toContainText("On the Texas do-not-call list");
  // one vocabulary (#44): the words and bad.csv's code side by side
  await expect(page.getByRole("table", { name: "Reasons" }).getByRole("row").filter({ hasText: "On the Texas do-not-call list" })).toContainText("dnc-tx");
  const checked = page.getByRole("list", { name: "Lists checked" });
  await expect(checked).toContainText("Texas DNC List");
  await expect(checked).toContainText(/Texas DNC List\s*version \d+/);
  const href = await page.getByTestId("download-bad").first().getAttribute("href");
  const bad = await (await page.request.get(href!)).text();
  expect(bad).toBe(`Phone,phone_e164,reason\n${onTexas},+1${onTexas},dnc-tx\n`);
});
