import { expect, test } from "./fixtures";
import { signInAsAdmin } from "./helpers";
import { horizontalOverflow } from "./screens";

/*
 * Opt-outs (issue #47, decision 195), JavaScript on and off, at 390 px: "Record opt-out" on the containers screen (a
 * refused number named under its field, then one recorded), "Import opt-outs" (an old request: honoured late), the
 * internal do-not-call list's card, and the dashboard's counts and late warning.
 */

test.use({ viewport: { width: 390, height: 844 } });

test("record and import opt-outs into the internal do-not-call list; the dashboard names the late one", async ({ page }) => {
  const number = `212555${String(3000 + Math.floor(Math.random() * 1000))}`;
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await signInAsAdmin(page);
  await page.goto("/containers");
  await expect(page.getByRole("heading", { name: "Storage Containers", level: 1 })).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);

  await page.getByRole("link", { name: "Record opt-out" }).click();
  const dialog = page.getByTestId("record-opt-out-dialog");
  await expect(dialog).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);
  await dialog.getByLabel("Phone number").fill("555-0100");
  await dialog.getByLabel(/^Received \(your time/).fill(`${yesterday}T10:00`);
  await dialog.getByLabel("Received by").selectOption("text");
  await dialog.getByLabel("Words received").fill("STOP");
  await dialog.getByRole("button", { name: "Record opt-out" }).click();
  await expect(page.getByTestId("record-opt-out-dialog")).toContainText(/number|digits/i);
  await page.getByTestId("record-opt-out-dialog").getByLabel("Phone number").fill(number);
  await page.getByTestId("record-opt-out-dialog").getByRole("button", { name: "Record opt-out" }).click();
  await expect(page).toHaveURL(/\/containers$/);
  await expect(page.getByTestId("opt-outs")).toContainText(number);
  await expect(page.getByTestId("internal-dnc-badge")).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);

  // an old request imported now: honoured today, long past its ten business days
  await page.getByRole("link", { name: "Import opt-outs" }).click();
  const importing = page.getByTestId("import-opt-outs-dialog");
  await expect(importing).toBeVisible();
  await importing.getByLabel("CSV file").setInputFiles({
    name: "opt-outs.csv",
    mimeType: "text/csv",
    buffer: Buffer.from('number,received_at,channel,words\n3055554321,2025-06-02T10:00:00-04:00,e-mail,"Please remove me, thanks"\n'),
  });
  await importing.getByRole("button", { name: "Import opt-outs" }).click();
  await expect(page).toHaveURL(/\/containers$/);
  await expect(page.getByTestId("opt-outs")).toContainText("3055554321");
  await expect(page.getByTestId("opt-outs")).toContainText("(late)");

  await page.goto("/dashboard");
  await expect(page.getByTestId("opt-outs-received")).toHaveText("1");
  await expect(page.getByTestId("opt-outs-honoured")).toHaveText("2");
  await expect(page.getByTestId("opt-outs-late")).toContainText("3055554321");
  expect(await horizontalOverflow(page)).toBe(0);
});
