import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin } from "./helpers";

/*
 * Canada's National DNCL (decision 179), with JavaScript on and off: an admin loads a Canadian number and a US
 * number into its DNC Management card with a release 30 days old; only the Canadian number is kept, the card says
 * its release is current, and a DNC and Litigation purge turns the Canadian number bad with Canada's reason and
 * names the list on the results screen, while the US number stays good. Numbers are unique per run (the js and
 * no-js projects may share a data directory).
 */

const CANADA_CARD = "dnc-card-14";

function uniqueNumber(npa: string): string {
  const exchange = (): string => {
    const e = String(200 + Math.floor(Math.random() * 800));
    return e.endsWith("11") || e === "555" ? exchange() : e;
  };
  return `${npa}${exchange()}${String(Math.floor(Math.random() * 10000)).padStart(4, "0")}`;
}

async function phoneCount(page: Page): Promise<number> {
  return Number((await page.getByTestId(CANADA_CARD).getByTestId("phone-count").innerText()).replace(/,/g, ""));
}

test("an admin loads Canada's National DNCL from its card (Canadian numbers only); a DNC purge turns its number bad, naming the list", async ({
  page,
}, info) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dnc");
  await expect(page.getByRole("heading", { name: "Canada's National Do Not Call List" })).toBeVisible();
  await expect(page.getByRole("list", { name: "State DNC lists" }).getByRole("listitem")).toHaveCount(12);
  const card = page.getByTestId(CANADA_CARD);
  await expect(card.getByRole("heading", { name: "Canada National DNCL" })).toBeVisible();
  await expect(card.getByTestId("checked-by")).toHaveText("Checked by:DNC and Litigation");
  await expect(card.getByTestId("state-list-facts")).toContainText("more than 31 days");

  const onCanada = uniqueNumber("416");
  const american = uniqueNumber("212");
  const before = await phoneCount(page);
  await card.getByLabel("Actions for Canada National DNCL").click();
  await card.getByRole("menuitem", { name: "Add Numbers" }).click();
  const add = page.getByRole("dialog", { name: "Add Numbers" });
  await expect(add.getByText("Add numbers to Canada National DNCL.")).toBeVisible();
  await add.getByLabel("Phone numbers").fill(`${onCanada}, ${american}`);
  const released = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  await add.getByLabel("Registry date").fill(released);
  await add.getByRole("button", { name: "Add Numbers" }).click();
  await expect(page.getByText("Numbers Added Successfully")).toBeVisible();
  // the US number is left out: Canadian area codes only
  await expect.poll(() => phoneCount(page)).toBe(before + 1);
  await expect(page.getByTestId(CANADA_CARD).getByTestId("state-list-release")).toContainText("current until");

  await page.goto("/purge");
  await expect(page.getByRole("radio", { name: /DNC and Litigation/ })).toBeChecked();
  for (const step of ["Step 2 of 6: Choose Category", "Step 3 of 6: Select Container", "Step 4 of 6: Upload Data"]) {
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText(step)).toBeVisible();
  }
  const fileName = `canada-${info.project.name}-${Date.now()}.csv`;
  await page.getByLabel("CSV file").setInputFiles({ name: fileName, mimeType: "text/csv", buffer: Buffer.from(`Phone\n${onCanada}\n${american}\n`) });
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Step 5 of 6: Column Selection")).toBeVisible();
  await page.getByRole("button", { name: "Start Purging" }).click();

  await expect(page.getByTestId("results")).toBeVisible();
  await expect(page.getByTestId("count-bad-value")).toHaveText("1");
  await expect(page.getByRole("table", { name: "Reasons" })).toContainText("On Canada's National Do Not Call List");
  await expect(page.getByRole("list", { name: "Lists checked" })).toContainText(/Canada National DNCL\s*version \d+/);
  const href = await page.getByTestId("download-bad").first().getAttribute("href");
  const bad = await (await page.request.get(href!)).text();
  expect(bad).toBe(`Phone,phone_e164,reason\n${onCanada},+1${onCanada},dnc-ca\n`);
});
