import { expect, test } from "./fixtures";
import { signInAsAdmin } from "./helpers";
import { horizontalOverflow } from "./screens";

/*
 * Emergency no-call periods (decision 181) on a phone's width, JavaScript on and off (the two projects): an admin
 * opens the screen from DNC Management, is refused an area code of another state, adds a period for Louisiana's 504,
 * sees it in the table and on the public /rules page with its source, and removes it.
 */

test.use({ viewport: { width: 390, height: 844 } });

test("an admin adds an emergency period for 504, sees it on /rules, and removes it", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/dnc");
  await page.getByRole("link", { name: "Manage emergency periods" }).click();
  await expect(page).toHaveURL(/\/dnc\/emergency$/);
  await expect(page.getByRole("heading", { name: "Emergency no-call periods", level: 1 })).toBeVisible();
  await expect(page.getByText("No emergency periods.")).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);

  const form = page.getByRole("region", { name: "Add a period" });
  await form.getByLabel("States").fill("LA");
  await form.getByLabel("Area codes (optional)").fill("504, 212");
  await form.getByLabel("First day").fill("2099-09-01");
  await form.getByLabel("Last day").fill("2099-09-10");
  await form.getByLabel("Declared by").fill("Governor of Louisiana");
  await form.getByLabel("Source URL").fill("https://gov.louisiana.gov/index.cfm/newsroom/detail/e2e");
  await form.getByRole("button", { name: "Add period" }).click();
  await expect(form.getByText("Area code 212 (NY) not in LA.")).toBeVisible();
  // what was typed is kept
  await expect(form.getByLabel("Source URL")).toHaveValue("https://gov.louisiana.gov/index.cfm/newsroom/detail/e2e");
  await form.getByLabel("Area codes (optional)").fill("504");
  await form.getByRole("button", { name: "Add period" }).click();
  await expect(page.getByText("Period Added", { exact: true })).toBeVisible();
  const table = page.getByRole("table");
  await expect(table).toContainText("Louisiana");
  await expect(table).toContainText("area codes 504");
  await expect(table).toContainText("2099-09-01 to 2099-09-10");
  await expect(table).toContainText("upcoming");
  expect(await horizontalOverflow(page)).toBe(0);

  await page.goto("/rules#emergency-periods");
  const section = page.getByTestId("emergency-periods");
  await expect(section).toContainText("Louisiana (area codes 504)");
  await expect(section).toContainText("Declared by Governor of Louisiana");
  await expect(section.getByRole("link", { name: "https://gov.louisiana.gov/index.cfm/newsroom/detail/e2e" })).toBeVisible();
  await expect(section.getByRole("link", { name: "La. R.S. 45:844.31" })).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);

  await page.goto("/dnc/emergency");
  await page.getByRole("button", { name: /^Remove emergency period \d+$/ }).click();
  await expect(page.getByText("Period Removed", { exact: true })).toBeVisible();
  await expect(page.getByText("No emergency periods.")).toBeVisible();
});
