import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin } from "./helpers";

/*
 * The 31-day DNC clock end to end (decision 110), JS on and off: the admin states a DNC download's registry
 * date (a backdated date makes the list old, no waiting), the 25-day warning, the 32-day warning before a
 * purge and in its results, the refusal setting and retention on Settings, "valid for calls until", and the
 * customer's re-scrub reminder on the results screen and history.
 */

const DAY = 86_400_000;
const isoDaysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
/** formatDate's "Oct 28, 2026" of a UTC day. */
const shown = (iso: string) =>
  new Date(`${iso.slice(0, 10)}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "2-digit", year: "numeric", timeZone: "UTC" });
const number = () => `2125552${String(100 + Math.floor(Math.random() * 900))}`;

/** Adds one number to the DNC list with a stated registry date ("" = the list keeps its release; only a first load takes the load time). */
async function loadDnc(page: Page, registryDate: string) {
  await page.goto("/dnc?dialog=add&type=1");
  const dialog = page.getByRole("dialog", { name: "Add Numbers" });
  await dialog.getByLabel("Phone numbers").fill(number());
  await dialog.getByLabel("Registry date").fill(registryDate);
  await dialog.getByRole("button", { name: "Add Numbers" }).click();
  await expect(page).toHaveURL(/\/dnc$/);
}

async function refusedDate(page: Page) {
  await page.goto("/dnc?dialog=add&type=1");
  const dialog = page.getByRole("dialog", { name: "Add Numbers" });
  await dialog.getByLabel("Phone numbers").fill(number());
  await dialog.getByLabel("Registry date").fill(isoDaysAgo(400));
  await dialog.getByRole("button", { name: "Add Numbers" }).click();
  await expect(dialog.getByText(`Registry date ${isoDaysAgo(400)} is more than 365 days ago: check the year.`)).toBeVisible();
}

async function saveSettings(page: Page, refuse: boolean, retentionDays: string) {
  await page.goto("/setting");
  const box = page.getByLabel("Refuse purges that include DNC when the DNC list is older than 31 days");
  if (refuse) await box.check();
  else await box.uncheck();
  await page.getByLabel("Keep result files for (days)").fill(retentionDays);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status")).toHaveText("Settings saved.");
  await page.reload();
  await expect(box).toBeChecked({ checked: refuse });
  await expect(page.getByLabel("Keep result files for (days)")).toHaveValue(retentionDays);
}

async function dncPurge(page: Page) {
  await page.goto("/purge?step=4&mode=manual&type=DNCAndLitigation");
  await page.getByLabel("Phone numbers").fill(number());
  await page.getByRole("button", { name: "Start Purging" }).click();
}

test.afterEach(async ({ page }) => {
  // Leave a fresh DNC list and no refusal for the other specs.
  await saveSettings(page, false, "");
  await loadDnc(page, "");
});

test("registry date, the 25-day and 32-day warnings, the results banner, Settings' refusal and retention", async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);

  // A refused date keeps the dialog open with the parser's message (checked by the server, JS on and off).
  await refusedDate(page);

  // 26 days: the admins' warning on DNC Management and the dashboard; the version history names the date
  await loadDnc(page, isoDaysAgo(26));
  const banner = page.getByTestId("dnc-clock-banner");
  await expect(banner).toContainText(`DNC list age: 26 days (registry date ${shown(isoDaysAgo(26))})`);
  await expect(banner).toContainText("Load a new registry download before it passes 31 days (warning from 25 days).");
  const card = page.getByTestId("dnc-card-1");
  await card.getByText("Version history").click();
  await expect(card.getByTestId("version-registry-date").first()).toHaveText(`Registry date ${shown(isoDaysAgo(26))}`);
  await page.goto("/dashboard");
  await expect(page.getByTestId("dnc-clock-banner")).toContainText("DNC list age: 26 days");

  // Settings: retention, refusal off
  await saveSettings(page, false, "400");

  // 32 days: the warning before the start, then the results' own banner and "valid until"
  await loadDnc(page, isoDaysAgo(32));
  await expect(page.getByTestId("dnc-clock-banner")).toContainText(
    "A purge that includes DNC now checks against a list older than the 31 days the safe harbor allows.",
  );
  await page.goto("/purge?step=4&mode=manual&type=DNCAndLitigation");
  await expect(page.getByTestId("dnc-clock-banner")).toContainText("DNC list age: 32 days");
  await dncPurge(page);
  await expect(page.getByTestId("results")).toBeVisible();
  await expect(page.getByTestId("stale-dnc-banner")).toContainText("This purge checked a DNC list that was 32 days old.");
  const validUntil = new Date(Date.parse(`${isoDaysAgo(32)}T00:00:00Z`) + 31 * DAY).toISOString();
  await expect(page.getByTestId("valid-until")).toHaveText(`Good file valid for calls until ${shown(validUntil)} (DNC list 32 days old)`);
  await expect(page.getByTestId("reminder")).toHaveCount(0); // its window has passed: nothing to remind of

  // refusal on: a DNC purge does not start
  await saveSettings(page, true, "400");
  await page.goto("/purge?step=4&mode=manual&type=DNCAndLitigation");
  await expect(page.getByTestId("dnc-clock-banner")).toContainText(
    "Purges that include DNC are refused until an admin loads a registry download less than 31 days old.",
  );
  await page.getByLabel("Phone numbers").fill(number());
  await page.getByRole("button", { name: "Start Purging" }).click();
  // every stale list named at once (decision 174)
  await expect(
    page.getByText(
      /^The federal DNC list \(release \d{4}-\d{2}-\d{2}, 32 days old; rule 31 days\) is out of date: purges that include DNC are refused until an admin loads a newer release\.$/,
    ),
  ).toBeVisible();
  await expect(page.getByTestId("results")).toHaveCount(0);
});

test("the customer asks for a re-scrub reminder on the results screen and on history, and cancels it", async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await loadDnc(page, isoDaysAgo(3));
  await dncPurge(page);
  await expect(page.getByTestId("results")).toBeVisible();
  await expect(page.getByTestId("stale-dnc-banner")).toHaveCount(0);
  const validUntil = new Date(Date.parse(`${isoDaysAgo(3)}T00:00:00Z`) + 31 * DAY).toISOString();
  const remindOn = new Date(Date.parse(validUntil) - 3 * DAY).toISOString();
  await expect(page.getByTestId("valid-until")).toHaveText(`Good file valid for calls until ${shown(validUntil)}`);

  await page.getByRole("button", { name: `E-mail me to re-scrub before ${shown(validUntil)}` }).click();
  await expect(page.getByTestId("reminder-set")).toHaveText(`Re-scrub reminder set for ${shown(remindOn)}`);
  await expect(page).toHaveURL(/step=6/);
  await page.getByRole("button", { name: "Cancel reminder" }).click();
  await expect(page.getByRole("button", { name: `E-mail me to re-scrub before ${shown(validUntil)}` })).toBeVisible();

  await page.goto("/history");
  // the reminder sits in the row's one Actions menu (#44)
  // (with JavaScript the form's navigation keeps the menu open; without, the new page shows it closed)
  const openActions = async () => {
    const menu = page.getByTestId("history-row").first().getByTestId("row-actions");
    if (!(await menu.evaluate((e) => (e as HTMLDetailsElement).open))) await menu.locator("summary").click();
  };
  await openActions();
  const row = page.getByTestId("history-row").first();
  await row.getByRole("button", { name: `E-mail me to re-scrub before ${shown(validUntil)}` }).click();
  await expect(page).toHaveURL(/\/history\?page=1$/);
  await openActions();
  await expect(page.getByTestId("history-row").first().getByTestId("reminder-set")).toHaveText(`Re-scrub reminder set for ${shown(remindOn)}`);
  await page.getByTestId("history-row").first().getByRole("button", { name: "Cancel reminder" }).click();
  await expect(page.getByTestId("history-row").first().getByTestId("reminder-set")).toHaveCount(0);
  await openActions();
  await expect(
    page
      .getByTestId("history-row")
      .first()
      .getByRole("button", { name: /E-mail me to re-scrub/ }),
  ).toBeVisible();
});
