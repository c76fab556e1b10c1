import { expect, type Page } from "./fixtures";
import { signIn, signInAsAdmin, signUpAndConfirm, uniqueEmail } from "./helpers";

/**
 * Every screen of the product, for the overflow checks (screens.spec.ts) and `npm run screenshots`.
 * Admin screens are seen with data in them: the seed adds a category and a container, a manual and a
 * CSV purge (history rows, results), a pending bank transfer, an invited user and an integration.
 */
export interface Screen {
  name: string;
  path: string;
  /** Text that shows the screen rendered what it should (not an error page). */
  expectText: string | RegExp;
}

export const PUBLIC_SCREENS: Screen[] = [
  { name: "landing", path: "/", expectText: "Create Your Account" },
  { name: "login", path: "/login", expectText: "Forgot password?" },
  { name: "signup", path: "/signup", expectText: "Create Account" },
  { name: "forgot-password", path: "/forgot-password", expectText: /Forgot/ },
  { name: "privacy", path: "/privacy", expectText: "Privacy Policy" },
  { name: "terms", path: "/terms", expectText: "Terms of Service" },
  { name: "api-docs", path: "/docs/api", expectText: /API/ },
  { name: "rules", path: "/rules", expectText: "Calling rules and do-not-call lists" },
  { name: "invitation-invalid", path: "/auth/invitation/x", expectText: /Invalid/i },
  { name: "not-found", path: "/no-such-page", expectText: "Oops! Page not found" },
];

/** Screens any signed-in customer has; a new customer without a plan sees them as such. */
export const CUSTOMER_SCREENS: Screen[] = [
  { name: "dashboard", path: "/dashboard", expectText: "Usage Limits" },
  { name: "containers", path: "/containers", expectText: "Storage Containers" },
  { name: "exemption-lists", path: "/exemption-lists", expectText: "Exemption Lists" },
  { name: "purge", path: "/purge", expectText: "Purge Your Data" },
  { name: "history", path: "/history", expectText: "Recent Operations" },
  { name: "call-history", path: "/call-history", expectText: "A number's history" },
  { name: "integrations", path: "/integrations", expectText: "API Integrations" },
  { name: "transaction-history", path: "/transaction-history", expectText: "Transaction History" },
  { name: "pricing", path: "/pricing", expectText: "Choose Your Plan" },
  { name: "pricing-confirm", path: "/pricing/business/confirm", expectText: "Confirm Subscription" },
  { name: "dnc-denied", path: "/dnc", expectText: "Access Denied" },
  { name: "dnc-emergency-denied", path: "/dnc/emergency", expectText: "Access Denied" },
  { name: "settings", path: "/setting", expectText: /Setting/ },
  { name: "profile", path: "/profile", expectText: /Profile/ },
];

export interface Seeded {
  paymentPath: string;
  resultsPath: string;
  columnStepPath: string;
  exemptionListPath: string;
  callHistoryPath: string;
}

