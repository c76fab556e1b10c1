import { expect, test, type Page } from "./fixtures";
import { signIn, signOut, uniqueEmail } from "./helpers";

/** Opens the newest e-mail to the address in the dev outbox and returns the link of the kind. */
async function linkFromOutbox(page: Page, email: string, kind: "activation" | "resetpassword"): Promise<string> {
  await page.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
  const link = page.getByRole("link", { name: new RegExp(`/auth/${kind}/`) }).first();
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  if (!href) throw new Error("no link");
  return new URL(href).pathname;
}

test("sign up, confirm by e-mail, sign in and out, reset the password, and the reset link works once", async ({ page, javaScriptEnabled }) => {
  const email = uniqueEmail("lifecycle");
  const firstPassword = "first-password-1";
  const newPassword = "second-password-2";

  await page.goto("/signup");
  await page.getByLabel("First name").fill("Lena");
  await page.getByLabel("Last name").fill("Park");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Company").fill("Park Dialers");
  await page.getByLabel("Phone number").fill("(555) 201-3344");
  await page.getByLabel("Password", { exact: true }).fill(firstPassword);
  await page.getByLabel("Confirm password", { exact: true }).fill(firstPassword);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Account Created Successfully")).toBeVisible();
  await expect(page.getByText("Please check your email to confirm your account.")).toBeVisible();

  // Not confirmed yet: sign-in says so.
  await signIn(page, email, firstPassword);
  await expect(page.getByText(/confirm your email/)).toBeVisible();

  const activation = await linkFromOutbox(page, email, "activation");
  await page.goto(activation);
  if (!javaScriptEnabled) {
    // Without JavaScript the visitor confirms with a button (a GET never confirms).
    await page.getByRole("button", { name: "Confirm Email" }).click();
  }
  await expect(page.getByText("Email confirmed successfully").first()).toBeVisible();
  // Redirected to sign-in after 2 seconds (a timer with JavaScript, a meta refresh without).
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, email, firstPassword);
  await expect(page).toHaveURL(/\/dashboard$/);
  await signOut(page);

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Check Your Email")).toBeVisible();
  await expect(page.getByRole("link", { name: "Try Different Email" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Login" })).toBeVisible();

  const reset = await linkFromOutbox(page, email, "resetpassword");
  await page.goto(reset);
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByRole("heading", { name: "Password Reset Successful" })).toBeVisible();
  await page.getByRole("link", { name: "Continue to Login" }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, email, firstPassword);
  await expect(page.getByText("Invalid email or password.")).toBeVisible();
  await signIn(page, email, newPassword);
  await expect(page).toHaveURL(/\/dashboard$/);
  await signOut(page);

  // The reset link was single use.
  await page.goto(reset);
  await expect(page.getByRole("heading", { name: "Invalid or Expired Link" })).toBeVisible();
  await expect(page.getByText("This password reset link is invalid or has expired.")).toBeVisible();
  await page.getByRole("link", { name: "Request New Reset Link" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test("sign-up shows the spec's validation messages", async ({ page }) => {
  await page.goto("/signup");
  await page.getByLabel("First name").fill("Lena");
  await page.getByLabel("Last name").fill("Park");
  await page.getByLabel("Email").fill(uniqueEmail("invalid"));
  await page.getByLabel("Company").fill("Park Dialers");
  await page.getByLabel("Phone number").fill("555 201 3344 999");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByLabel("Confirm password", { exact: true }).fill("different");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Phone number cannot exceed 11 digits")).toBeVisible();
  await expect(page.getByText("Invalid Phone Number")).toBeVisible();
  await expect(page.getByText("Password must be at least 8 characters long")).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);

  await page.getByLabel("Phone number").fill("5552013344");
  await page.getByLabel("Password", { exact: true }).fill("long-enough-1");
  await page.getByLabel("Confirm password", { exact: true }).fill("long-enough-2");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Password and confirm password do not match")).toBeVisible();
  await expect(page.getByText("Password Mismatch")).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});

test("broken links show their error states", async ({ page }) => {
  await page.goto("/auth/resetpassword");
  await expect(page.getByRole("heading", { name: "Invalid Link" })).toBeVisible();
  await expect(page.getByText("The password reset link is invalid or incomplete.")).toBeVisible();

  await page.goto(`/auth/resetpassword/${"x".repeat(43)}/00000000-0000-4000-8000-000000000000`);
  await expect(page.getByRole("heading", { name: "Invalid or Expired Link" })).toBeVisible();

  await page.goto(`/auth/activation/${"x".repeat(43)}/00000000-0000-4000-8000-000000000000`);
  await expect(page.getByText("Email confirmation failed. Please try again or contact support.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to Home" })).toBeVisible();
  await page.getByRole("link", { name: "Go to Login" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("the reset form checks the passwords as you type (JavaScript) or on submit (no JavaScript)", async ({ page, javaScriptEnabled }) => {
  const email = uniqueEmail("resetform");
  await page.goto("/signup");
  await page.getByLabel("First name").fill("Kai");
  await page.getByLabel("Last name").fill("Moss");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Company").fill("Moss Co");
  await page.getByLabel("Phone number").fill("5552013345");
  await page.getByLabel("Password", { exact: true }).fill("first-password-1");
  await page.getByLabel("Confirm password", { exact: true }).fill("first-password-1");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Check Your Email")).toBeVisible();
  await page.goto(await linkFromOutbox(page, email, "resetpassword"));

  const submit = page.getByRole("button", { name: "Reset Password" });
  await page.getByLabel("New password", { exact: true }).fill("new-password-1");
  await page.getByLabel("Confirm new password", { exact: true }).fill("new-password-2");
  if (javaScriptEnabled) {
    await expect(page.getByText("Passwords do not match")).toBeVisible();
    await expect(submit).toBeDisabled();
    await page.getByRole("button", { name: "Show new password" }).click();
    await expect(page.getByLabel("New password", { exact: true })).toHaveAttribute("type", "text");
    await page.getByLabel("Confirm new password", { exact: true }).fill("new-password-1");
    await expect(page.getByText("Passwords do not match")).toBeHidden();
    await expect(submit).toBeEnabled();
  } else {
    await submit.click();
    await expect(page.getByText("Passwords do not match")).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("new-password-1");
    await page.getByLabel("Confirm new password", { exact: true }).fill("new-password-1");
  }
  await submit.click();
  await expect(page.getByRole("heading", { name: "Password Reset Successful" })).toBeVisible();
});

test("privacy and terms pages have a back button and the terms highlights", async ({ page, javaScriptEnabled }) => {
  await page.goto("/login");
  await page.goto("/terms");
  await expect(page.getByRole("heading", { name: "Terms of Service", level: 1 })).toBeVisible();
  const highlights = page.getByTestId("terms-highlights");
  for (const text of [
    "18 years old",
    "do not give refunds",
    "30 days from the day your bank transfer is confirmed, then expires",
    "bank transfer only",
    "$10",
    "Florida",
  ]) {
    await expect(highlights).toContainText(text);
  }
  // Only bank transfer exists and plans expire: nothing says they renew or charge a card.
  await expect(page.getByRole("main")).not.toContainText(/renews automatically|auto-recharge|payment method on file/);
  await page.getByRole("link", { name: "Back" }).click();
  // With JavaScript: back in history (/login); without: home.
  await expect(page).toHaveURL(javaScriptEnabled ? /\/login$/ : /:\d+\/$/);
  await page.goto("/privacy");
  await expect(page.getByRole("heading", { name: "Privacy Policy", level: 1 })).toBeVisible();
});

test("signing up with a taken address looks the same and e-mails the owner instead", async ({ page }) => {
  await page.goto("/signup");
  await page.getByLabel("First name").fill("Mal");
  await page.getByLabel("Last name").fill("Lory");
  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByLabel("Company").fill("Nope Inc");
  await page.getByLabel("Phone number").fill("5552013399");
  await page.getByLabel("Password", { exact: true }).fill("attacker-password");
  await page.getByLabel("Confirm password", { exact: true }).fill("attacker-password");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Account Created Successfully")).toBeVisible();
  await page.goto(`/dev/outbox?to=${encodeURIComponent("admin@example.com")}`);
  await expect(page.getByTestId("outbox-message").first()).toContainText("You already have a Data Purging Tool account");
  // The owner's password still works.
  await signIn(page, "admin@example.com", "demo-admin-password");
  await expect(page).toHaveURL(/\/dashboard$/);
});
