import { expect, test } from "./fixtures";
import { horizontalOverflow } from "./screens";

/*
 * The public rules page (decision 178), read as a visitor would: signed out, at 390 px, JavaScript on and off.
 * Oregon's 8 p.m. end, Louisiana's Sunday ban with its citation, the rules version and its changes.
 */

test.use({ viewport: { width: 390, height: 844 } });

test("a signed-out visitor reads the calling rules: Oregon ends at 8 PM, Louisiana bans Sundays, the version and what changed", async ({ page }) => {
  await page.context().clearCookies();
  await page.goto("/rules");
  await expect(page).toHaveURL(/\/rules$/);
  await expect(page.getByRole("heading", { name: "Calling rules and do-not-call lists", level: 1 })).toBeVisible();
  const version = page.getByTestId("rules-version");
  await expect(version).toContainText(/Rules version \d{4}-\d{2}-\d{2}\.\d+/);
  const shown = (await version.locator(".font-mono").textContent())!.trim();

  // the overview: a table that scrolls inside its box, never the page
  const summary = page.getByTestId("rules-summary");
  await expect(summary.getByRole("row", { name: /Oregon/ })).toContainText("8:00 AM–8:00 PM");
  await expect(summary.getByRole("row", { name: /Louisiana/ })).toContainText("Banned");
  expect(await horizontalOverflow(page)).toBe(0);

  // Oregon's section: both readings, in force from Jan 01, 2026, HB 3865 cited
  const oregon = page.getByTestId("jurisdiction-OR");
  await expect(oregon.getByRole("heading", { name: "Oregon", level: 3 })).toBeVisible();
  await expect(oregon).toContainText("8:00 AM–8:00 PM");
  await expect(oregon).toContainText("Jan 01, 2026");
  await expect(oregon).toContainText("HB 3865");
  await expect(oregon).toContainText("Pacific time");

  // Louisiana: Sunday no calls, its citation and a source link, its list's freshness
  const louisiana = page.getByTestId("jurisdiction-LA");
  await expect(louisiana).toContainText("Sun no calls");
  await expect(louisiana).toContainText("La. R.S. 45:811");
  await expect(louisiana.getByRole("link", { name: /^https?:\/\// }).first()).toBeVisible();
  await expect(louisiana).toContainText("Louisiana DNC List");

  // the holidays open without JavaScript (<details>)
  await louisiana
    .getByText(/holidays with no calls/)
    .first()
    .click();
  await expect(louisiana.getByText(/Mardi Gras/)).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);

  // the changes: the newest release is the version shown, and Oregon's addition is in it
  const newest = page.getByTestId(`release-${shown}`);
  await expect(newest).toContainText("Oregon added");
  await page.getByRole("link", { name: "What changed" }).click();
  await expect(page.getByRole("heading", { name: "Changes by version" })).toBeInViewport();
});
