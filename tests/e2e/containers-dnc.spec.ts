import { expect, test, type Page } from "./fixtures";
import { DEMO_ADMIN, signIn, signInAsAdmin, signOut, signUpAndConfirm, uniqueEmail } from "./helpers";

// Both projects (js, no-js) share one server and data directory: names are unique per run and counts relative.
function unique(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

async function openCardMenu(page: Page, cardTestId: string | RegExp, name?: string) {
  const card = name ? page.getByTestId(cardTestId).filter({ has: page.getByRole("heading", { name, exact: true }) }) : page.getByTestId(cardTestId);
  await card.getByLabel(/^Actions for /).click();
  return card;
}

async function phoneCount(page: Page, type: 0 | 1): Promise<number> {
  const text = await page.getByTestId(`dnc-card-${type}`).getByTestId("phone-count").innerText();
  return Number(text.replace(/,/g, ""));
}

test("an admin creates a category and a container, with the spec's validation, then adds numbers from a CSV", async ({ page, javaScriptEnabled }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/containers");
  await expect(page.getByRole("heading", { name: "Storage Containers" })).toBeVisible();

  // Create Category: name required.
  const category = unique("Solar");
  await page.getByRole("link", { name: "Create Category" }).first().click();
  const catDialog = page.getByRole("dialog", { name: "Create Category" });
  await expect(catDialog).toBeVisible();
  await catDialog.getByRole("button", { name: "Create Category" }).click();
  await expect(catDialog.getByText("Category name is required")).toBeVisible();
  await catDialog.getByLabel("Category name").fill(category);
  await catDialog.getByRole("button", { name: "Create Category" }).click();
  await expect(page.getByText("Category Created")).toBeVisible();

  // Create Container: name, category, manual numbers with the spec's messages.
  const name = unique("Do Not Call");
  await page.getByRole("link", { name: "Create Container" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create Container" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Create Container" }).click();
  await expect(dialog.getByText("Container name is required")).toBeVisible();
  await expect(dialog.getByText("Please select a category")).toBeVisible();
  await expect(dialog.getByText("You must enter at least one valid 10-digit phone number.")).toBeVisible();

  // "New category" from inside the dialog comes back with the new category chosen.
  const second = unique("Roofing");
  await dialog.getByRole("link", { name: "New category" }).click();
  const inner = page.getByRole("dialog", { name: "Create Category" });
  await inner.getByLabel("Category name").fill(second);
  await inner.getByRole("button", { name: "Create Category" }).click();
  await expect(page.getByText("Category Created")).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Category").locator("option:checked")).toHaveText(second);

  await dialog.getByLabel("Container name").fill(name);
  await dialog.getByLabel("Category").selectOption({ label: category });
  await dialog.getByLabel("Description").fill("Customers who opted out");
  await dialog.getByLabel("Phone numbers").fill("2015552123, 12345, 31255501ab");
  await dialog.getByRole("button", { name: "Create Container" }).click();
  await expect(dialog.getByText("Invalid Phone Numbers")).toBeVisible();
  await expect(dialog.getByText("The following numbers are invalid (must be exactly 10 digits with no alphabets): 12345, 31255501ab")).toBeVisible();

  // CSV mode without a file.
  await dialog.getByText("CSV", { exact: true }).click();
  await dialog.getByRole("button", { name: "Create Container" }).click();
  await expect(dialog.getByText("You must upload a CSV file with phone numbers.")).toBeVisible();

  // Back to manual: more than 10 characters are fine.
  await dialog.getByText("Manual", { exact: true }).click();
  await dialog.getByLabel("Phone numbers").fill("2015552123, 3125552199,\n4155552100");
  await dialog.getByRole("button", { name: "Create Container" }).click();
  await expect(page.getByText("Container Created")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  const card = page.getByTestId("container-card").filter({ has: page.getByRole("heading", { name, exact: true }) });
  await expect(card).toBeVisible();
  await expect(card.getByText(category)).toBeVisible();
  await expect(card.getByText("Customers who opted out")).toBeVisible();
  await expect(card.getByTestId("container-size")).toHaveText("3 numbers");
  // Newest first.
  await expect(page.getByTestId("container-card").first().getByRole("heading")).toHaveText(name);

  // Add Numbers from a CSV with a Phone header.
  await openCardMenu(page, "container-card", name);
  await card.getByRole("menuitem", { name: "Add Numbers" }).click();
  const add = page.getByRole("dialog", { name: "Add Numbers" });
  await expect(add).toBeVisible();
  await add.getByText("CSV", { exact: true }).click();
  await add.getByLabel("CSV file").setInputFiles({
    name: "more.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("Phone\n6175552111\n(212) 555-2147\n2015552123\n"),
  });
  // With JavaScript the file is uploaded at once (progress bar) and the form posts its token.
  if (javaScriptEnabled) await expect(add.getByTestId("upload-done")).toContainText("Uploaded more.csv");
  await add.getByRole("button", { name: "Add Numbers" }).click();
  // The load runs in the background; the progress page returns to the list with the toast when it is done.
  await expect(page.getByText("Numbers Added", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/containers$/);
  await expect(card.getByTestId("container-size")).toHaveText("5 numbers");
  // Its age and version history (#16): two versions, the newest first, each naming its file and SHA-256.
  await expect(card.getByTestId("container-age")).toContainText("(today)");
  await card.getByText("Version history").click();
  const versions = card.getByTestId("version-history").getByRole("listitem");
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText("more.csv");
  await expect(versions.first()).toContainText("5 numbers");
  await expect(versions.first()).toContainText(/SHA-256 [0-9a-f]{64}/);

  // Edit Container.
  await openCardMenu(page, "container-card", name);
  await card.getByRole("menuitem", { name: "Edit Container" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Container" });
  await expect(edit.getByLabel("Container name")).toHaveValue(name);
  const renamed = `${name} (renamed)`;
  await edit.getByLabel("Container name").fill(renamed);
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Container Updated")).toBeVisible();
  await expect(page.getByRole("heading", { name: renamed, exact: true })).toBeVisible();
});

test("an admin loads the DNC lists: manual numbers, a streamed file with progress, and the description", async ({ page, javaScriptEnabled }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dnc");
  await expect(page.getByRole("heading", { name: "DNC Management" })).toBeVisible();
  // Titled with the lists' names from the registry; the suppression types that check each list are named too.
  await expect(page.getByTestId("dnc-card-0").getByRole("heading", { name: "Litigation List" })).toBeVisible();
  await expect(page.getByTestId("dnc-card-1").getByRole("heading", { name: "DNC List" })).toBeVisible();
  await expect(page.getByTestId("dnc-card-0").getByTestId("checked-by")).toHaveText("Checked by:Litigation OnlyDNC and Litigation");
  await expect(page.getByTestId("dnc-card-1").getByTestId("checked-by")).toHaveText("Checked by:DNC and Litigation");

  const before0 = await phoneCount(page, 0);
  await openCardMenu(page, "dnc-card-0");
  await page.getByTestId("dnc-card-0").getByRole("menuitem", { name: "Add Numbers" }).click();
  const add = page.getByRole("dialog", { name: "Add Numbers" });
  await add.getByLabel("Phone numbers").fill("abc");
  await add.getByRole("button", { name: "Add Numbers" }).click();
  await expect(add.getByText("Invalid Phone Numbers")).toBeVisible();
  // Unique numbers per run (real area codes, random exchange and line) so the count grows by exactly 2.
  const areaCodes = ["212", "305", "312", "415", "617", "702", "713", "206", "303", "404"];
  const pick = () => areaCodes[Math.floor(Math.random() * areaCodes.length)];
  const exchange = (): string => {
    const e = String(200 + Math.floor(Math.random() * 800));
    return e.endsWith("11") ? exchange() : e; // N11 codes are service codes
  };
  const line = () => String(Math.floor(Math.random() * 10000)).padStart(4, "0");
  const a = `${pick()}${exchange()}${line()}`;
  let b = `${pick()}${exchange()}${line()}`;
  while (b === a) b = `${pick()}${exchange()}${line()}`;
  await add.getByLabel("Phone numbers").fill(`${a}, ${b}`);
  await add.getByRole("button", { name: "Add Numbers" }).click();
  await expect(page.getByText("Numbers Added Successfully")).toBeVisible();
  await expect(page.getByText("Numbers have been added to the DNC store.")).toBeVisible();
  await expect.poll(() => phoneCount(page, 0)).toBe(before0 + 2);

  // A file load into the DNC list goes through the progress page.
  const before1 = await phoneCount(page, 1);
  // Valid NANP numbers (area code and exchange 200–999), unique to this run.
  const npa = pick();
  const nxx = exchange();
  const start = Math.floor(Math.random() * 7000);
  const rows = Array.from({ length: 2000 }, (_, i) => `(${npa}) ${nxx}-${String(start + i).padStart(4, "0")}`);
  await openCardMenu(page, "dnc-card-1");
  await page.getByTestId("dnc-card-1").getByRole("menuitem", { name: "Add Numbers" }).click();
  const fileDialog = page.getByRole("dialog", { name: "Add Numbers" });
  await fileDialog.getByText("CSV", { exact: true }).click();
  await fileDialog.getByLabel("CSV file").setInputFiles({ name: "dnc.csv", mimeType: "text/csv", buffer: Buffer.from(`Phone\n${rows.join("\n")}\n`) });
  if (javaScriptEnabled) await expect(fileDialog.getByTestId("upload-done")).toContainText("Uploaded dnc.csv");
  await fileDialog.getByRole("button", { name: "Add Numbers" }).click();
  await expect(page.getByText("Numbers Added Successfully")).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/dnc$/);
  // Another run may have loaded some of the same numbers: at most 2000 new ones, and at least one.
  expect(await phoneCount(page, 1)).toBeGreaterThan(before1);
  expect(await phoneCount(page, 1)).toBeLessThanOrEqual(before1 + 2000);

  // Remove Numbers.
  await openCardMenu(page, "dnc-card-0");
  await page.getByTestId("dnc-card-0").getByRole("menuitem", { name: "Remove Numbers" }).click();
  const remove = page.getByRole("dialog", { name: "Remove Numbers" });
  await remove.getByLabel("Phone numbers").fill(a);
  await remove.getByRole("button", { name: "Remove Numbers" }).click();
  await expect(page.getByText("DNC List Updated")).toBeVisible();
  await expect.poll(() => phoneCount(page, 0)).toBe(before0 + 1);

  // Edit DNC List (suppression type select + description).
  await openCardMenu(page, "dnc-card-1");
  await page.getByTestId("dnc-card-1").getByRole("menuitem", { name: "Edit DNC List" }).click();
  const edit = page.getByRole("dialog", { name: "Edit DNC List" });
  await expect(edit.getByLabel("Suppression type")).toHaveValue("1");
  await expect(edit.getByLabel("Description")).not.toHaveValue("");
  const description = unique("National registry");
  await edit.getByLabel("Description").fill(description);
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("DNC List Updated")).toBeVisible();
  await expect(page.getByTestId("dnc-card-1").getByText(description)).toBeVisible();
});

test("a new user: subscription dialog on /containers, Access Denied on /dnc, and Create Container reopens once the plan is paid", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = uniqueEmail("containers");
  const password = "containers-pass-1";
  await signUpAndConfirm(page, { email, password, firstName: "Nora", lastName: "Quinn", company: "Quinn Leads", phone: "(555) 201-3344" }, javaScriptEnabled);

  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);

  // DNC Management is for admins: the spec's Access Denied with the user's role, HTTP 403.
  const denied = await page.goto("/dnc");
  expect(denied?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await expect(page.getByText("You don't have permission to access DNC Management.")).toBeVisible();
  await expect(page.getByText("NormalUser")).toBeVisible();

  // No plan: the subscription dialog opens over an empty Storage Containers page.
  await page.goto("/containers");
  await expect(page.getByRole("heading", { name: "Storage Containers" })).toBeVisible();
  await expect(page.getByText("No containers found")).toBeVisible();
  const gate = page.getByRole("dialog");
  await expect(gate.getByRole("heading", { name: "Choose Your Plan" })).toBeVisible();
  await gate.getByRole("link", { name: "Get Started with Beginner" }).click();
  await page.getByRole("button", { name: "Bank Transfer" }).click();
  await expect(page.getByRole("heading", { name: "Complete Payment" })).toBeVisible();
  const reference = (await page.getByTestId("transfer-reference").textContent())!.trim();
  await expect(page.getByRole("link", { name: "Continue" })).toHaveAttribute("href", "/containers?dialog=create-container");
  await page.goto("/dashboard");
  await signOut(page);

  // An admin confirms the transfer.
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/admin/payments");
  await page.getByRole("link", { name: `Review ${reference}` }).click();
  await page.getByTestId("review-panel").getByRole("button", { name: "Mark as Paid" }).click();
  await expect(page.getByText("Payment Confirmed")).toBeVisible();
  await page.goto("/dashboard");
  await signOut(page);

  // Back to the return URL: the create-container dialog opens instead of the subscription dialog.
  await page.goto("/containers?dialog=create-container");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/containers\?dialog=create-container$/);
  await expect(page.getByRole("dialog", { name: "Create Container" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Choose Your Plan" })).toHaveCount(0);
});
