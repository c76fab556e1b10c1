import { expect, test } from "./fixtures";
import { DEMO_ADMIN, signIn } from "./helpers";

/* Issue 19: what a new customer and an admin met on the screens, JavaScript on and off, phone and laptop. */

test("on a phone the ☰ menu opens with every label, and each item has its own icon", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const menu = page.getByTestId("phone-menu");
  await expect(menu.getByRole("link", { name: "Transaction History" })).toBeHidden();
  await menu.locator("summary").click();
  for (const label of ["Dashboard", "Containers", "Purge Data", "History", "DNC Management", "User Management", "Payments", "Transaction History", "Integrations", "Pricing", "Privacy", "Terms"]) {
    await expect(menu.getByRole("link", { name: label, exact: true })).toBeVisible();
  }
  await menu.getByRole("link", { name: "Transaction History" }).click();
  await expect(page).toHaveURL(/\/transaction-history$/);
  await expect(page.getByRole("heading", { name: "Transaction History" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Transaction History" })).toBeHidden();

  const icons = await page.locator('nav[aria-label="Main"] a > span[aria-hidden]').allTextContents();
  expect(icons.length).toBe(10);
  expect(new Set(icons).size).toBe(icons.length);
});

test("on a laptop the sidebar shows its labels and no phone menu", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("phone-menu")).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transaction History" })).toBeVisible();
});
