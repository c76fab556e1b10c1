import { expect, test, type Page } from "./fixtures";
import { DEMO_ADMIN, signIn, signInAsAdmin, signOut, uniqueEmail } from "./helpers";

/*
 * User Management and invitations, run with JavaScript on and off (projects js and no-js):
 * invite → set password from the e-mailed link → sign in; access denial; block and delete end sessions.
 */

async function inviteUser(page: Page, email: string, opts: { role?: string; plan?: string; status?: string; first?: string } = {}) {
  await page.goto("/user-management");
  await page.getByRole("button", { name: "Add New User" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New User" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("First Name*").fill(opts.first ?? "Ivy");
  await dialog.getByLabel("Last Name*").fill("Invitee");
  await dialog.getByLabel("Email Address*").fill(email);
  await dialog.getByLabel("Phone Number").fill("5551234567");
  await dialog.getByLabel("Company").fill("Invited Co");
  if (opts.role) await dialog.getByLabel("Role*").selectOption(opts.role);
  if (opts.plan) await dialog.getByLabel("Subscription Plan*").selectOption({ label: opts.plan });
  if (opts.status) await dialog.getByLabel("Status*").selectOption(opts.status);
  await dialog.getByRole("button", { name: "Create User" }).click();
  await expect(page.getByText(`Invitation sent! User will receive setup email at ${email}`)).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
}

async function invitationLink(page: Page, email: string): Promise<string> {
  await page.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
  const href = await page.locator('a[href*="/auth/invitation/"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  return new URL(href!).pathname;
}

async function completeSetup(page: Page, link: string, password: string) {
  // The done page moves on by exactly one mechanism: the router with JavaScript (no page load of /login), the
  // meta refresh without (one page load). Both racing showed as two loads of /login.
  const loginLoads: string[] = [];
  const onRequest = (req: import("@playwright/test").Request) => {
    if (req.resourceType() === "document" && new URL(req.url()).pathname === "/login") loginLoads.push(req.url());
  };
  page.on("request", onRequest);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Set up your account" })).toBeVisible();
  await page.getByLabel("New Password").fill(password);
  await page.getByLabel("Confirm Password").fill(password);
  await page.getByRole("button", { name: "Complete Setup" }).click();
  await expect(page.getByRole("heading", { name: "Account setup completed successfully" })).toBeVisible();
  // The success screen moves on to sign-in after 3 seconds (timer with JS, meta refresh without).
  const javaScriptEnabled = test.info().project.use.javaScriptEnabled !== false;
  const refreshes = page.locator('meta[http-equiv="refresh"]');
  await expect(refreshes).toHaveCount(javaScriptEnabled ? 0 : 1);
  await expect(page).toHaveURL(/\/login$/, { timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
  page.off("request", onRequest);
  expect(loginLoads).toHaveLength(javaScriptEnabled ? 0 : 1);
}

test("invite → set password → sign in", async ({ page }) => {
  const email = uniqueEmail("invitee");
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await inviteUser(page, email, { role: "UnlimitedUser", plan: "Business", status: "Pending" });

  // The new user is at the top: the chosen status (Pending), e-mail unconfirmed, with the chosen role and plan.
  const row = page.getByTestId("user-row").first();
  await expect(row).toHaveAttribute("data-email", email);
  await expect(row.getByText("Pending", { exact: true })).toBeVisible();
  await expect(row.getByText("E-mail not confirmed")).toBeVisible();
  await expect(row.getByText("Unlimited User")).toBeVisible();
  await expect(row.getByText("Business")).toBeVisible();

  const link = await invitationLink(page, email);
  await page.goto("/dashboard");
  await signOut(page);

  // Validation messages come from the server too (JavaScript off) or the browser (on).
  await page.goto(link);
  await page.getByLabel("New Password").fill("short");
  await page.getByLabel("Confirm Password").fill("short");
  await page.getByRole("button", { name: "Complete Setup" }).click();
  await expect(page.getByText("Password must be at least 8 characters long")).toBeVisible();
  await page.getByLabel("New Password").fill("a good password");
  await page.getByLabel("Confirm Password").fill("a different one");
  await page.getByRole("button", { name: "Complete Setup" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();

  await completeSetup(page, link, "a good password");
  await signIn(page, email, "a good password");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(email)).toBeVisible();

  // The link is single use.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Invalid or expired invitation link" })).toBeVisible();
});

test("a link without token or user id shows the spec's error state", async ({ page }) => {
  const res = await page.goto("/auth/invitation");
  expect(res?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "Invalid invitation link" })).toBeVisible();
  await expect(page.getByText("Invalid confirmation link. Missing token or user ID.")).toBeVisible();
});

test("a NormalUser gets Access Denied with their role and HTTP 403", async ({ page }) => {
  const email = uniqueEmail("normal");
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await inviteUser(page, email);
  const link = await invitationLink(page, email);
  await page.goto("/dashboard");
  await signOut(page);
  await completeSetup(page, link, "normal user password");
  await signIn(page, email, "normal user password");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("link", { name: "User Management" })).toHaveCount(0);
  const res = await page.goto("/user-management");
  expect(res?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await expect(page.getByText("You need Admin or SuperAdmin role to access User Management.")).toBeVisible();
  await expect(page.getByText("Your current role: NormalUser")).toBeVisible();

  // A direct POST to an admin action is refused too (with this user's own session cookie).
  const post = await page.request.post("/user-management", {
    form: {
      intent: "create",
      firstName: "X",
      lastName: "Y",
      email: uniqueEmail("sneaky"),
      role: "SuperAdmin",
      plan: "none",
      status: "Active",
    },
    maxRedirects: 0,
  });
  expect(post.status()).toBe(403);
});

test("search, filters and page live in the URL; empty state", async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/user-management");
  await expect(page.getByRole("heading", { name: "User Management" })).toBeVisible();
  await expect(page.getByText("Manage application users and their subscriptions")).toBeVisible();
  await page.getByPlaceholder("Search by email, name, or company...").fill(DEMO_ADMIN.email);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/search=admin%40example\.com/);
  await expect(page.getByTestId("user-row")).toHaveCount(1);
  await expect(page.getByTestId("pagination-summary")).toHaveText("Showing 1 to 1 of 1 users");
  await page.reload();
  await expect(page.getByPlaceholder("Search by email, name, or company...")).toHaveValue(DEMO_ADMIN.email);
  await expect(page.getByTestId("user-row")).toHaveCount(1);

  // Dialogs live in the URL too, and Cancel returns to the same list.
  await page.getByRole("button", { name: "Add New User" }).click();
  await expect(page).toHaveURL(/dialog=create/);
  await expect(page.getByRole("dialog", { name: "Create New User" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/user-management\?search=admin%40example\.com$/);
  await expect(page.getByTestId("user-row")).toHaveCount(1);

  await page.goto("/user-management?search=no-such-user-anywhere&status=Blocked");
  await expect(page.getByText("No users found")).toBeVisible();
  await expect(page.getByText("Try adjusting your search or filter criteria.")).toBeVisible();
  await expect(page.getByLabel("Status")).toHaveValue("Blocked");
  await expect(page.getByTestId("pagination-summary")).toHaveText("Showing 0 to 0 of 0 users");
  for (const label of ["Total Users", "Active Users", "Normal Users", "Unlimited Users"]) await expect(page.getByText(label)).toBeVisible();
});

test("blocking and deleting end the user's session at once", async ({ page, browser }, testInfo) => {
  const email = uniqueEmail("blockme");
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await inviteUser(page, email);
  const link = await invitationLink(page, email);

  const other = await browser.newContext({
    javaScriptEnabled: testInfo.project.name !== "no-js",
  });
  const userPage = await other.newPage();
  await completeSetup(userPage, link, "blocked user password");
  await signIn(userPage, email, "blocked user password");
  await expect(userPage).toHaveURL(/\/dashboard$/);

  await page.goto(`/user-management?search=${encodeURIComponent(email)}`);
  const row = page.getByTestId("user-row").filter({ hasText: email });
  await row.getByRole("button", { name: `Block ${email}` }).click();
  await expect(page.getByText("User blocked successfully!")).toBeVisible();
  if (testInfo.project.name === "no-js") {
    // Without JavaScript the toast stays until dismissed (a CSS-only close); with it, it also goes after 4 s.
    await page.locator('label[for="toast-dismiss"]').click();
    await expect(page.getByText("User blocked successfully!")).toBeHidden();
  }
  await expect(row.getByText("Blocked", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(email).replace(/[.]/g, "\\.")}`));

  await userPage.goto("/dashboard");
  await expect(userPage).toHaveURL(/\/login/);

  await row.getByRole("button", { name: `Unblock ${email}` }).click();
  await expect(page.getByText("User activated successfully!")).toBeVisible();
  await signIn(userPage, email, "blocked user password");
  await expect(userPage).toHaveURL(/\/dashboard$/);

  // Edit User: a profile change.
  await row.getByRole("button", { name: `Edit ${email}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit User" });
  await edit.getByLabel("Company").fill("Renamed Co");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("User updated successfully!")).toBeVisible();
  await expect(row.getByText("Renamed Co")).toBeVisible();

  // Delete User with the confirmation.
  await row.getByRole("button", { name: `Delete User ${email}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete User" });
  await expect(confirm.getByText("Are you sure you want to delete this user?")).toBeVisible();
  await expect(confirm.getByText(email)).toBeVisible();
  await confirm.getByRole("button", { name: "Delete User" }).click();
  await expect(page.getByText("User deleted successfully!")).toBeVisible();
  await expect(page.getByText("No users found")).toBeVisible();

  await userPage.goto("/dashboard");
  await expect(userPage).toHaveURL(/\/login/);
  await other.close();
});