export function adminScreens(seed: Seeded): Screen[] {
  return [
    { name: "dashboard", path: "/dashboard", expectText: "Recent Activity" },
    { name: "containers", path: "/containers", expectText: "Storage Containers" },
    { name: "containers-create", path: "/containers?dialog=create-container", expectText: "Create Container" },
    { name: "exemption-lists", path: "/exemption-lists", expectText: "Exemption Lists" },
    { name: "exemption-lists-create", path: "/exemption-lists?dialog=create-exemptions", expectText: "Create Exemption List" },
    { name: "exemption-list-rows", path: seed.exemptionListPath, expectText: "Applies until (federal)" },
    { name: "call-history", path: "/call-history", expectText: "Import a call log" },
    { name: "call-history-number", path: seed.callHistoryPath, expectText: "Dialer call ID" },
    { name: "exemption-list-edit-row", path: `${seed.exemptionListPath}?edit=2125552345`, expectText: "Save" },
    { name: "exemption-list-delete", path: `${seed.exemptionListPath}?dialog=delete`, expectText: "Delete Exemption List" },
    { name: "dnc", path: "/dnc", expectText: "DNC Management" },
    { name: "dnc-add-registry-date", path: "/dnc?dialog=add&type=1", expectText: "Registry date" },
    { name: "dnc-emergency", path: "/dnc/emergency", expectText: "Emergency no-call periods" },
    { name: "admin-settings", path: "/setting", expectText: "Keep result files for (days)" },
    { name: "purge-step-1", path: "/purge", expectText: "Step 1 of 6" },
    { name: "purge-step-4-manual", path: "/purge?step=4&mode=manual", expectText: "Step 4 of 6" },
    { name: "purge-step-5", path: seed.columnStepPath, expectText: "Step 5 of 6" },
    { name: "purge-step-6", path: seed.resultsPath, expectText: "Step 6 of 6" },
    { name: "history", path: "/history", expectText: "Recent Operations" },
    { name: "integrations", path: "/integrations", expectText: "API Integrations" },
    { name: "user-management", path: "/user-management", expectText: "User Management" },
    { name: "user-management-create", path: "/user-management?dialog=create", expectText: "Create New User" },
    { name: "transaction-history", path: "/transaction-history", expectText: "Transaction History" },
    { name: "admin-payments", path: "/admin/payments", expectText: /Payments/ },
    { name: "pricing", path: "/pricing", expectText: "Choose Your Plan" },
    { name: "pricing-payment", path: seed.paymentPath, expectText: "Complete Payment" },
  ];
}

/** A real lead file is wide: many columns and long values, which the column step's preview must keep inside a phone's width. */
const WIDE_CSV =
  "Full Name,Mobile Phone,Street Address,City,State,Zip,Email Address,Lead Source,Campaign Notes\n" +
  "Annabelle Featherstonehaugh,2025552101,1600 Pennsylvania Avenue Northwest,Washington,DC,20500,annabelle.featherstonehaugh@example.com,Spring webinar sign-up,Asked for a callback after the quarterly review meeting\n" +
  "Bob Ng,3125552188,233 South Wacker Drive Suite 9900,Chicago,IL,60606,bob@example.com,Referral,-\n";

async function next(page: Page) {
  await page.getByRole("button", { name: "Next" }).click();
}

