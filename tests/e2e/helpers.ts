import fs from "node:fs";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "./fixtures";

export const DEMO_ADMIN = { email: "admin@example.com", password: "demo-admin-password" };

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** A unique address per test run, so runs never collide in one data directory. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** The activation link of the newest e-mail to the address, read from the dev outbox. */
export async function activationLink(page: Page, email: string): Promise<string> {
  await page.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
  const link = page.getByRole("link", { name: /\/auth\/activation\// }).first();
  await expect(link).toBeVisible();
  return new URL((await link.getAttribute("href"))!).pathname;
}

/** A new customer through /signup and the e-mailed confirmation (the Confirm Email button without JavaScript). */
export async function signUpAndConfirm(
  page: Page,
  u: { email: string; password: string; firstName: string; lastName: string; company: string; phone: string },
  javaScriptEnabled: boolean,
) {
  await page.goto("/signup");
  await page.getByLabel("First name").fill(u.firstName);
  await page.getByLabel("Last name").fill(u.lastName);
  await page.getByLabel("Email").fill(u.email);
  await page.getByLabel("Company").fill(u.company);
  await page.getByLabel("Phone number").fill(u.phone);
  await page.getByLabel("Password", { exact: true }).fill(u.password);
  await page.getByLabel("Confirm password", { exact: true }).fill(u.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(await activationLink(page, u.email));
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Confirm Email" }).click();
  await expect(page.getByText("Email confirmed successfully").first()).toBeVisible();
}

/**
 * Where the setup project (auth.setup.ts) stores the demo admin's signed-in state: in this Playwright run's
 * output folder, so the JS-on and JS-off processes (each with its own server) each have their own.
 */
export function adminStatePath(): string {
  return path.join(test.info().project.outputDir, ".auth", "admin.json");
}

/**
 * Signed in as the demo admin without the form (decision 141): the session the setup project started through
 * the form, its cookie added to this test's context, then the dashboard. Only for tests that keep that session
 * to the end: a test that signs out, or signs someone else in on the same page (which ends the page's current
 * session), uses `signIn` with the form.
 */
export async function signInAsAdmin(page: Page) {
  const file = adminStatePath();
  if (!fs.existsSync(file))
    throw new Error(`No stored admin sign-in at ${file}: the \`setup\` project makes it (a dependency of js and no-js; --no-deps skips it).`);
  const state = JSON.parse(fs.readFileSync(file, "utf8")) as { cookies: Parameters<BrowserContext["addCookies"]>[0] };
  await page.context().addCookies(state.cookies);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
}
