import { expect, test } from "./fixtures";
import { signInAsAdmin, uniqueEmail } from "./helpers";

/* Issue 19: what a new customer and an admin met on the screens, JavaScript on and off, phone and laptop. */

test("on a phone the ☰ menu opens with every label, and each item has its own icon", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  const menu = page.getByTestId("phone-menu");
  await expect(menu.getByRole("link", { name: "Transaction History" })).toBeHidden();
  await menu.locator("summary").click();
  for (const label of [
    "Dashboard",
    "Containers",
    "Exemption Lists",
    "Purge Data",
    "History",
    "Call History",
    "DNC Management",
    "User Management",
    "Payments",
    "Transaction History",
    "Integrations",
    "Pricing",
    "Privacy",
    "Terms",
  ]) {
    await expect(menu.getByRole("link", { name: label, exact: true })).toBeVisible();
  }
  await menu.getByRole("link", { name: "Transaction History" }).click();
  await expect(page).toHaveURL(/\/transaction-history$/);
  await expect(page.getByRole("heading", { name: "Transaction History" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Transaction History" })).toBeHidden();

  const icons = await page.locator('nav[aria-label="Main"] a > span[aria-hidden]').allTextContents();
  expect(icons.length).toBe(12);
  expect(new Set(icons).size).toBe(icons.length);
});

test("on a laptop the sidebar shows its labels and no phone menu", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("phone-menu")).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transaction History" })).toBeVisible();
});

test("Create New User applies the chosen status; Edit offers only statuses it accepts", async ({ page }) => {
  const email = uniqueEmail("status-choice");
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/user-management?dialog=create");
  const dialog = page.getByRole("dialog", { name: "Create New User" });
  await dialog.getByLabel("First Name*").fill("Stat");
  await dialog.getByLabel("Last Name*").fill("Us");
  await dialog.getByLabel("Email Address*").fill(email);
  await dialog.getByLabel("Status*").selectOption("Active");
  await dialog.getByRole("button", { name: "Create User" }).click();
  await expect(page.getByText(`Invitation sent! User will receive setup email at ${email}`)).toBeVisible();
  const row = page.getByTestId("user-row").filter({ hasText: email });
  await expect(row.locator("[data-status]")).toHaveText("Active");

  await row.getByRole("button", { name: `Edit ${email}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit User" });
  await expect(edit.getByLabel("Status*").locator("option")).toHaveText(["Active", "Blocked"]);
});

test("statuses and admin activity read as words", async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/pricing/beginner/confirm");
  await page.getByRole("button", { name: "Bank Transfer" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Pending payment");
  const reference = (await page.getByTestId("transfer-reference").textContent())!.trim();
  await page.goto("/transaction-history");
  await expect(page.getByTestId("transaction-row").filter({ hasText: reference }).locator("[data-status]")).toHaveText("Pending payment");
  await page.goto("/dashboard");
  const activity = page.getByTestId("recent-activity");
  await expect(activity).toContainText("Asked to pay for the Beginner plan by bank transfer");
  await expect(activity).not.toContainText(/\b\w+Id: |amountCents|pendingpayment/);
  await expect(page.getByTestId("card-success")).toContainText("Clean Rate");
  await expect(page.getByTestId("card-success")).not.toContainText("accuracy");
});