/** Data on every admin screen, added through the screens themselves (works with JavaScript on and off). */
export async function seedAdminData(page: Page): Promise<Seeded> {
  const tag = `${Date.now()}`;
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);

  // A category and a container.
  await page.goto("/containers?dialog=create-category");
  const catDialog = page.getByRole("dialog", { name: "Create Category" });
  await catDialog.getByLabel("Category name").fill(`Solar leads ${tag}`);
  await catDialog.getByRole("button", { name: "Create Category" }).click();
  await expect(page.getByText("Category Created")).toBeVisible();
  await page.goto("/containers?dialog=create-container");
  const dialog = page.getByRole("dialog", { name: "Create Container" });
  await dialog.getByLabel("Container name").fill(`Opted-out customers with a long name ${tag}`);
  await dialog.getByLabel("Category").selectOption({ label: `Solar leads ${tag}` });
  await dialog.getByLabel("Description").fill("Customers who asked not to be called again, from the spring campaign");
  await dialog.getByLabel("Phone numbers").fill("2015552123, 2015552124");
  await dialog.getByRole("button", { name: "Create Container" }).click();
  await expect(page.getByText("Container Created")).toBeVisible();

  // A manual purge: a history row and a results page.
  await page.goto("/purge?step=4&mode=manual");
  await page.getByLabel("Phone numbers").fill("2125552101\n2125552101\n3125552188");
  await page.getByRole("button", { name: "Start Purging" }).click();
  await expect(page.getByText("Step 6 of 6: Results")).toBeVisible();
  const resultsPath = new URL(page.url()).pathname + new URL(page.url()).search;

  // A CSV purge up to the column choice.
  await page.goto("/purge?step=4");
  await page.getByLabel("CSV file").setInputFiles({ name: `leads-with-a-long-file-name-${tag}.csv`, mimeType: "text/csv", buffer: Buffer.from(WIDE_CSV) });
  await next(page);
  await expect(page.getByText("Step 5 of 6: Column Selection")).toBeVisible();
  const columnStepPath = new URL(page.url()).pathname + new URL(page.url()).search;

  // A pending bank transfer, for the plan no other spec activates for the demo admin (billing.spec pays
  // Business and Premium; an active plan has no Bank Transfer button), so the order of specs does not matter.
  await page.goto("/pricing/beginner/confirm");
  await page.getByRole("button", { name: "Bank Transfer" }).click();
  await expect(page.getByRole("heading", { name: "Complete Payment" })).toBeVisible();
  const paymentPath = new URL(page.url()).pathname;

  // An invited user.
  await page.goto("/user-management?dialog=create");
  const userDialog = page.getByRole("dialog", { name: "Create New User" });
  await userDialog.getByLabel("First Name*").fill("Maximiliana");
  await userDialog.getByLabel("Last Name*").fill("Featherstonehaugh-Worthington");
  await userDialog.getByLabel("Email Address*").fill(uniqueEmail("screens-invitee-with-a-long-address"));
  await userDialog.getByLabel("Company").fill("Long Company Name Holdings International");
  await userDialog.getByRole("button", { name: "Create User" }).click();
  await expect(page.getByText(/Invitation sent!/)).toBeVisible();

  // An integration.
  await page.goto("/integrations");
  await page.getByRole("link", { name: "Create Integration" }).click();
  const intDialog = page.getByRole("dialog");
  await intDialog.getByLabel("Name").fill(`CRM nightly sync ${tag}`);
  await intDialog.getByLabel("Description").fill("Pushes the day's leads at 2 am");
  await intDialog.getByRole("button", { name: "Create Integration" }).click();
  await page.getByRole("link", { name: "Done" }).click();

  // An exemption list with rows, for its own page (#44).
  await page.goto("/exemption-lists?dialog=create-exemptions");
  const exDialog = page.getByRole("dialog", { name: "Create Exemption List" });
  await exDialog.getByLabel("Exemption list name").fill(`Customers of the spring campaign with a long name ${tag}`);
  await exDialog.getByLabel("Exemption rows").fill("2125552345,purchase,2025-03-01\n3055552101,inquiry,2026-10-02\n4155552199,consent,2024-06-15");
  await exDialog.getByRole("button", { name: "Create Exemption List" }).click();
  await expect(page.getByText("Exemption List Created")).toBeVisible();
  await page.getByRole("link", { name: `Customers of the spring campaign with a long name ${tag}` }).click();
  await expect(page).toHaveURL(/\/exemption-lists\/\d+$/);
  const exemptionListPath = new URL(page.url()).pathname;

  // One imported call, for the Call History screen's number page (issue #46).
  const called = `212555${String(3000 + (Date.now() % 1000))}`;
  await page.goto("/call-history");
  await page.getByLabel("Call log file").setInputFiles({
    name: `dialer-log-${tag}.csv`,
    mimeType: "text/csv",
    buffer: Buffer.from(
      `number,at,outcome,subject,dialer_call_id\n${called},${new Date(Date.now() - 3_600_000).toISOString()},connected,Spring webinar follow-up,screens-${tag}\n`,
    ),
  });
  await page.getByRole("button", { name: "Import Calls" }).click();
  await expect(page.getByText("Calls Imported")).toBeVisible();
  const callHistoryPath = `/call-history?number=${called}`;

  return { paymentPath, resultsPath, columnStepPath, exemptionListPath, callHistoryPath };
}

/** A new self-signed-up customer, signed in. */
export async function signInNewCustomer(page: Page, javaScriptEnabled: boolean): Promise<string> {
  const u = {
    email: uniqueEmail("screens-customer"),
    password: "customer-password-1",
    firstName: "Casey",
    lastName: "Customer",
    company: "Casey Co",
    phone: "2025550147",
  };
  await signUpAndConfirm(page, u, javaScriptEnabled);
  await signIn(page, u.email, u.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  return u.email;
}

/** How much wider than the viewport the page is (0 when nothing overflows sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
