import { expect, test } from "./fixtures";
import { signInAsAdmin } from "./helpers";
import { horizontalOverflow } from "./screens";

/*
 * The Integrations page's Dialers section (issue #48), JavaScript on and off, at 390 px: the values to paste (built from
 * the configured address, the key's hint only), a campaign's settings, and Test connection showing the last request a
 * dialer sent; the request itself goes through the real server as VICIdial's filter sends it (multipart, no headers).
 */

test.use({ viewport: { width: 390, height: 844 } });

test("paste the values into a dialer, set a campaign, and see the dialer's last request", async ({ page, request, javaScriptEnabled }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto("/integrations?dialog=create-integration");
  await page.getByRole("dialog").getByLabel("Name").fill(`VICIdial ${Date.now()}`);
  await page.getByRole("dialog").getByRole("button", { name: "Create Integration" }).click();
  const key = await page.getByTestId("revealed-api-key").inputValue();
  await page.getByRole("link", { name: "Done" }).click();

  const dialers = page.getByTestId("dialers");
  await expect(dialers.getByRole("heading", { name: "Dialers" })).toBeVisible();
  // after "Done" the page loads again (a client navigation with JS): wait for the new key's hint before reading
  await expect(dialers.getByLabel("Settings container DNCDOTCOM")).toHaveValue(new RegExp(`LOGIN_ID => ${key.slice(0, 8)}`));
  const container = await dialers.getByLabel("Settings container DNCDOTCOM").inputValue();
  expect(container).toMatch(/^DNC_DOT_COM_URL => http:\/\/localhost:\d+\/api\/compat\/dncscrub\/scrub$/m);
  expect(container).toContain(`LOGIN_ID => ${key.slice(0, 8)}`);
  expect(container).not.toContain(key); // the hint only: the key itself is shown once, when created
  expect(await horizontalOverflow(page)).toBe(0);

  const campaign = `C${Date.now().toString(36)}${javaScriptEnabled ? "js" : "nojs"}`;
  await dialers.getByLabel("Campaign ID").fill(campaign);
  await dialers.getByRole("button", { name: "Set campaign" }).click();
  await expect(page.getByTestId("campaign-row").filter({ hasText: campaign })).toBeVisible();

  // the dialer's request, as the filter sends it: multipart fields, no loginId header, no Origin
  const phones = javaScriptEnabled
    ? Array.from({ length: 51_000 }, (_, i) => `${201 + (i % 5)}555${String(i % 10_000).padStart(4, "0")}`)
    : ["7135553104", "12"];
  const res = await request.post("/api/compat/dncscrub/scrub", {
    multipart: { loginId: key, version: "3", projId: "", campaignId: campaign, phoneList: phones.join(",") },
    timeout: 60_000,
  });
  expect(res.status()).toBe(200);
  const lines = (await res.text()).split("\n").slice(0, -1);
  expect(lines).toHaveLength(phones.length);
  expect(lines.every((l, i) => l.split(",")[0] === phones[i] && /^[CDOEI]$/.test(l.split(",")[1]))).toBe(true);
  // a refused one: one line, and its reason on the page
  const refused = await request.post("/api/compat/dncscrub/scrub", { multipart: { loginId: key, campaignId: campaign } });
  expect(await refused.text()).toBe("ERROR: phoneList is required: comma-separated 10-digit numbers.\n");

  await page.getByRole("button", { name: "Test connection" }).click();
  const last = page.getByTestId("dialer-request").filter({ hasText: "Scrub (DNCScrub-compatible)" });
  await expect(last).toContainText("refused (400)");
  await expect(last).toContainText("phoneList is required");
  await expect(last).toContainText(`campaign ${campaign}`);
  expect(await horizontalOverflow(page)).toBe(0);

  await page.getByRole("button", { name: `Remove campaign ${campaign}` }).click();
  await expect(page.getByTestId("campaign-row").filter({ hasText: campaign })).toHaveCount(0);
});
