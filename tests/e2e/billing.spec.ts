import { expect, test } from "./fixtures";
import { DEMO_ADMIN, signIn, signInAsAdmin, signUpAndConfirm, uniqueEmail } from "./helpers";

/*
 * Subscribe by bank transfer, review the transfer as an admin, see the plan active and the history.
 * Both projects (js, no-js) share one server and data directory, so each picks its own plan.
 */
test("subscribe by bank transfer, admin marks it paid, the plan is active", async ({ page, javaScriptEnabled }) => {
  const plan = javaScriptEnabled ? { id: "business", name: "Business", price: "$500" } : { id: "premium", name: "Premium", price: "$1,000" };
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  // Opened from the dashboard, every pricing page carries the way back (closing returns there).
  const back = "\\?redirectTo=%2Fdashboard";

  // Sidebar Pricing button opens the pricing dialog.
  await page.getByRole("link", { name: "Pricing", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/pricing${back}$`));
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Choose Your Plan" })).toBeVisible();
  for (const name of ["Beginner", "Business", "Premium"]) await expect(dialog.getByRole("heading", { name, exact: true })).toBeVisible();
  await expect(dialog.getByText("Most Popular")).toBeVisible();

  await dialog.getByRole("link", { name: `Get Started with ${plan.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/pricing/${plan.id}/confirm${back}$`));
  await expect(page.getByRole("heading", { name: "Confirm Subscription" })).toBeVisible();
  await expect(page.getByText(`You are about to subscribe to the ${plan.name} plan for ${plan.price}/month.`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Credit Card - Coming Soon" })).toBeDisabled();
  await expect(page.getByRole("link", { name: "Cancel" })).toBeVisible();
  await expect(page.getByText("Routing number (ABA)").first()).toBeVisible();
  if (javaScriptEnabled) {
    // Escape closes the topmost dialog only: back to the plans, not out of pricing.
    await page.keyboard.press("Escape");
    await expect(page).toHaveURL(new RegExp(`/pricing${back}$`));
    await page.getByRole("link", { name: `Get Started with ${plan.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/pricing/${plan.id}/confirm${back}$`));
  } else {
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(new RegExp(`/pricing${back}$`));
    await page.getByRole("link", { name: `Get Started with ${plan.name}` }).click();
  }
  await page.getByRole("button", { name: "Bank Transfer" }).click();

  // Complete Payment view with the unique reference.
  await expect(page).toHaveURL(new RegExp(`/pricing/payment/[0-9a-f-]{36}(${back})?$`));
  await expect(page.getByRole("heading", { name: "Complete Payment" })).toBeVisible();
  await expect(page.getByText("Credit Card Payment: Coming Soon")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Plan" })).toBeVisible();
  await expect(page.getByTestId("payment-status")).toHaveText("Pending payment");
  const reference = (await page.getByTestId("transfer-reference").textContent())!.trim();
  expect(reference).toMatch(/^DPT-[A-Z0-9]{4}-[A-Z0-9]{4}$/);

  // The instructions were e-mailed.
  await page.goto(`/dev/outbox?to=${encodeURIComponent(DEMO_ADMIN.email)}`);
  await expect(page.getByText(`Payment instructions for your ${plan.name} plan (${reference})`)).toBeVisible();

  // Transaction history shows it pending.
  await page.goto("/transaction-history");
  await expect(page.getByRole("heading", { name: "Transaction History" })).toBeVisible();
  await expect(page.getByText("View your subscription and payment history")).toBeVisible();
  const pendingRow = page.getByTestId("transaction-row").filter({ hasText: reference });
  await expect(pendingRow.locator("[data-status]")).toHaveText("Pending payment");

  // Admin review: Payments in the admin menu.
  await page.getByRole("link", { name: "Payments" }).click();
  await expect(page).toHaveURL(/\/admin\/payments$/);
  await page.getByRole("link", { name: `Review ${reference}` }).click();
  const panel = page.getByTestId("review-panel");
  await expect(panel).toContainText(reference);
  await panel.getByRole("button", { name: "Mark as Paid" }).click();
  await expect(page.getByText("Payment Confirmed")).toBeVisible();
  await expect(page.locator(`[data-reference="${reference}"]`)).toHaveCount(0);
  await page.getByRole("link", { name: "Reviewed" }).click();
  await expect(page.locator(`[data-reference="${reference}"]`)).toContainText("Active");

  // The plan is active: Active badge and no Get Started on its card.
  await page.goto("/pricing");
  const card = page.locator(`[data-plan="${plan.id}"]`);
  await expect(card.getByText("Active", { exact: true })).toBeVisible();
  await expect(card.getByRole("link", { name: /Get Started/ })).toHaveCount(0);

  await page.goto("/transaction-history");
  await expect(page.getByTestId("transaction-row").filter({ hasText: reference }).locator("[data-status]")).toHaveText("Active");
  await expect(page.getByText(/Showing 1 to \d+ of \d+ transactions/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();

  // The payment-received e-mail.
  await page.goto(`/dev/outbox?to=${encodeURIComponent(DEMO_ADMIN.email)}`);
  await expect(page.getByText(`Payment received: your ${plan.name} plan is active`).first()).toBeVisible();
});

test("transaction history exports CSV named by date; no rows disables export", async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  // A day with no transactions: empty state, export disabled, state in the URL.
  await page.goto("/transaction-history?date=2000-01-01");
  await expect(page.getByText("No transactions found")).toBeVisible();
  await expect(page.getByText("No transaction history available")).toBeVisible();
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeDisabled();
  await expect(page.getByText("Showing 0 to 0 of 0 transactions")).toBeVisible();
  await page.getByRole("link", { name: "Clear date" }).click();
  await expect(page).toHaveURL(/\/transaction-history(\?sort=createdAt&dir=desc)?$/);

  // The previous test (same file, run first) left at least one transaction.
  const exportLink = page.getByRole("link", { name: "Export CSV" });
  await expect(exportLink).toBeVisible();
  const res = await page.request.get((await exportLink.getAttribute("href"))!);
  expect(res.status()).toBe(200);
  const today = new Date().toISOString().slice(0, 10);
  expect(res.headers()["content-disposition"]).toBe(`attachment; filename="transaction_history_${today}.csv"`);
  const lines = (await res.text()).split("\r\n");
  expect(lines[0]).toBe("Plan Name,Amount,Purchase Date,Start Date,End Date,Status,Description,DNC & Litigation Scrubs,Custom Dataset Records,Reference");
  expect(lines.some((l) => /^(Business|Premium),/.test(l))).toBe(true);
});

test("a new customer without a plan gets the subscription dialog on /containers, and returns to Create Container once paid", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = uniqueEmail("billing-gate");
  const password = "gate-password-1";
  await signUpAndConfirm(page, { email, password, firstName: "Gia", lastName: "Tran", company: "Tran Calls", phone: "5552013344" }, javaScriptEnabled);
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);

  // No plan: /containers shows the subscription dialog.
  await page.goto("/containers");
  const gate = page.getByRole("dialog");
  await expect(gate.getByRole("heading", { name: "Choose Your Plan" })).toBeVisible();
  await gate.getByRole("link", { name: "Get Started with Beginner" }).click();
  await expect(page).toHaveURL(/\/pricing\/beginner\/confirm\?redirectTo=%2Fcontainers%3Fdialog%3Dcreate-container$/);
  await expect(page.getByText("You are about to subscribe to the Beginner plan for $100/month.")).toBeVisible();
  await page.getByRole("button", { name: "Bank Transfer" }).click();
  await expect(page.getByRole("heading", { name: "Complete Payment" })).toBeVisible();
  const reference = (await page.getByTestId("transfer-reference").textContent())!.trim();
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/containers\?dialog=create-container$/);
  // Not paid yet: the dialog says the transfer is awaited instead of asking to pay again.
  await expect(page.getByTestId("pending-transfer")).toContainText(reference);
  await expect(page.getByTestId("create-container-dialog")).toHaveCount(0);

  // The admin confirms the transfer (the modal covers the sidebar: switch users by dropping the cookie).
  await page.context().clearCookies();
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/admin/payments?q=${reference}`);
  await page.getByRole("link", { name: `Review ${reference}` }).click();
  await page.getByTestId("review-panel").getByRole("button", { name: "Mark as Paid" }).click();
  await expect(page.getByText("Payment Confirmed")).toBeVisible();
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The customer is told, and the return link now opens Create Container.
  await page.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
  await expect(page.getByText("Payment received: your Beginner plan is active")).toBeVisible();
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/containers?dialog=create-container");
  await expect(page.getByTestId("create-container-dialog")).toBeVisible();
  await expect(page.getByTestId("pending-transfer")).toHaveCount(0);
});

test("the sidebar's Pricing dialog closes back to the page the user was on", async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/history?page=1");
  await expect(page.getByRole("heading", { name: "Recent Operations" })).toBeVisible();
  await page.locator(`a[aria-label="Pricing"]`).click();
  await expect(page).toHaveURL(/\/pricing\?redirectTo=%2Fhistory%3Fpage%3D1$/);
  await page.getByRole("dialog").getByRole("link", { name: "Close" }).click();
  await expect(page).toHaveURL(/\/history\?page=1$/);
  // a return path that leaves the site is refused by /pricing: the dialog closes to the dashboard
  await page.goto(`/pricing?redirectTo=${encodeURIComponent("//evil.example/x")}`);
  await page.getByRole("dialog").getByRole("link", { name: "Close" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
