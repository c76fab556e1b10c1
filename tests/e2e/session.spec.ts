import { expect, test } from "./fixtures";
import { DEMO_ADMIN, signIn, signOut } from "./helpers";

test("a protected page sends you to sign in and back, and logout ends the session", async ({ page }) => {
  await page.goto("/setting?tab=2");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsetting%3Ftab%3D2/);
  await page.getByLabel("Email").fill(DEMO_ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/setting\?tab=2$/);

  await page.goto("/dashboard");
  await expect(page.getByText("Data Purging Tool").first()).toBeVisible();
  await expect(page.getByTestId("role-label")).toHaveText("Super Admin");
  await signOut(page);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
});

test("wrong password shows Login Failed with the spec's message", async ({ page }) => {
  await signIn(page, DEMO_ADMIN.email, "not-the-password");
  await expect(page.getByText("Login Failed")).toBeVisible();
  await expect(page.getByText("Invalid email or password.")).toBeVisible();
});

test("sign-in greets with Login Successful", async ({ page }) => {
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Login Successful")).toBeVisible();
  await expect(page.getByText("Welcome back!")).toBeVisible();
});

test("unknown pages say Oops! Page not found", async ({ page }) => {
  const res = await page.goto("/no-such-page");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
});

test("pages run their scripts under the Content-Security-Policy (no violations)", async ({ page, javaScriptEnabled }) => {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" && /Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  const res = await page.goto("/login");
  expect(res?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
  expect(res?.headers()["x-frame-options"]).toBe("DENY");
  if (javaScriptEnabled) {
    // Hydrated: client-side validation runs on blur without a round trip. A blur before hydration finishes
    // finds no handler yet (CI saw that once), so focus and blur again until the hydrated page answers.
    await expect(async () => {
      await page.getByLabel("Email").focus();
      await page.getByLabel("Email").blur();
      await expect(page.getByText("Email is required")).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
  }
  expect(violations).toEqual([]);
});
